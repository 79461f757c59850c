#include "entities/complaint.h"

#include "answerreader.h"
#include "entities/entityfields.h"

namespace {

QJsonValue textOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

} // namespace

const QStringList &Complaint::reasons()
{
    static const QStringList names{QStringLiteral("not_received"), QStringLiteral("wrong_number"),
                                   QStringLiteral("wrong_operator"), QStringLiteral("wrong_amount"),
                                   QStringLiteral("other")};
    return names;
}

const QStringList &Complaint::states()
{
    static const QStringList names{QStringLiteral("open"), QStringLiteral("with_upstream"), QStringLiteral("credited"),
                                   QStringLiteral("rejected")};
    return names;
}

bool Complaint::isResolvedState(const QString &state)
{
    return state == QLatin1String("credited") || state == QLatin1String("rejected");
}

QJsonObject Complaint::Upstream::toJson() const
{
    return QJsonObject{
        {QStringLiteral("name"), name},
        {QStringLiteral("complaint_id"), complaintId > 0 ? QJsonValue(complaintId) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("note"), textOrNull(note)}};
}

std::optional<Complaint::Upstream> Complaint::Upstream::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("complaint upstream"));
    Upstream upstream;
    upstream.name = in.string(u"name");
    upstream.complaintId = in.optionalInteger(u"complaint_id").value_or(0);
    upstream.note = in.optionalString(u"note").value_or(QString());
    if (!in.ok())
        return EntityFields::failed<Upstream>(in, error);
    return upstream;
}

QJsonObject Complaint::toJson() const
{
    return QJsonObject{
        {QStringLiteral("entity"), QStringLiteral("complaint")},
        {QStringLiteral("id"), id},
        {QStringLiteral("transaction_id"), transactionId},
        {QStringLiteral("reference_id"), referenceId},
        {QStringLiteral("number"), number},
        {QStringLiteral("operator_code"), operatorCode},
        {QStringLiteral("amount"), Money::format(amount)},
        {QStringLiteral("transaction_status"), saleStatus},
        {QStringLiteral("mode"), mode},
        {QStringLiteral("reason"), reason},
        {QStringLiteral("note"), note},
        {QStringLiteral("state"), state},
        {QStringLiteral("resolution"), textOrNull(resolution)},
        {QStringLiteral("operator_reference"), textOrNull(operatorReference)},
        {QStringLiteral("raised_by"), raisedBy},
        {QStringLiteral("raised_at"), EntityFields::dateTime(raisedAt)},
        {QStringLiteral("resolved_by"), textOrNull(resolvedBy)},
        {QStringLiteral("resolved_at"),
         resolvedAt.isValid() ? EntityFields::dateTime(resolvedAt) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("deadline_at"), EntityFields::dateTime(deadlineAt)},
        {QStringLiteral("age_seconds"), ageSeconds},
        {QStringLiteral("past_deadline"), pastDeadline},
        {QStringLiteral("upstream"), upstream ? QJsonValue(upstream->toJson()) : QJsonValue(QJsonValue::Null)}};
}

std::optional<Complaint> Complaint::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("complaint"));
    EntityFields::expectEntity(in, u"complaint");
    Complaint c;
    c.id = in.integer(u"id");
    c.transactionId = in.integer(u"transaction_id");
    c.referenceId = in.string(u"reference_id");
    c.number = in.string(u"number");
    c.operatorCode = in.string(u"operator_code");
    c.amount = in.money(u"amount");
    c.saleStatus = EntityFields::oneOf(in, u"transaction_status", {u"SUCCESS", u"PENDING", u"FAILED"});
    c.mode = EntityFields::oneOf(in, u"mode", {u"test", u"live"});
    c.reason = EntityFields::oneOf(in, u"reason",
                                   {u"not_received", u"wrong_number", u"wrong_operator", u"wrong_amount", u"other"});
    c.note = in.string(u"note");
    c.state = EntityFields::oneOf(in, u"state", {u"open", u"with_upstream", u"credited", u"rejected"});
    c.resolution = in.optionalString(u"resolution").value_or(QString());
    c.operatorReference = in.optionalString(u"operator_reference").value_or(QString());
    c.raisedBy = in.string(u"raised_by");
    c.raisedAt = in.dateTime(u"raised_at");
    c.resolvedBy = in.optionalString(u"resolved_by").value_or(QString());
    c.resolvedAt = EntityFields::optionalDateTime(in, u"resolved_at").value_or(QDateTime());
    c.deadlineAt = in.dateTime(u"deadline_at");
    c.ageSeconds = in.integer(u"age_seconds");
    c.pastDeadline = in.boolean(u"past_deadline");
    const QJsonValue upstream = json.value(QStringLiteral("upstream"));
    if (in.ok() && !upstream.isNull() && !upstream.isUndefined()) {
        QString why;
        c.upstream = upstream.isObject() ? Upstream::fromJson(upstream.toObject(), &why) : std::nullopt;
        if (!c.upstream)
            in.fail(u"upstream", why.isEmpty() ? QStringLiteral("is not an object or null") : why);
    }
    if (!in.ok())
        return EntityFields::failed<Complaint>(in, error);
    return c;
}
