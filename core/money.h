#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>

/// Money inside RechargeDesk is always an integer number of paise (1 rupee = 100 paise).
using Paise = qint64;

namespace Money {

/// Paise in one rupee.
inline constexpr Paise kPaisePerRupee = 100;

/// Formats paise in the spec's money form: "₹" (U+20B9), the amount with two decimals, no
/// grouping, e.g. 24900 -> "₹249.00", -5 -> "-₹0.05". (api-v1.md, "Recharge and voucher transactions")
QString format(Paise amount);

/// Formats paise for people (screens, receipts, printed reports) with Indian digit grouping:
/// the last three digits of the rupees, then groups of two (lakh, crore), two decimals.
/// 10000000 -> "₹1,00,000.00", 495000 -> "₹4,950.00", 29900 -> "₹299.00", -123450 -> "-₹1,234.50".
/// The API's money strings and CSV exports keep format().
QString formatIndian(Paise amount);

/// Whole rupees for people, Indian grouping, no decimals: 2999 -> "₹2,999", 100000 -> "₹1,00,000"
/// (plan prices and amount limits, which the spec gives in whole rupees).
QString formatIndianRupees(qint64 rupees);

/// Re-formats a spec money string from the server for people: "₹100000.00" -> "₹1,00,000.00".
/// Text that is not in the spec's money form (empty, "—") is returned unchanged.
QString displayText(const QString &specText);

/// Parses the spec's money form back into paise ("₹249.00" -> 24900). Accepts an optional
/// leading '-', requires the ₹ sign and exactly two decimals; nullopt on anything else.
std::optional<Paise> parse(const QString &text);

/// Rounds amount × basisPoints / 10000 half up (away from zero for a half paisa), e.g. the
/// discount on 24900 paise at 150 bp (1.5 %) is 374 paise (373.5 rounded up). basisPoints >= 0.
Paise percentageOf(Paise amount, int basisPoints);

/// Formats basis points as a percentage with one decimal or more as needed: 150 -> "1.5 %".
QString formatRate(int basisPoints);

} // namespace Money
