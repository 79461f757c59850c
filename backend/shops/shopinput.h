#pragma once

#include <QString>

class OperatorCatalog;

/// Checks and normalises what a person types about a shop (issue 30, "Add a shop"). Each check* trims its text and
/// returns the stored form, or throws ApiError 400 naming `field` with a reason of its own (invalid_name,
/// invalid_owner, invalid_mobile, invalid_circle_code, invalid_gstin, invalid_reason).
namespace ShopInput {

/// A shop's (account's) name: 2–60 characters on one line.
QString checkName(const QString &field, const QString &text);
/// The owner: 1–80 characters on one line.
QString checkOwner(const QString &field, const QString &text);
/// An Indian mobile number: spaces and dashes dropped, a "+91", "91" (12 digits) or "0" (11 digits) prefix removed,
/// then 10 digits starting 6–9 (the numbering plan of mobile numbers).
QString checkMobile(const QString &field, const QString &text);
/// A circle code of `catalog` (upper-cased).
QString checkCircle(const QString &field, const QString &text, const OperatorCatalog &catalog);
/// "" (none) or a GSTIN: 15 characters `^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$` (upper-cased) whose last
/// character is its check digit (Validators::isGstin).
QString checkGstin(const QString &field, const QString &text);
/// Free text of `min`..`max` characters on one line (a suspension reason, a note); `reason` names the 400.
QString checkText(const QString &field, const QString &text, int min, int max, const QString &reason);

} // namespace ShopInput
