#pragma once

#include <QString>

struct OperatorInfo;

/// Input rules of api-conventions.md ("Validation rules"). Each function takes the value as
/// already trimmed and answers whether it is acceptable; callers build the error.
namespace Validators {

/// True if `text` is non-empty and only ASCII digits 0-9.
bool isAsciiDigits(const QString &text);

/// Indian mobile number: exactly 10 ASCII digits, the first 6-9.
bool isPhoneNumber(const QString &text);

/// Aadhaar number: 12 ASCII digits, the first 2-9, Verhoeff check digit valid (UIDAI).
bool isAadhaarNumber(const QString &text);

/// Verhoeff checksum (dihedral group D5) over a digit string: true if the last digit is the
/// correct check digit for the rest. False for empty or non-digit input.
bool verhoeffValid(const QString &digits);

/// The Verhoeff check digit (0-9) to append to `digits`; -1 for non-digit or empty input.
int verhoeffCheckDigit(const QString &digits);

/// DTH subscriber number for `dthOperator`: matches the operator's pattern from
/// operators.json, or is a 10-digit registered mobile number (isPhoneNumber).
bool isDthNumber(const QString &text, const OperatorInfo &dthOperator);

/// E-mail address: at most 254 characters, exactly one '@', a non-empty local part, a domain
/// with at least one dot and no empty label, and no blanks or control characters.
bool isEmail(const QString &text);

/// Free text a person typed (names, notes, shop fields, passwords, URLs): no control characters
/// (C0, DEL, C1), no Unicode line or paragraph separator, no bidirectional embedding, override or
/// isolate mark (U+202A-202E, U+2066-2069: they make a receipt or log line read otherwise than it
/// is stored). With `allowNewlines`, '\n' is allowed (a multi-line address). The joiners that
/// Indian scripts need (U+200C, U+200D) stay allowed (issue 12).
bool isPlainText(const QString &text, bool allowNewlines = false);

/// Client reference id: 1-64 characters of A-Z a-z 0-9 _ -.
bool isReferenceId(const QString &text);

/// UPI virtual payment address (VPA, "UPI ID") as NPCI's UPI linking specification's `pa` takes it:
/// `name@handle`, exactly one '@', the name 2-256 characters of A-Z a-z 0-9 . _ -, the handle (the payment
/// service provider's) 2-64 ASCII letters or digits, e.g. "sharmamobile@okaxis", "98765.43210@ybl" (issue 28).
bool isUpiVpa(const QString &text);

/// GSTIN (GST identification number, issue 30): 15 characters as the GST Network issues them — the state code (2
/// digits), the holder's PAN (5 letters, 4 digits, a letter), the entity number (1-9 or A-Z), 'Z', and a check
/// character — matching `^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$` (upper case only), with the check character
/// gstinCheckCharacter() of the first 14, e.g. "27AAPFU0939F1ZV".
bool isGstin(const QString &text);

/// The GSTIN check character (GSTN's mod-36 scheme: over the first 14 characters, each one's value in
/// 0-9A-Z multiplied alternately by 1 and 2, the quotient and remainder by 36 of each product summed; the check is
/// (36 − sum mod 36) mod 36 as a 0-9A-Z character) of `first14`; a null QChar when it is not 14 characters of 0-9A-Z.
QChar gstinCheckCharacter(const QString &first14);

} // namespace Validators
