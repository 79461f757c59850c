#pragma once

#include "money.h"

#include <QJsonObject>
#include <QString>

#include <optional>

/// GET /api/v1/transactions/summary (api-conventions.md "Beyond the spec"): how many
/// transactions match a filter, by status, and their money sums (paise, SUCCESS sales only).
struct TransactionSummary
{
    qint64 count = 0;
    qint64 success = 0;
    qint64 pending = 0;
    qint64 failed = 0;
    Paise billAmount = 0;
    Paise discount = 0;
    Paise paid = 0;

    /// {entity "transaction_summary", count, success, pending, failed, bill_amount, discount,
    /// paid}, money as "₹249.00".
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<TransactionSummary> fromJson(const QJsonObject &json, QString *error);
};
