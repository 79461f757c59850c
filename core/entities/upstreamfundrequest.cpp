#include "entities/upstreamfundrequest.h"

#include "answerreader.h"
#include "entities/entityfields.h"

namespace {

QJsonValue textOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

} // namespace

const QStringList &UpstreamFundRequest::states()
{
    static const QStringList names{QStringLiteral("sending"), QStringLiteral("pending"), QStringLiteral("approved"),
                                   QStringLiteral("rejected"), QStringLiteral("refused")};
    return names;
}

bool UpstreamFundRequest::isFinalState(const QString &state)
{
    return state == QLatin1String("approved") || state == QLatin1String("rejected") ||
           state == QLatin1String("refused");
}

QJsonObject UpstreamFundRequest::toJson() const
{
    return QJsonObject{
        {QStringLiteral("entity"), QStringLiteral("upstream_fund_request")},
        {QStringLiteral("id"), id},
        {QStringLiteral("upstream"), upstream},
        {QStringLiteral("remote_id"), remoteId > 0 ? QJsonValue(remoteId) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("amount"), Money::format(amount)},
        {QStringLiteral("method"), method},
        {QStringLiteral("utr"), utr},
        {QStringLiteral("note"), note},
        {QStringLiteral("state"), state},
        {QStringLiteral("reason"), textOrNull(reason)},
        {QStringLiteral("credited_at"),
         creditedAt.isValid() ? EntityFields::dateTime(creditedAt) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("created_at"), EntityFields::dateTime(createdAt)}};
}

std::optional<UpstreamFundRequest> UpstreamFundRequest::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream fund request"));
    EntityFields::expectEntity(in, u"upstream_fund_request");
    UpstreamFundRequest r;
    r.id = in.integer(u"id");
    r.upstream = in.string(u"upstream");
    r.remoteId = in.optionalInteger(u"remote_id").value_or(0);
    r.amount = in.money(u"amount");
    r.method = EntityFields::oneOf(in, u"method", {u"upi", u"bank", u"cash_deposit"});
    r.utr = in.string(u"utr");
    r.note = in.string(u"note");
    r.state = EntityFields::oneOf(in, u"state", {u"sending", u"pending", u"approved", u"rejected", u"refused"});
    r.reason = in.optionalString(u"reason").value_or(QString());
    r.creditedAt = EntityFields::optionalDateTime(in, u"credited_at").value_or(QDateTime());
    r.createdAt = in.dateTime(u"created_at");
    if (!in.ok())
        return EntityFields::failed<UpstreamFundRequest>(in, error);
    return r;
}
