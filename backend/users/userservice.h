#pragma once

#include "auditlog.h"
#include "userrepository.h"

#include <QList>
#include <QString>

class Clock;
class Database;

/// A session just opened by sign-in: the only moment the token exists outside the client.
struct UserSession
{
    QString token;          ///< 32 random bytes, base64url without padding
    qint64 expiresAtMs = 0; ///< epoch ms (shown to clients in IST)
    UserInfo user;
};

/// Clerks and admins of a shop with PIN sign-in (issue 5 item 2, issue 6 item 6, issue 12). PINs
/// are kept only as argon2id hashes; every 5 wrong PINs in a row lock the user, longer each round
/// (5 min, 15 min, 1 h, then 4 h for every further round) until a right PIN or a PIN reset; each
/// lock is written to the audit log. Sessions last 12 hours. Every admin write is recorded in the
/// AuditLog with the given actor.
class UserService
{
public:
    static constexpr int kMaxFailures = 5;                    ///< wrong PINs per round, before each lock
    static constexpr qint64 kLockMs = 5 * 60 * 1000;          ///< the first lock: 5 minutes
    static constexpr qint64 kLongestLockMs = 4 * 3600 * 1000; ///< the 4th lock and every later one: 4 hours
    static constexpr qint64 kSessionMs = 12 * 3600 * 1000;    ///< 12 hours
    static constexpr int kMaxNameLength = 40;                 ///< characters

    UserService(Database &db, const Clock &clock, AuditLog &audit) : m_db(db), m_clock(clock), m_audit(audit) {}

    /// Checks `pin` for the user called `name` (case-insensitive) of the account and opens a
    /// session. Throws ApiError 401 AUTHENTICATION_ERROR reason `wrong_pin` for a wrong PIN
    /// (description with the attempts left) and equally for an unknown or deactivated name;
    /// 429 RATE_LIMIT_ERROR reason `user_locked` with Retry-After (seconds) while locked (the
    /// lock of round n lasts lockMsForRound(n));
    /// 400 for a missing name or pin. `keyActor` ("key:<id>") is the audit actor of a lockout.
    UserSession signIn(qint64 accountId, const QString &name, const QString &pin, const QString &keyActor);
    /// Checks `pin` of the signed-in person `userId` (issue 28: a cash move confirmed by the person making it) with
    /// the same count of wrong PINs and the same locks as signIn(): 401 `wrong_pin` (attempts left), 429
    /// `user_locked` while locked; a right PIN clears the count. 401 `session_invalid` when the person is gone or
    /// inactive. `actor` is the audit actor of a lockout. Throws DatabaseError.
    void confirmPin(qint64 accountId, qint64 userId, const QString &pin, const QString &actor);
    /// Ends the session of `token`; false when there was none.
    bool signOut(const QString &token);

    /// Every user of the account, oldest first.
    QList<UserInfo> list(qint64 accountId);
    /// Adds an active user. Throws ApiError 400 (`invalid_name`, `invalid_role`, `invalid_pin`:
    /// clerks 4-8 digits, admins 6-8)
    /// or 409 `name_taken` (names are unique per shop, ignoring case).
    UserInfo create(qint64 accountId, const QString &actor, const QString &name, const QString &role,
                    const QString &pin);
    /// Sets a new PIN and lifts any lock. Throws ApiError 404 (no such user in the account) or
    /// 400 `invalid_pin` (an admin's new PIN needs 6-8 digits).
    UserInfo resetPin(qint64 accountId, const QString &actor, qint64 userId, const QString &pin);
    /// Deactivates the user and ends its sessions (already inactive: returned unchanged).
    /// Throws ApiError 404, or 409 `last_admin` for the account's last active admin.
    UserInfo deactivate(qint64 accountId, const QString &actor, qint64 userId);

    /// Validation shared with ShopSetup; each throws ApiError 400 naming `field`.
    static QString checkedName(const QString &name, const QString &field = QStringLiteral("name"));
    static void checkPin(const QString &pin, UserRole role, const QString &field = QStringLiteral("pin"));

    /// How long the `round`-th lock in a row lasts (1: 5 min, 2: 15 min, 3: 1 h, 4 and later: 4 h), in ms.
    static qint64 lockMsForRound(int round);

private:
    /// Counts a wrong PIN for a name that matches no active user, in the shared throttles table, so that it
    /// answers exactly like a real user (attempts left, then a lock) on every server and reveals nothing.
    [[noreturn]] void failUnknown(qint64 accountId, const QString &name, const QString &pin);
    [[noreturn]] static void throwLocked(qint64 lockedUntilMs, qint64 nowMs);
    /// Returns when `pin` is the user's; else counts the wrong PIN (locking after every kMaxFailures in a row,
    /// audited as `actor`) and throws 401 `wrong_pin`; 429 `user_locked` while locked. The one PIN check of the
    /// service (sign-in and confirmations).
    void verifyPin(qint64 accountId, const UserRecord &user, const QString &pin, const QString &actor, qint64 nowMs);
    /// 401 `wrong_pin` after the `failures`-th wrong PIN in a row (attempts left, or the lock it began).
    [[noreturn]] static void throwWrongPin(int failures);

    Database &m_db;
    const Clock &m_clock;
    AuditLog &m_audit;
    qint64 m_prunedAtMs = 0; ///< when decoy counters of long-unused names were last deleted
};
