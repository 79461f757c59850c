#include "entities/fundrequest.h"

#include "answerreader.h"
#include "entities/entityfields.h"

#include <QRegularExpression>

namespace {

QJsonValue textOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

} // namespace

const QStringList &FundRequest::methods()
{
    static const QStringList names{QStringLiteral("upi"), QStringLiteral("bank"), QStringLiteral("cash_deposit")};
    return names;
}

const QStringList &FundRequest::states()
{
    static const QStringList names{QStringLiteral("pending"), QStringLiteral("approved"), QStringLiteral("rejected")};
    return names;
}

QString FundRequest::methodLabel(const QString &method)
{
    if (method == QLatin1String("upi"))
        return QStringLiteral("UPI");
    if (method == QLatin1String("bank"))
        return QStringLiteral("bank");
    if (method == QLatin1String("cash_deposit"))
        return QStringLiteral("cash deposit");
    return method;
}

bool FundRequest::isValidUtr(const QString &utr)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9/-]{%1,%2}$").arg(kMinUtr).arg(kMaxUtr));
    return pattern.match(utr).hasMatch();
}

QString FundRequest::slipTypeOf(const QByteArray &bytes)
{
    static const QByteArray png("\x89PNG\r\n\x1a\n", 8);
    static const QByteArray jpeg("\xff\xd8\xff", 3);
    if (bytes.startsWith(png))
        return QStringLiteral("image/png");
    if (bytes.startsWith(jpeg))
        return QStringLiteral("image/jpeg");
    return {};
}

QJsonObject FundRequest::toJson() const
{
    return QJsonObject{
        {QStringLiteral("entity"), QStringLiteral("fund_request")},
        {QStringLiteral("id"), id},
        {QStringLiteral("shop"), QJsonObject{{QStringLiteral("id"), shopId}, {QStringLiteral("name"), shopName}}},
        {QStringLiteral("amount"), Money::format(amount)},
        {QStringLiteral("method"), method},
        {QStringLiteral("utr"), utr},
        {QStringLiteral("reference_id"), referenceId},
        {QStringLiteral("note"), note},
        {QStringLiteral("has_slip"), hasSlip},
        {QStringLiteral("state"), state},
        {QStringLiteral("reason"), textOrNull(reason)},
        {QStringLiteral("decided_by"), textOrNull(decidedBy)},
        {QStringLiteral("decided_at"),
         decidedAt.isValid() ? EntityFields::dateTime(decidedAt) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("created_at"), EntityFields::dateTime(createdAt)},
        {QStringLiteral("duplicate_utr"), duplicateUtr}};
}

std::optional<FundRequest> FundRequest::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("fund request"));
    EntityFields::expectEntity(in, u"fund_request");
    FundRequest r;
    r.id = in.integer(u"id");
    const QJsonObject shop = in.object(u"shop");
    if (in.ok()) {
        AnswerReader shopIn(shop, QStringLiteral("fund request shop"));
        r.shopId = shopIn.integer(u"id");
        r.shopName = shopIn.string(u"name");
        if (!shopIn.ok())
            in.fail(u"shop", shopIn.error());
    }
    r.amount = in.money(u"amount");
    r.method = EntityFields::oneOf(in, u"method", {u"upi", u"bank", u"cash_deposit"});
    r.utr = in.string(u"utr");
    r.referenceId = in.string(u"reference_id");
    r.note = in.string(u"note");
    r.hasSlip = in.boolean(u"has_slip");
    r.state = EntityFields::oneOf(in, u"state", {u"pending", u"approved", u"rejected"});
    r.reason = in.optionalString(u"reason").value_or(QString());
    r.decidedBy = in.optionalString(u"decided_by").value_or(QString());
    r.decidedAt = EntityFields::optionalDateTime(in, u"decided_at").value_or(QDateTime());
    r.createdAt = in.dateTime(u"created_at");
    r.duplicateUtr = in.boolean(u"duplicate_utr");
    if (!in.ok())
        return EntityFields::failed<FundRequest>(in, error);
    return r;
}
