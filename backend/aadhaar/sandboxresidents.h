#pragma once

#include <QString>

#include <optional>

/// The made-up resident directory of test mode (api-conventions.md, "Aadhaar OTP flow", sandbox): every
/// Verhoeff-valid Aadhaar number is a resident whose linked mobile number is derived from the number itself, the
/// same on every installation, except the documented "no mobile linked" set: numbers whose four digits before the
/// check digit (digits 8-11) are "0000".
namespace SandboxResidents {

/// True for the documented "no mobile linked" numbers: digits 8-11 of @p aadhaarNumber are "0000".
bool hasNoLinkedMobile(const QString &aadhaarNumber);

/// The 10-digit mobile number (first digit 6-9) linked with @p aadhaarNumber, derived from its SHA-256 hash;
/// nullopt for the "no mobile linked" set and for anything that is not a valid Aadhaar number
/// (Validators::isAadhaarNumber).
std::optional<QString> linkedMobile(const QString &aadhaarNumber);

} // namespace SandboxResidents
