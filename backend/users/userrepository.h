#pragma once

#include <QList>
#include <QString>

#include <optional>

class Database;

/// What a signed-in person may do on the terminal: clerks sell, admins also run the back office.
enum class UserRole
{
    Clerk,
    Admin
};

namespace UserRoles {
QString name(UserRole role);                         ///< "clerk" / "admin"
std::optional<UserRole> fromString(const QString &); ///< from "clerk" / "admin"
} // namespace UserRoles

/// A person of a shop (account) who signs in at a terminal by name and PIN.
struct UserInfo
{
    qint64 id = 0;
    qint64 accountId = 0;
    QString name;
    UserRole role = UserRole::Clerk;
    bool active = true;
};

/// A users row as stored: the public part plus the PIN hash and the lockout state.
struct UserRecord
{
    UserInfo info;
    QString pinHash;                     ///< argon2id string (PinHasher)
    int failedAttempts = 0;              ///< wrong PINs since the last right one or PIN reset
    std::optional<qint64> lockedUntilMs; ///< epoch ms; locked while in the future
};

/// SQL for the users and user_sessions tables (migration 4). Writes must run inside the
/// caller's transaction. Names compare case-insensitively (lower(name), as the unique index).
/// Throws DatabaseError.
class UserRepository
{
public:
    explicit UserRepository(Database &db) : m_db(db) {}

    std::optional<UserRecord> findByName(qint64 accountId, const QString &name);
    std::optional<UserRecord> findById(qint64 accountId, qint64 id);
    /// Every user of the account, oldest first.
    QList<UserInfo> list(qint64 accountId);
    /// Inserts an active user; returns its id. A taken name throws DatabaseError with
    /// isUniqueViolation().
    qint64 insert(qint64 accountId, const QString &name, UserRole role, const QString &pinHash, qint64 nowMs);
    /// Replaces the PIN hash and clears the failure count and any lock.
    void setPin(qint64 id, const QString &pinHash, qint64 nowMs);
    /// Adds one failed attempt atomically; returns the new count (wrong PINs since the last right
    /// one or PIN reset: locks do not restart it, so it also tells how many lock rounds passed).
    int addFailure(qint64 id, qint64 nowMs);
    /// Locks the user until `untilMs` (the failure count is kept).
    void lock(qint64 id, qint64 untilMs, qint64 nowMs);
    /// Clears the failure count and any lock (after a right PIN).
    void clearFailures(qint64 id, qint64 nowMs);
    void deactivate(qint64 id, qint64 nowMs);
    /// Active admins of the account.
    int activeAdminCount(qint64 accountId);
    /// Admins (active or not) of the account.
    int adminCount(qint64 accountId);

    /// Stores a session; `tokenHash` is the SHA-256 hex of the token.
    void insertSession(const QString &tokenHash, qint64 userId, qint64 expiresAtMs, qint64 nowMs);
    /// The user behind an unexpired session of an active user of the account; nullopt otherwise.
    std::optional<UserInfo> userForSession(qint64 accountId, const QString &tokenHash, qint64 nowMs);
    /// Removes one session; false if there was none.
    bool deleteSession(const QString &tokenHash);
    void deleteSessionsOf(qint64 userId);
    void deleteExpiredSessions(qint64 nowMs);

private:
    Database &m_db;
};
