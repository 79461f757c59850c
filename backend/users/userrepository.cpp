#include "userrepository.h"

#include "store/database.h"

namespace {

const QString kUserColumns =
    QStringLiteral("id, account_id, name, role, active, pin_hash, failed_attempts, locked_until FROM users");

UserRecord readUser(const QSqlQuery &q)
{
    UserRecord user;
    user.info.id = q.value(0).toLongLong();
    user.info.accountId = q.value(1).toLongLong();
    user.info.name = q.value(2).toString();
    user.info.role = UserRoles::fromString(q.value(3).toString()).value_or(UserRole::Clerk);
    user.info.active = q.value(4).toInt() != 0;
    user.pinHash = q.value(5).toString();
    user.failedAttempts = q.value(6).toInt();
    if (!q.value(7).isNull())
        user.lockedUntilMs = q.value(7).toLongLong();
    return user;
}

std::optional<UserRecord> readOne(QSqlQuery &q)
{
    std::optional<UserRecord> user;
    if (q.next())
        user = readUser(q);
    q.finish();
    return user;
}

int readCount(QSqlQuery &q)
{
    const int count = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    return count;
}

} // namespace

namespace UserRoles {

QString name(UserRole role)
{
    return role == UserRole::Admin ? QStringLiteral("admin") : QStringLiteral("clerk");
}

std::optional<UserRole> fromString(const QString &text)
{
    if (text == QLatin1String("clerk"))
        return UserRole::Clerk;
    if (text == QLatin1String("admin"))
        return UserRole::Admin;
    return std::nullopt;
}

} // namespace UserRoles

std::optional<UserRecord> UserRepository::findByName(qint64 accountId, const QString &name)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT ") + kUserColumns +
                                QStringLiteral(" WHERE account_id = ? AND lower(name) = lower(?)"),
                            {accountId, name});
    return readOne(q);
}

std::optional<UserRecord> UserRepository::findById(qint64 accountId, qint64 id)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("SELECT ") + kUserColumns + QStringLiteral(" WHERE account_id = ? AND id = ?"), {accountId, id});
    return readOne(q);
}

QList<UserInfo> UserRepository::list(qint64 accountId)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("SELECT ") + kUserColumns + QStringLiteral(" WHERE account_id = ? ORDER BY id"), {accountId});
    QList<UserInfo> users;
    while (q.next())
        users.append(readUser(q).info);
    q.finish();
    return users;
}

qint64 UserRepository::insert(qint64 accountId, const QString &name, UserRole role, const QString &pinHash,
                              qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("INSERT INTO users (account_id, name, role, pin_hash, active,"
                                           " failed_attempts, created_at, updated_at)"
                                           " VALUES (?, ?, ?, ?, 1, 0, ?, ?) RETURNING id"),
                            {accountId, name, UserRoles::name(role), pinHash, nowMs, nowMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("user insert returned no id"));
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

void UserRepository::setPin(qint64 id, const QString &pinHash, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE users SET pin_hash = ?, failed_attempts = 0, locked_until = NULL,"
                            " updated_at = ? WHERE id = ?"),
             {pinHash, nowMs, id});
}

int UserRepository::addFailure(qint64 id, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE users SET failed_attempts = failed_attempts + 1, updated_at = ?"
                                           " WHERE id = ? RETURNING failed_attempts"),
                            {nowMs, id});
    return readCount(q);
}

void UserRepository::lock(qint64 id, qint64 untilMs, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE users SET locked_until = ?, updated_at = ? WHERE id = ?"), {untilMs, nowMs, id});
}

void UserRepository::clearFailures(qint64 id, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE users SET failed_attempts = 0, locked_until = NULL, updated_at = ? WHERE id = ?"),
             {nowMs, id});
}

void UserRepository::deactivate(qint64 id, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE users SET active = 0, updated_at = ? WHERE id = ?"), {nowMs, id});
}

int UserRepository::activeAdminCount(qint64 accountId)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT COUNT(*) FROM users WHERE account_id = ? AND role = 'admin' AND active = 1"),
                 {accountId});
    return readCount(q);
}

int UserRepository::adminCount(qint64 accountId)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT COUNT(*) FROM users WHERE account_id = ? AND role = 'admin'"), {accountId});
    return readCount(q);
}

void UserRepository::insertSession(const QString &tokenHash, qint64 userId, qint64 expiresAtMs, qint64 nowMs)
{
    m_db.run(
        QStringLiteral("INSERT INTO user_sessions (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)"),
        {tokenHash, userId, expiresAtMs, nowMs});
}

std::optional<UserInfo> UserRepository::userForSession(qint64 accountId, const QString &tokenHash, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT u.id, u.account_id, u.name, u.role, u.active, u.pin_hash,"
                                           " u.failed_attempts, u.locked_until"
                                           " FROM user_sessions s JOIN users u ON u.id = s.user_id"
                                           " WHERE s.token_hash = ? AND s.expires_at > ? AND u.account_id = ?"
                                           " AND u.active = 1"),
                            {tokenHash, nowMs, accountId});
    const std::optional<UserRecord> user = readOne(q);
    if (!user)
        return std::nullopt;
    return user->info;
}

bool UserRepository::deleteSession(const QString &tokenHash)
{
    QSqlQuery &q = m_db.run(QStringLiteral("DELETE FROM user_sessions WHERE token_hash = ?"), {tokenHash});
    return q.numRowsAffected() > 0;
}

void UserRepository::deleteSessionsOf(qint64 userId)
{
    m_db.run(QStringLiteral("DELETE FROM user_sessions WHERE user_id = ?"), {userId});
}

void UserRepository::deleteExpiredSessions(qint64 nowMs)
{
    m_db.run(QStringLiteral("DELETE FROM user_sessions WHERE expires_at <= ?"), {nowMs});
}
