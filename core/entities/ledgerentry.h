#pragma once

#include "money.h"

#include <QJsonObject>
#include <QString>

#include <optional>

/// Why a ledger row exists.
enum class LedgerKind
{
    Opening,
    Topup,
    Debit,
    Refund
};

namespace LedgerNames {
QString kind(LedgerKind kind);                                 ///< "opening" / "topup" / "debit" / "refund"
std::optional<LedgerKind> kindFromString(const QString &text); ///< from "opening" etc.
} // namespace LedgerNames

/// One wallet ledger row (api-conventions.md, "Wallet"): a signed amount in paise (credit > 0,
/// debit < 0), the sale it belongs to, who made it and why, when (UTC ms; IST on the wire).
/// GET /api/v1/wallet/ledger and /api/v1/transactions/{id}/ledger list them.
struct LedgerEntry
{
    qint64 id = 0;
    Paise amount = 0;
    LedgerKind kind = LedgerKind::Topup;
    qint64 transactionId = 0; ///< 0 when not tied to a transaction
    QString note;
    QString actor;
    qint64 createdAtMs = 0;
    /// For the rows of a sale: the signed-in person who sold it (the sale's clerk; a sale's own rows have no actor).
    /// Empty for other rows and for sales made by a plain API client (issue 27).
    QString clerk;

    /// {entity "ledger_entry", id, kind, amount "₹249.00", amount_paise, transaction_id (null
    /// when 0), note, actor, clerk, datetime (IST)}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly (`clerk` may be missing: a server before issue 27); nullopt with *error (when
    /// given) naming a missing or mistyped field.
    static std::optional<LedgerEntry> fromJson(const QJsonObject &json, QString *error);
};
