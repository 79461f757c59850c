#include "receiptdata.h"

ReceiptData ReceiptData::fromRecord(const QJsonObject &record, const QString &shopName, const QString &shopAddress)
{
    const auto text = [&record](const char *field) { return record.value(QLatin1String(field)).toString(); };
    ReceiptData data;
    data.shopName = shopName;
    data.shopAddress = shopAddress;
    data.datetime = text("datetime");
    data.transactionId = QString::number(record.value(QStringLiteral("transaction_id")).toInteger());
    data.type = text("type");
    data.operatorName = text("operator");
    data.number = text("number");
    data.redeemCode = text("redeem_code");
    data.customerEmail = text("customer_email");
    data.billAmount = Money::displayText(text("bill_amount"));
    data.discount = Money::displayText(text("discount"));
    data.paid = Money::displayText(text("paid"));
    data.status = text("transaction_status");
    data.referenceId = text("reference_id");
    return data;
}

QString ReceiptData::typeTitle() const
{
    if (type == QLatin1String("MOBILE"))
        return tr("Mobile recharge");
    if (type == QLatin1String("DTH"))
        return tr("DTH recharge");
    if (type == QLatin1String("VOUCHER"))
        return tr("Gift voucher");
    return type;
}

QString ReceiptData::numberLabel() const
{
    return type == QLatin1String("DTH") ? tr("Subscriber no.") : tr("Mobile no.");
}

QString ReceiptData::statusText() const
{
    if (status == QLatin1String("SUCCESS"))
        return tr("Successful");
    if (status == QLatin1String("PENDING"))
        return tr("Pending");
    if (status == QLatin1String("FAILED"))
        return tr("Failed");
    return status;
}
