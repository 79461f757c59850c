#pragma once

#include "entities/transactionrecord.h"
#include "money.h"

#include <QCoreApplication>
#include <QDate>
#include <QString>

#include <optional>

/// The prepaid plan a sale was made from (Plans → "Sell this plan"), as its receipt shows it.
/// The transaction record does not carry it: the sale screen hands it on.
struct SoldPlan
{
    Paise price = 0;  ///< the plan's price in paise
    QString validity; ///< "28 days"
    QString benefits; ///< "Unlimited calls, 1.5 GB/day, 100 SMS/day"
};

/// Everything a receipt shows, as ready text: money in the form people read ("₹1,299.00",
/// Money::formatIndian), the date-time in IST. Receipts take only already-masked identity text:
/// an Aadhaar number must arrive masked ("XXXX XXXX 1234"), and ReceiptRenderer masks any
/// 12-digit run anyway.
///
/// The customer's copy shows what the customer pays (the bill amount); only the shop's copy
/// (`shopCopy`) adds the shop's commission (the discount) and the wallet debit (paid).
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
    QString circle;        ///< the circle chosen for a mobile sale, e.g. "Mumbai (MU)"; may be empty
    QString redeemCode;    ///< vouchers only
    QString customerEmail; ///< vouchers only, may be empty
    QString billAmount;    ///< what the customer pays
    QString discount;      ///< the shop's commission
    QString paid;          ///< what the shop's wallet is debited (bill − discount)
    QString status;        ///< "SUCCESS", "PENDING" or "FAILED"
    QString referenceId;
    QString verifiedCustomer; ///< optional, masked Aadhaar of a verified customer
    /// "Reversed by the operator at 14:05" when the upstream reversed the sale after SUCCESS (issue 26); else empty.
    QString reversal;
    /// "Credited back after complaint 7 (28 Nov)" when a complaint about the sale was resolved as credited (issue 29):
    /// the sale was reversed and refunded; else empty. Set by whoever knows the sale's complaints (History).
    QString complaintCredit;
    std::optional<SoldPlan> plan; ///< the plan sold, when the sale came from the Plans screen
    bool sandbox = false;         ///< a test-key sale: stamped "TEST — NOT A REAL RECHARGE"
    bool shopCopy = false;        ///< the shop's copy: adds commission and wallet debit
    /// FAILED after the customer had been told to pay (shown PENDING or SUCCESS first; the record's
    /// "failed_after_pending", issue 27): the bill amount goes back to the customer.
    bool failedAfterPending = false;
    /// How the customer paid the shop (issue 28): "cash", "upi", or "" when the sale recorded none.
    QString tender;
    /// The shop's UPI link for this sale's amount, printed as a QR under a UPI sale when the terminal is set to
    /// ("receipts/print_upi_qr"); empty: no QR.
    QString upiLink;

    /// Builds the receipt of a spec transaction record (api-v1.md, "Recharge and voucher
    /// transactions") for the shop named here; money is re-formatted for people. A reversal's time gets its date
    /// unless it was `today` (an IST date; invalid: always the date).
    static ReceiptData fromRecord(const TransactionRecord &record, const QString &shopName, const QString &shopAddress,
                                  const QDate &today = {});

    /// "Mobile recharge", "DTH recharge" or "Gift voucher" for the `type` field.
    QString typeTitle() const;
    /// "Mobile number" / "Subscriber number" for the `number` field.
    QString numberLabel() const;
    /// The status in the receipt's language: "Successful", "Pending", "Failed".
    QString statusText() const;
    /// True for a FAILED sale: nothing was recharged and the customer pays nothing.
    bool failed() const { return status == QLatin1String("FAILED"); }
    /// True when the customer paid by UPI (issue 28).
    bool paidByUpi() const { return tender == QLatin1String("upi"); }
    /// True for a FAILED sale the customer had paid for: failedAfterPending, or paid by UPI (the clerk confirms
    /// "UPI received" before the sale is sent). Give the bill amount back.
    bool givesMoneyBack() const { return failed() && (failedAfterPending || paidByUpi()); }
};
