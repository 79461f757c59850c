#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

/// Everything a receipt shows, as ready text: money already in the spec's form ("₹249.00"),
/// the date-time in IST. Receipts take only already-masked identity text: an Aadhaar number
/// must arrive masked ("XXXX XXXX 1234"), and ReceiptRenderer masks any 12-digit run anyway.
struct ReceiptData
{
    Q_DECLARE_TR_FUNCTIONS(ReceiptData)

public:
    QString shopName;
    QString shopAddress;
    QString datetime; ///< "YYYY-MM-DD HH:MM:SS", IST
    QString transactionId;
    QString type; ///< "MOBILE", "DTH" or "VOUCHER" (the spec's `type`)
    QString operatorName;
    QString number;        ///< phone or subscriber number; empty for vouchers
    QString redeemCode;    ///< vouchers only
    QString customerEmail; ///< vouchers only, may be empty
    QString billAmount;
    QString discount;
    QString paid;
    QString status; ///< "SUCCESS", "PENDING" or "FAILED"
    QString referenceId;
    QString verifiedCustomer; ///< optional, masked Aadhaar of a verified customer

    /// Builds the receipt of a spec transaction record (api-v1.md, "Recharge and voucher
    /// transactions") for the shop named here.
    static ReceiptData fromRecord(const QJsonObject &record, const QString &shopName, const QString &shopAddress);

    /// "Mobile recharge", "DTH recharge" or "Gift voucher" for the `type` field.
    QString typeTitle() const;
    /// "Mobile number" / "Subscriber number" for the `number` field.
    QString numberLabel() const;
};
