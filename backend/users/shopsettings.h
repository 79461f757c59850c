#pragma once

#include "entities/shopinfo.h"
#include "money.h"
#include "services/saleterms.h"

#include <QMap>
#include <QString>

#include <optional>

class AuditLog;
class Database;

/// A partial update of ShopInfo: only the fields that are set change.
struct ShopUpdate
{
    std::optional<QString> name;
    std::optional<QString> address;
    std::optional<qint64> lowBalanceThresholdRupees;
    std::optional<qint64> idleLockSeconds;
    std::optional<QMap<QString, qint64>> discountBasisPoints; ///< operator code -> basis points; others unchanged
    std::optional<qint64> sandboxSettleDelayMs;
    std::optional<QString> circleCode; ///< a code of the circle table, or empty to unset

    /// True when no field is set.
    bool isEmpty() const
    {
        return !name && !address && !lowBalanceThresholdRupees && !idleLockSeconds && !discountBasisPoints &&
               !sandboxSettleDelayMs && !circleCode;
    }
};

/// Reads and changes ShopInfo. Defaults apply to keys never set.
class ShopSettings
{
public:
    static constexpr int kMaxName = 80;     ///< characters
    static constexpr int kMaxAddress = 300; ///< characters
    static constexpr qint64 kMaxThresholdRupees = 1'000'000;
    static constexpr int kMinIdleLock = 30;   ///< seconds
    static constexpr int kMaxIdleLock = 3600; ///< seconds

    ShopSettings(Database &db, SaleTerms &terms) : m_db(db), m_terms(terms) {}

    /// The account's settings, defaults filled in. Throws DatabaseError.
    ShopInfo get(qint64 accountId);
    /// Validates every given field first (ApiError 400 naming the JSON field: name 1-80,
    /// address <= 300, low_balance_threshold_rupees 0-1000000, idle_lock_seconds 30-3600,
    /// discount_basis_points.<CODE> 0-2000 for a known operator, sandbox_settle_delay_ms
    /// 0-86400000, circle_code a code of the circle table or "" to unset (400 `invalid_circle_code`);
    /// an update with no field is 400 `nothing_to_update`), then stores them in one
    /// transaction with one audit entry listing what changed (none when nothing did). Returns
    /// the result; nothing is stored when any field is invalid.
    ShopInfo update(qint64 accountId, const ShopUpdate &update, AuditLog &audit, const QString &actor);
    /// Validates and stores the receipt and terminal fields (name, address, threshold, idle lock)
    /// without opening a transaction or auditing: for ShopSetup, inside its own. The sale-terms
    /// fields of `update` must be unset.
    static void storeBasics(Database &db, qint64 accountId, const ShopUpdate &update);

    /// Throws ApiError 400 for any invalid receipt or terminal field of `update`.
    static void validate(const ShopUpdate &update);

private:
    Database &m_db;
    SaleTerms &m_terms;
};
