#include "entities/transactionrecord.h"

#include "answerreader.h"
#include "clock.h"

#include <QJsonDocument>

namespace TransactionNames {

QString entity(TransactionType type)
{
    switch (type) {
    case TransactionType::Mobile:
        return QStringLiteral("mobile_recharge");
    case TransactionType::Voucher:
        return QStringLiteral("appstore_voucher");
    case TransactionType::Dth:
        return QStringLiteral("dth_recharge");
    }
    Q_UNREACHABLE();
}

QString type(TransactionType type)
{
    switch (type) {
    case TransactionType::Mobile:
        return QStringLiteral("MOBILE");
    case TransactionType::Voucher:
        return QStringLiteral("VOUCHER");
    case TransactionType::Dth:
        return QStringLiteral("DTH");
    }
    Q_UNREACHABLE();
}

QString webhookEvent(TransactionType type)
{
    return QStringLiteral("event.") + entity(type);
}

QString status(TransactionStatus status)
{
    switch (status) {
    case TransactionStatus::Pending:
        return QStringLiteral("PENDING");
    case TransactionStatus::Success:
        return QStringLiteral("SUCCESS");
    case TransactionStatus::Failed:
        return QStringLiteral("FAILED");
    }
    Q_UNREACHABLE();
}

std::optional<TransactionType> typeFromString(const QString &text)
{
    for (TransactionType t : {TransactionType::Mobile, TransactionType::Voucher, TransactionType::Dth}) {
        if (type(t) == text)
            return t;
    }
    return std::nullopt;
}

bool isTender(const QString &text)
{
    return text == QLatin1String("cash") || text == QLatin1String("upi");
}

std::optional<TransactionStatus> statusFromString(const QString &text)
{
    for (TransactionStatus s : {TransactionStatus::Pending, TransactionStatus::Success, TransactionStatus::Failed}) {
        if (status(s) == text)
            return s;
    }
    return std::nullopt;
}

} // namespace TransactionNames

QJsonObject TransactionRecord::toJson() const
{
    QJsonObject json{
        {QStringLiteral("entity"), TransactionNames::entity(type)},
        {QStringLiteral("transaction_id"), transactionId},
        {QStringLiteral("operator"), operatorName},
        {QStringLiteral("type"), TransactionNames::type(type)},
        {QStringLiteral("bill_amount"), Money::format(billAmount)},
        {QStringLiteral("discount"), Money::format(discount)},
        {QStringLiteral("paid"), Money::format(paid)},
        {QStringLiteral("transaction_status"), TransactionNames::status(status)},
        {QStringLiteral("reference_id"), referenceId},
        {QStringLiteral("datetime"), IstTime::formatMs(createdAtMs)},
    };
    if (type == TransactionType::Voucher) {
        json.insert(QStringLiteral("customer_email"), customerEmail);
        json.insert(QStringLiteral("redeem_code"), redeemCode);
    } else {
        json.insert(QStringLiteral("number"), number);
    }
    if (!upstream.isEmpty())
        json.insert(QStringLiteral("upstream"), upstream);
    if (failedAfterPending)
        json.insert(QStringLiteral("failed_after_pending"), true);
    if (!tender.isEmpty())
        json.insert(QStringLiteral("tender"), tender);
    if (shiftId > 0)
        json.insert(QStringLiteral("shift_id"), shiftId);
    if (!circleCode.isEmpty())
        json.insert(QStringLiteral("circle_code"), circleCode);
    return json;
}

namespace {

/// True when Qt's JSON writer writes `text` as its plain UTF-8: no control character, quote or backslash (which
/// it escapes) and no surrogate (an unpaired one it writes as \uXXXX).
bool writtenAsIs(const QString &text)
{
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u < 0x20 || u == u'"' || u == u'\\' || c.isSurrogate())
            return false;
    }
    return true;
}

/// Appends "key":"value" (value plain, see writtenAsIs) and a comma unless `last`.
void appendString(QByteArray &out, const char *key, const QString &value, bool last = false)
{
    out += '"';
    out += key;
    out += "\":\"";
    out += value.toUtf8();
    out += last ? "\"" : "\",";
}

} // namespace

