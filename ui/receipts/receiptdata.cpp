#include "receiptdata.h"

#include "clock.h"
#include "upstreamsaleinfo.h"

ReceiptData ReceiptData::fromRecord(const TransactionRecord &record, const QString &shopName,
                                    const QString &shopAddress, const QDate &today)
{
    ReceiptData data;
    data.shopName = shopName;
    data.shopAddress = shopAddress;
    data.datetime = IstTime::formatMs(record.createdAtMs);
    data.transactionId = QString::number(record.transactionId);
    data.type = TransactionNames::type(record.type);
    data.operatorName = record.operatorName;
    data.number = record.number;
    data.redeemCode = record.redeemCode;
    data.customerEmail = record.customerEmail;
    data.billAmount = Money::formatIndian(record.billAmount);
    data.discount = Money::formatIndian(record.discount);
    data.paid = Money::formatIndian(record.paid);
    data.status = TransactionNames::status(record.status);
    data.referenceId = record.referenceId;
    data.reversal = UpstreamSaleInfo::fromRecord(record).reversalText(today);
    data.failedAfterPending = record.failedAfterPending;
    data.tender = record.tender;
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
