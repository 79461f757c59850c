#include "statementrun.h"

#include "clock.h"
#include "entityfields.h"

#include <QJsonArray>

namespace {

/// A count of StatementCounts: a required integer of at least 0.
qint64 count(AnswerReader &in, QStringView field)
{
    const qint64 value = in.integer(field);
    if (in.ok() && value < 0)
        in.fail(field, QStringLiteral("is negative"));
    return value;
}

} // namespace

QString StatementLine::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Mismatch:
        return QStringLiteral("mismatch");
    case Kind::Unknown:
        return QStringLiteral("unknown");
    case Kind::Unreadable:
        return QStringLiteral("unreadable");
    }
    return QString();
}

std::optional<StatementLine::Kind> StatementLine::kindFromName(const QString &name)
{
    for (const Kind kind : {Kind::Mismatch, Kind::Unknown, Kind::Unreadable}) {
        if (kindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

QJsonObject StatementLine::toJson() const
{
    return QJsonObject{
        {QStringLiteral("row"), row},
        {QStringLiteral("kind"), kindName(kind)},
        {QStringLiteral("reference_id"), referenceId},
        {QStringLiteral("transaction_id"),
         EntityFields::integerOrNull(transactionId > 0 ? std::optional<qint64>(transactionId) : std::nullopt)},
        {QStringLiteral("statement"), statement},
        {QStringLiteral("held"), EntityFields::stringOrNull(held.isEmpty() ? std::nullopt : std::optional(held))},
        {QStringLiteral("reason"), reason},
        {QStringLiteral("description"), description},
    };
}

std::optional<StatementLine> StatementLine::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("statement line"));
    StatementLine line;
    line.row = in.integer(u"row");
    const QString kind = in.string(u"kind");
    if (in.ok()) {
        if (const std::optional<Kind> known = kindFromName(kind))
            line.kind = *known;
        else
            in.fail(u"kind", QStringLiteral("has the unknown value \"%1\"").arg(kind));
    }
    line.referenceId = in.string(u"reference_id");
    line.transactionId = in.optionalInteger(u"transaction_id").value_or(0);
    line.statement = in.string(u"statement");
    line.held = in.optionalString(u"held").value_or(QString());
    line.reason = in.string(u"reason");
    line.description = in.string(u"description");
    if (!in.ok())
        return EntityFields::failed<StatementLine>(in, error);
    return line;
}

QJsonObject StatementCounts::toJson() const
{
    return QJsonObject{{QStringLiteral("rows"), rows},
                       {QStringLiteral("matched"), matched},
                       {QStringLiteral("settled"), settled},
                       {QStringLiteral("reversed"), reversed},
                       {QStringLiteral("mismatched"), mismatched},
                       {QStringLiteral("unchanged"), unchanged},
                       {QStringLiteral("unknown"), unknown},
                       {QStringLiteral("unreadable"), unreadable}};
}

std::optional<StatementCounts> StatementCounts::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("statement counts"));
    StatementCounts counts;
    counts.rows = count(in, u"rows");
    counts.matched = count(in, u"matched");
    counts.settled = count(in, u"settled");
    counts.reversed = count(in, u"reversed");
    counts.mismatched = count(in, u"mismatched");
    counts.unchanged = count(in, u"unchanged");
    counts.unknown = count(in, u"unknown");
    counts.unreadable = count(in, u"unreadable");
    if (in.ok() && counts.rows != counts.matched + counts.unknown + counts.unreadable)
        in.fail(u"rows", QStringLiteral("is not matched + unknown + unreadable"));
    if (in.ok() && counts.matched != counts.settled + counts.reversed + counts.mismatched + counts.unchanged)
        in.fail(u"matched", QStringLiteral("is not settled + reversed + mismatched + unchanged"));
    if (!in.ok())
        return EntityFields::failed<StatementCounts>(in, error);
    return counts;
}

QJsonObject StatementRun::toJson() const
{
    QJsonObject json{{QStringLiteral("entity"), QStringLiteral("statement_run")},
                     {QStringLiteral("id"), id},
                     {QStringLiteral("upstream"), upstream},
                     {QStringLiteral("datetime"), IstTime::formatMs(createdAtMs)},
                     {QStringLiteral("actor"), actor},
                     {QStringLiteral("file_name"), fileName},
                     {QStringLiteral("counts"), counts.toJson()},
                     {QStringLiteral("lines_total"), linesTotal}};
    if (withLines) {
        QJsonArray array;
        for (const StatementLine &line : lines)
            array.append(line.toJson());
        json.insert(QStringLiteral("lines"), array);
    }
    return json;
}

std::optional<StatementRun> StatementRun::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("statement run"));
    EntityFields::expectEntity(in, u"statement_run");
    StatementRun run;
    run.id = in.integer(u"id");
    run.upstream = in.string(u"upstream");
    run.createdAtMs = in.dateTime(u"datetime").toMSecsSinceEpoch();
    run.actor = in.string(u"actor");
    run.fileName = in.string(u"file_name");
    const QJsonObject counts = in.object(u"counts");
    if (in.ok()) {
        QString why;
        if (const std::optional<StatementCounts> read = StatementCounts::fromJson(counts, &why))
            run.counts = *read;
        else
            in.fail(u"counts", why);
    }
    run.linesTotal = count(in, u"lines_total");
    run.withLines = json.contains(QStringLiteral("lines"));
    if (run.withLines)
        run.lines = in.list<StatementLine>(u"lines", &StatementLine::fromJson);
    if (in.ok() && run.lines.size() > run.linesTotal)
        in.fail(u"lines", QStringLiteral("has more lines than lines_total"));
    if (!in.ok())
        return EntityFields::failed<StatementRun>(in, error);
    return run;
}
