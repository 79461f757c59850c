#pragma once

#include "entities/saleupstream.h"
#include "money.h"

#include <QJsonObject>
#include <QString>

#include <optional>

/// The three kinds of sale of the spec (mobile recharge, app-store voucher, DTH recharge).
enum class TransactionType
{
    Mobile,
    Voucher,
    Dth
};

/// transaction_status of the spec.
enum class TransactionStatus
{
    Pending,
    Success,
    Failed
};

namespace TransactionNames {
/// "mobile_recharge" / "appstore_voucher" / "dth_recharge" (the spec's entity values).
QString entity(TransactionType type);
/// "MOBILE" / "VOUCHER" / "DTH" (the spec's `type` values).
QString type(TransactionType type);
/// "event.mobile_recharge" / "event.appstore_voucher" / "event.dth_recharge" (spec, Events).
QString webhookEvent(TransactionType type);
/// "PENDING" / "SUCCESS" / "FAILED".
QString status(TransactionStatus status);
std::optional<TransactionType> typeFromString(const QString &text);     ///< from "MOBILE" etc.
std::optional<TransactionStatus> statusFromString(const QString &text); ///< from "PENDING" etc.
/// True for the tenders of issue 28: "cash" and "upi".
bool isTender(const QString &text);
} // namespace TransactionNames

/// One recharge, voucher or DTH transaction as the API reports it (api-v1.md, "Recharge and
/// voucher transactions"). Money in paise, the time as UTC milliseconds since the epoch.
struct TransactionRecord
{
    qint64 transactionId = 0;
    TransactionType type = TransactionType::Mobile;
    QString operatorCode;
    QString operatorName;
    QString number; ///< phone or DTH subscriber number; empty for vouchers
    Paise billAmount = 0;
    Paise discount = 0;
    Paise paid = 0;
    QString customerEmail; ///< vouchers only; may be empty
    TransactionStatus status = TransactionStatus::Pending;
    QString redeemCode;     ///< vouchers only; empty until SUCCESS
    QString referenceId;    ///< may be empty
    qint64 createdAtMs = 0; ///< UTC, ms since epoch; shown as IST `datetime`
    /// Live sales made through an upstream only (issue 11): the "upstream" extension object
    /// {state, reference_id, transaction_id, attempts, error}; empty for every other record,
    /// which then keeps exactly the spec's fields.
    QJsonObject upstream;
    /// Issue 27, the "failed_after_pending" extension (written only when true): the sale became FAILED after its
    /// client had been shown PENDING (or SUCCESS, a reversal), so the clerk had taken the bill amount from the
    /// customer and now gives it back (the wallet debit was refunded). False for a sale that failed at once.
    bool failedAfterPending = false;
    /// Issue 28, the "tender" extension: how the customer paid the shop, "cash" or "upi"; "" when the client
    /// recorded none (the record then has no "tender" field, as for today's clients).
    QString tender;
    /// Issue 28, the "shift_id" extension: the shift the sale was taken in (issue 28 "Shifts"); 0 for none (the
    /// record then has no "shift_id" field).
    qint64 shiftId = 0;
    /// Issue 29, the "circle_code" extension of a mobile sale: the telecom circle the clerk chose (the circle table's
    /// code); "" when the client sent none (the record then has no "circle_code" field).
    QString circleCode;

    /// The "upstream" extension typed, or nullopt when the record has none (or, built in the process, an
    /// incomplete one; fromJson() rejects those).
    std::optional<SaleUpstream> upstreamSale() const;

    /// The spec's record, exactly: the fields of the entity kind and no others, money as
    /// "₹249.00", datetime in IST. reference_id is "" when the client sent none; customer_email
    /// is "" for a voucher sold without one. Plus "upstream" when that extension is set, and
    /// "failed_after_pending": true when failedAfterPending is, and "tender" / "shift_id" when set.
    QJsonObject toJson() const;
    /// The API's answer body for this record, {"data": toJson()} as compact JSON, byte for byte what
    /// QJsonDocument writes (sorted keys, Qt's escaping), but written directly without building
    /// QJsonObjects (issue 17: ~0.1 M instructions less per sale answer). A live record's "upstream"
    /// object (small) is written by QJsonDocument; records with a character Qt escapes in one of their
    /// own fields take the QJsonDocument path whole.
    QByteArray dataEnvelope() const;

    /// Reads a record as toJson() writes it (for clients and tests). nullopt with *error set
    /// when a field is missing or malformed (also a "failed_after_pending" that is not a boolean; absent reads
    /// as false; a "tender" other than "cash"/"upi", or a "shift_id" not a positive integer; absent or null reads
    /// as none). operatorCode stays empty (the API shows names).
    static std::optional<TransactionRecord> fromJson(const QJsonObject &json, QString *error);
};
