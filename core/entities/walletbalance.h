#pragma once

#include "money.h"

#include <QJsonObject>
#include <QString>

#include <optional>

/// The caller's wallet as GET /api/v1/wallet and POST /api/v1/wallet/topups answer it
/// (api-conventions.md, "Wallet"): the balance of the key's mode in paise.
struct WalletBalance
{
    QString mode; ///< "test" / "live"
    Paise balance = 0;

    /// {entity "wallet", mode, balance "₹249.00", balance_paise}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly (balance and balance_paise must agree); nullopt with
    /// *error naming a missing or mistyped field.
    static std::optional<WalletBalance> fromJson(const QJsonObject &json, QString *error);
};