QByteArray TransactionRecord::dataEnvelope() const
{
    const QString datetime = IstTime::formatMs(createdAtMs);
    bool plain = true;
    for (const QString *text :
         {&operatorName, &number, &customerEmail, &redeemCode, &referenceId, &datetime, &tender, &circleCode})
        plain = plain && writtenAsIs(*text);
    if (!plain)
        return QJsonDocument(QJsonObject{{QStringLiteral("data"), toJson()}}).toJson(QJsonDocument::Compact);
    // The members in the order QJsonObject keeps them: sorted by key.
    QByteArray out;
    out.reserve(384);
    out += "{\"data\":{";
    appendString(out, "bill_amount", Money::format(billAmount));
    if (!circleCode.isEmpty())
        appendString(out, "circle_code", circleCode);
    if (type == TransactionType::Voucher)
        appendString(out, "customer_email", customerEmail);
    appendString(out, "datetime", datetime);
    appendString(out, "discount", Money::format(discount));
    appendString(out, "entity", TransactionNames::entity(type));
    if (failedAfterPending)
        out += "\"failed_after_pending\":true,";
    if (type != TransactionType::Voucher)
        appendString(out, "number", number);
    appendString(out, "operator", operatorName);
    appendString(out, "paid", Money::format(paid));
    if (type == TransactionType::Voucher)
        appendString(out, "redeem_code", redeemCode);
    appendString(out, "reference_id", referenceId);
    if (shiftId > 0) {
        out += "\"shift_id\":";
        out += QByteArray::number(shiftId);
        out += ',';
    }
    if (!tender.isEmpty())
        appendString(out, "tender", tender);
    out += "\"transaction_id\":";
    out += QByteArray::number(transactionId);
    out += ',';
    appendString(out, "transaction_status", TransactionNames::status(status));
    appendString(out, "type", TransactionNames::type(type), true);
    if (!upstream.isEmpty()) {
        // Last in key order; Qt writes a nested object compactly exactly as on its own.
        out += ",\"upstream\":";
        out += QJsonDocument(upstream).toJson(QJsonDocument::Compact);
    }
    out += "}}";
    return out;
}

std::optional<TransactionRecord> TransactionRecord::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("transaction"));
    TransactionRecord record;
    const QString typeText = in.string(u"type");
    const std::optional<TransactionType> type = TransactionNames::typeFromString(typeText);
    if (in.ok() && !type)
        in.fail(u"type", QStringLiteral("is not MOBILE, VOUCHER or DTH (\"%1\")").arg(typeText));
    if (in.ok() && in.string(u"entity") != TransactionNames::entity(*type))
        in.fail(u"entity", QStringLiteral("is not %1").arg(TransactionNames::entity(*type)));
    const QString statusText = in.string(u"transaction_status");
    const std::optional<TransactionStatus> status = TransactionNames::statusFromString(statusText);
    if (in.ok() && !status)
        in.fail(u"transaction_status", QStringLiteral("is not PENDING, SUCCESS or FAILED (\"%1\")").arg(statusText));
    record.transactionId = in.integer(u"transaction_id");
    if (in.ok() && record.transactionId <= 0)
        in.fail(u"transaction_id", QStringLiteral("is not positive"));
    record.operatorName = in.string(u"operator");
    record.billAmount = in.money(u"bill_amount");
    record.discount = in.money(u"discount");
    record.paid = in.money(u"paid");
    record.referenceId = in.string(u"reference_id");
    const QDateTime created = in.dateTime(u"datetime");
    if (in.ok() && *type == TransactionType::Voucher) {
        record.customerEmail = in.string(u"customer_email");
        record.redeemCode = in.string(u"redeem_code");
    } else if (in.ok()) {
        record.number = in.string(u"number");
    }
    if (in.ok() && json.contains(QStringLiteral("upstream"))) {
        record.upstream = in.object(u"upstream");
        QString why;
        if (in.ok() && !SaleUpstream::fromJson(record.upstream, &why))
            in.fail(u"upstream", why);
    }
    if (in.ok() && json.contains(QStringLiteral("failed_after_pending")))
        record.failedAfterPending = in.boolean(u"failed_after_pending");
    record.tender = in.optionalString(u"tender").value_or(QString());
    if (in.ok() && !record.tender.isEmpty() && !TransactionNames::isTender(record.tender))
        in.fail(u"tender", QStringLiteral("is not cash or upi (\"%1\")").arg(record.tender));
    record.circleCode = in.optionalString(u"circle_code").value_or(QString());
    record.shiftId = in.optionalInteger(u"shift_id").value_or(0);
    if (in.ok() && json.contains(QStringLiteral("shift_id")) && !json.value(QStringLiteral("shift_id")).isNull() &&
        record.shiftId <= 0)
        in.fail(u"shift_id", QStringLiteral("is not positive"));
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    record.type = *type;
    record.status = *status;
    record.createdAtMs = created.toMSecsSinceEpoch();
    return record;
}

std::optional<SaleUpstream> TransactionRecord::upstreamSale() const
{
    if (upstream.isEmpty())
        return std::nullopt;
    QString ignored; // fromJson() has checked it; a record built in the process may carry less
    return SaleUpstream::fromJson(upstream, &ignored);
}
