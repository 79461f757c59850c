#pragma once

#include <QString>

/// PIN rules and hashing for clerk/admin sign-in (issue 5, item 2). A PIN is 4 to 8 ASCII digits;
/// a new or changed admin PIN at least 6 (issue 12; older 4-digit admin PINs sign in until changed).
/// Hashes are libsodium argon2id strings (crypto_pwhash_str, OPSLIMIT_INTERACTIVE, 16 MiB):
/// a short PIN is weak on its own, so the real protection is the per-user lockout in UserService.
namespace PinHasher {

/// Shortest and longest PIN, in digits.
inline constexpr int kMinDigits = 4;
inline constexpr int kMaxDigits = 8;
/// Shortest PIN an admin may be given (new admins and PIN changes).
inline constexpr int kMinAdminDigits = 6;

/// True when `pin` is 4 to 8 ASCII digits (no blanks, signs or other digits).
bool isValidPin(const QString &pin);
/// True when `pin` may be set for an admin: isValidPin() and at least kMinAdminDigits digits.
bool isValidAdminPin(const QString &pin);
/// The argon2id hash string of `pin` (salted; different on each call). Throws std::runtime_error
/// when libsodium cannot start or runs out of memory.
QString hash(const QString &pin);
/// True when `pin` matches `hashString` (a hash() result); false for a mismatch or a malformed hash.
bool verify(const QString &hashString, const QString &pin);
/// Spends the time of one verify() against a fixed hash, so that answers for unknown users take
/// as long as answers for wrong PINs (sign-in never reveals which names exist).
void verifyDummy(const QString &pin);

} // namespace PinHasher
