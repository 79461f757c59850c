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
    std::optional<QString> circleCode;   ///< a code of the circle table, or empty to unset
    std::optional<bool> shiftsEnabled;   ///< issue 28: sales need an open shift
    std::optional<bool> blindCount;      ///< issue 28: clerks count the drawer without seeing the expected cash
    std::optional<QString> upiVpa;       ///< issue 28: the shop's UPI ID (name@handle), or empty to unset
    std::optional<QString> upiPayeeName; ///< issue 28: the UPI QR's payee name (<= 50 characters)
    std::optional<qint64> complaintDeadlineHours; ///< issue 29: hours a complaint may stay unresolved (1-720)

    /// True when no field is set.
    bool isEmpty() const
    {
        return !name && !address && !lowBalanceThresholdRupees && !idleLockSeconds && !discountBasisPoints &&
               !sandboxSettleDelayMs && !circleCode && !shiftsEnabled && !blindCount && !upiVpa && !upiPayeeName &&
               !complaintDeadlineHours;
    }
};

/// Reads and changes ShopInfo. Defaults apply to keys never set.
class ShopSettings
{
public:
    static constexpr int kMaxName = 80;     ///< characters
    static constexpr int kMaxAddress = 300; ///< characters
    static constexpr qint64 kMaxThresholdRupees = 1'000'000;
    static constexpr int kMinIdleLock = 30;                   ///< seconds
    static constexpr int kMaxIdleLock = 3600;                 ///< seconds
    static constexpr int kMaxUpiPayeeName = 50;               ///< characters (what UPI apps show of a payee name)
    static constexpr int kDefaultComplaintDeadlineHours = 48; ///< issue 29
    static constexpr int kMaxComplaintDeadlineHours = 720;    ///< 30 days

    ShopSettings(Database &db, SaleTerms &terms) : m_db(db), m_terms(terms) {}

    /// The account's settings, defaults filled in. Throws DatabaseError.
    ShopInfo get(qint64 accountId);
    /// Validates every given field first (ApiError 400 naming the JSON field: name 1-80,
    /// address <= 300, low_balance_threshold_rupees 0-1000000, idle_lock_seconds 30-3600,
    /// discount_basis_points.<CODE> 0-2000 for a known operator, sandbox_settle_delay_ms
    /// 0-86400000, circle_code a code of the circle table or "" to unset (400 `invalid_circle_code`),
    /// shifts_enabled and blind_count booleans, upi_vpa "" or a UPI ID `name@handle` (Validators::isUpiVpa, 400
    /// `invalid_upi_vpa`), upi_payee_name at most 50 characters on one line (400 `invalid_upi_payee_name`),
    /// complaint_deadline_hours 1-720 (400 `out_of_range`);
    /// an update with no field is 400 `nothing_to_update`), then stores them in one
    /// transaction with one audit entry listing what changed (none when nothing did). Returns
    /// the result; nothing is stored when any field is invalid.
    ShopInfo update(qint64 accountId, const ShopUpdate &update, AuditLog &audit, const QString &actor);
    /// Whether the shop counts the drawer blind (issue 28, `blind_count`; off unless set). Throws DatabaseError.
    bool blindCount(qint64 accountId);
    /// How long after it is raised a complaint of the account is due (issue 29, `complaint_deadline_hours`; 48 h unless
    /// set), in ms. Throws DatabaseError.
    qint64 complaintDeadlineMs(qint64 accountId);
    /// Validates and stores the receipt and terminal fields (name, address, threshold, idle lock, blind count, UPI)
    /// without opening a transaction or auditing: for ShopSetup, inside its own. The sale-terms
    /// fields of `update` must be unset.
    static void storeBasics(Database &db, qint64 accountId, const ShopUpdate &update);

    /// Throws ApiError 400 for any invalid receipt or terminal field of `update`.
    static void validate(const ShopUpdate &update);

private:
    Database &m_db;
    SaleTerms &m_terms;
};
