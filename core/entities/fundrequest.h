#pragma once

#include "money.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

/// A shop's request to its distributor for a top-up of its live wallet (issue 30, "Fund requests"): the shop paid the
/// distributor by UPI, bank transfer or a cash deposit and asks to be credited, naming the UTR (the bank's reference)
/// and optionally attaching a photo of the slip. It is `pending` until the distributor's admin approves it (the shop's
/// live wallet credited once, the ledger row naming the request) or rejects it with a reason. The `fund_request`
/// entity of /api/v1/fund-requests (our extension; docs/api/openapi.yaml). Money in paise; times are instants written
/// as IST "YYYY-MM-DD HH:MM:SS".
struct FundRequest
{
    static constexpr int kMaxNote = 200;             ///< characters of `note`
    static constexpr int kMaxReason = 200;           ///< characters of a rejection's `reason`
    static constexpr int kMinUtr = 6;                ///< characters of `utr`, at least
    static constexpr int kMaxUtr = 40;               ///< characters of `utr`, at most
    static constexpr int kMaxReferenceId = 64;       ///< characters of `reference_id`
    static constexpr qint64 kMaxSlipBytes = 1 << 20; ///< bytes of a slip image once decoded (1 MiB)

    qint64 id = 0;
    qint64 shopId = 0;   ///< the shop's account id
    QString shopName;    ///< the shop's account name
    Paise amount = 0;    ///< > 0
    QString method;      ///< one of methods()
    QString utr;         ///< upper-cased, trimmed; 6–40 of [A-Z0-9/-]
    QString referenceId; ///< the shop's idempotency key ("" when it sent none)
    QString note;        ///< the shop's words, ≤ kMaxNote
    bool hasSlip = false;
    QString state;       ///< one of states()
    QString reason;      ///< the rejection's words; "" (null) unless rejected
    QString decidedBy;   ///< who approved or rejected; "" (null) while pending
    QDateTime decidedAt; ///< invalid (null) while pending
    QDateTime createdAt;
    bool duplicateUtr = false; ///< another request (of any shop) carries the same UTR

    /// The methods on the wire: upi, bank, cash_deposit.
    static const QStringList &methods();
    /// The states on the wire: pending, approved, rejected.
    static const QStringList &states();
    /// A method as a ledger note and a person read it: "UPI", "bank", "cash deposit"; the text itself when unknown.
    static QString methodLabel(const QString &method);
    /// True when `utr` (already trimmed) is 6–40 characters of A–Z a–z 0–9 / -.
    static bool isValidUtr(const QString &utr);
    /// The image type a slip's bytes are ("image/png" or "image/jpeg" by their magic bytes), or "" for anything else.
    static QString slipTypeOf(const QByteArray &bytes);

    /// The entity as the API writes it: {entity "fund_request", id, shop {id, name}, amount "₹", method, utr,
    /// reference_id, note, has_slip, state, reason|null, decided_by|null, decided_at|null, created_at, duplicate_utr}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field or an unknown method or
    /// state.
    static std::optional<FundRequest> fromJson(const QJsonObject &json, QString *error);
};
