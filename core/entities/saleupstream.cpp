#include "saleupstream.h"

#include "clock.h"
#include "entityfields.h"

#include <QJsonArray>

QJsonValue SaleUpstream::resolutionJson() const
{
    if (!resolution)
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("by"), resolution->by},
                       {QStringLiteral("note"), resolution->note},
                       {QStringLiteral("at"), IstTime::formatMs(resolution->atMs)}};
}

QJsonArray SaleUpstream::triedJson() const
{
    QJsonArray items;
    for (const Attempt &attempt : tried)
        items.append(QJsonObject{
            {QStringLiteral("upstream"), attempt.upstream},
            {QStringLiteral("reference_id"), attempt.referenceId},
            {QStringLiteral("outcome"), attempt.outcome},
            {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), attempt.error.code},
                                                  {QStringLiteral("description"), attempt.error.description}}}});
    return items;
}

QJsonValue SaleUpstream::reversalJson() const
{
    if (!reversal)
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("source"), reversal->source},
                       {QStringLiteral("at"), IstTime::formatMs(reversal->atMs)}};
}

QJsonValue SaleUpstream::mismatchJson() const
{
    if (!mismatch)
        return QJsonValue::Null;
    return QJsonObject{{QStringLiteral("reported"), mismatch->reported},
                       {QStringLiteral("source"), mismatch->source},
                       {QStringLiteral("at"), IstTime::formatMs(mismatch->atMs)}};
}

namespace {

/// The IST time of `field` in `in` as UTC ms; fails `in` when it is not one.
qint64 istTime(AnswerReader &in, QStringView field)
{
    const QString text = in.string(field);
    const QDateTime at = IstTime::parse(text);
    if (in.ok() && !at.isValid())
        in.fail(field, QStringLiteral("is not a date and time"));
    return at.isValid() ? at.toMSecsSinceEpoch() : 0;
}

/// Reads the optional object `field` of `json` with `read` (an AnswerReader over it); fails `in` when it is
/// neither null nor a readable object.
template <class T, class Read>
std::optional<T> optionalObject(AnswerReader &in, const QJsonObject &json, QStringView field, Read read)
{
    const QJsonValue value = json.value(field);
    if (!in.ok() || value.isNull() || value.isUndefined())
        return std::nullopt;
    AnswerReader inner(in.object(field), QStringLiteral("upstream ") + field.toString());
    T result = read(inner);
    if (!inner.ok()) {
        in.fail(field, inner.error());
        return std::nullopt;
    }
    return result;
}

} // namespace

std::optional<SaleUpstream> SaleUpstream::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream"));
    SaleUpstream sale;
    sale.state =
        EntityFields::oneOf(in, u"state", {u"queued", u"sent", u"unknown", u"pending", u"settled", u"refused"});
    sale.referenceId = in.string(u"reference_id");
    sale.transactionId = in.optionalInteger(u"transaction_id");
    sale.attempts = in.integer(u"attempts");
    const QJsonValue errorValue = json.value(QStringLiteral("error"));
    if (in.ok() && !errorValue.isNull() && !errorValue.isUndefined()) {
        AnswerReader errorIn(in.object(u"error"), QStringLiteral("upstream error"));
        Error why;
        why.code = errorIn.string(u"code");
        why.description = errorIn.string(u"description");
        if (!errorIn.ok())
            in.fail(u"error", errorIn.error());
        sale.error = why;
    }
    sale.attention = json.value(QStringLiteral("attention")).toBool(false);
    sale.sendOnce = json.value(QStringLiteral("send_once")).toBool(false);
    sale.upstream = json.contains(QStringLiteral("upstream")) ? in.string(u"upstream") : QString();
    if (json.contains(QStringLiteral("tried")))
        sale.tried = in.list<Attempt>(u"tried", [](const QJsonObject &item, QString *why) -> std::optional<Attempt> {
            AnswerReader attemptIn(item, QStringLiteral("tried"));
            Attempt attempt;
            attempt.upstream = attemptIn.string(u"upstream");
            attempt.referenceId = attemptIn.string(u"reference_id");
            attempt.outcome = attemptIn.string(u"outcome");
            AnswerReader errorIn(attemptIn.object(u"error"), QStringLiteral("tried error"));
            attempt.error = Error{errorIn.string(u"code"), errorIn.string(u"description")};
            if (!errorIn.ok())
                attemptIn.fail(u"error", errorIn.error());
            if (!attemptIn.ok()) {
                *why = attemptIn.error();
                return std::nullopt;
            }
            return attempt;
        });
    sale.resolution = optionalObject<Resolution>(in, json, u"resolution", [](AnswerReader &r) {
        return Resolution{r.string(u"by"), r.string(u"note"), istTime(r, u"at")};
    });
    sale.reversal = optionalObject<Reversal>(in, json, u"reversal", [](AnswerReader &r) {
        return Reversal{r.string(u"source"), istTime(r, u"at")};
    });
    sale.mismatch = optionalObject<Mismatch>(in, json, u"mismatch", [](AnswerReader &r) {
        return Mismatch{r.string(u"reported"), r.string(u"source"), istTime(r, u"at")};
    });
    if (!in.ok())
        return EntityFields::failed<SaleUpstream>(in, error);
    return sale;
}

QJsonObject SaleUpstream::toJson() const
{
    QJsonValue why = QJsonValue::Null;
    if (error)
        why = QJsonObject{{QStringLiteral("code"), error->code}, {QStringLiteral("description"), error->description}};
    return QJsonObject{{QStringLiteral("state"), state},
                       {QStringLiteral("reference_id"), referenceId},
                       {QStringLiteral("transaction_id"), EntityFields::integerOrNull(transactionId)},
                       {QStringLiteral("attempts"), attempts},
                       {QStringLiteral("error"), why},
                       {QStringLiteral("attention"), attention},
                       {QStringLiteral("send_once"), sendOnce},
                       {QStringLiteral("upstream"), upstream},
                       {QStringLiteral("tried"), triedJson()},
                       {QStringLiteral("resolution"), resolutionJson()},
                       {QStringLiteral("reversal"), reversalJson()},
                       {QStringLiteral("mismatch"), mismatchJson()}};
}
