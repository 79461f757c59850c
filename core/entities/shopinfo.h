#pragma once

#include "money.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/// One operator's discount (commission) rate as a shop sells it.
struct DiscountRate
{
    QString operatorCode;
    int basisPoints = 0;        ///< the rate in force: 1 bp = 0.01 %
    int defaultBasisPoints = 0; ///< the catalogue default (api-conventions.md "Names and money")

    /// {operator_code, basis_points, default_basis_points}.
    QJsonObject toJson() const;
    static std::optional<DiscountRate> fromJson(const QJsonObject &json, QString *error);
};

/// The shop's own settings (issue 5 item 2, issue 6 item 7) as GET/PUT /api/v1/shop answer them:
/// what receipts print, how the terminal behaves and the terms it sells on.
struct ShopInfo
{
    QString name;                       ///< printed on receipts; 1-80 characters once set
    QString address;                    ///< printed on receipts; at most 300 characters
    Paise lowBalanceThreshold = 50'000; ///< the status bar warns below this wallet balance (paise)
    int idleLockSeconds = 120;          ///< the terminal locks after this much idle time (seconds)
    QList<DiscountRate> discountRates;  ///< every operator, in force and default (SaleTerms)
    qint64 sandboxSettleDelayMs = 0;    ///< how long a sandbox PENDING sale waits (ms)
    QString circleCode;                 ///< the shop's telecom circle (spec circle table); empty when not set
    bool shiftsEnabled = false;         ///< issue 28: a sale needs the person's open shift (admin setting)
    bool blindCount = false;            ///< issue 28: clerks close a shift without seeing the expected cash
    QString upiVpa;                     ///< issue 28: the shop's UPI ID (name@handle); "" when not set
    QString upiPayeeName;               ///< issue 28: the payee name of the UPI QR (at most 50 characters)
    int complaintDeadlineHours = 48;    ///< issue 29: a complaint is due this long after it is raised (1-720 h)

    /// {entity "shop", name, address, low_balance_threshold "₹500.00", idle_lock_seconds,
    /// discount_rates [DiscountRate], sandbox_settle_delay_ms, circle_code, shifts_enabled, blind_count, upi_vpa,
    /// upi_payee_name, complaint_deadline_hours}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<ShopInfo> fromJson(const QJsonObject &json, QString *error);
};
