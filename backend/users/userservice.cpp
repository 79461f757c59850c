#include "userservice.h"

#include "apierror.h"
#include "clock.h"
#include "pinhasher.h"
#include "sessionresolver.h"
#include "store/database.h"
#include "store/throttlerepository.h"

#include <QRandomGenerator>

#include <limits>

namespace {

constexpr qint64 kNeverRestarts =
    std::numeric_limits<qint64>::max(); // a decoy counts in a row, as users.failed_attempts

QString newToken()
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(bytes.begin(), bytes.end());
    return QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

UserInfo requireUser(UserRepository &users, qint64 accountId, qint64 userId)
{
    const std::optional<UserRecord> user = users.findById(accountId, userId);
    if (!user)
        throw ApiError::notFound(QStringLiteral("not_found"), QStringLiteral("no user with id %1").arg(userId));
    return user->info;
}

} // namespace

QString UserService::checkedName(const QString &name, const QString &field)
{
    const QString trimmed = name.trimmed();
    bool printable = true;
    for (const QChar c : trimmed) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            printable = false;
    }
    if (trimmed.isEmpty() || trimmed.size() > kMaxNameLength || !printable)
        throw ApiError::badRequest(
            field, QStringLiteral("invalid_name"),
            QStringLiteral("%1 must be 1 to %2 printable characters").arg(field).arg(kMaxNameLength));
    return trimmed;
}

void UserService::checkPin(const QString &pin, UserRole role, const QString &field)
{
    const bool admin = role == UserRole::Admin;
    if (admin ? !PinHasher::isValidAdminPin(pin) : !PinHasher::isValidPin(pin))
        throw ApiError::badRequest(field, QStringLiteral("invalid_pin"),
                                   QStringLiteral("%1 must be %2 to %3 digits%4")
                                       .arg(field)
                                       .arg(admin ? PinHasher::kMinAdminDigits : PinHasher::kMinDigits)
                                       .arg(PinHasher::kMaxDigits)
                                       .arg(admin ? QStringLiteral(" for an admin") : QString()));
}

qint64 UserService::lockMsForRound(int round)
{
    static constexpr qint64 kSchedule[] = {kLockMs, 15 * 60 * 1000, 3600 * 1000, kLongestLockMs};
    return kSchedule[std::clamp(round, 1, int(std::size(kSchedule))) - 1];
}

namespace {

/// "5 minutes", "1 hour", "4 hours".
QString lockText(qint64 ms)
{
    const qint64 minutes = ms / 60'000;
    if (minutes < 60)
        return QStringLiteral("%1 minutes").arg(minutes);
    return minutes == 60 ? QStringLiteral("1 hour") : QStringLiteral("%1 hours").arg(minutes / 60);
}

} // namespace

void UserService::throwLocked(qint64 lockedUntilMs, qint64 nowMs)
{
    const qint64 seconds = std::max<qint64>(1, (lockedUntilMs - nowMs + 999) / 1000);
    throw ApiError::rateLimited(
        QStringLiteral("user_locked"),
        QStringLiteral("too many wrong PINs; this user is locked, try again in %1 seconds").arg(seconds))
        .withHeader("Retry-After", QByteArray::number(seconds));
}

void UserService::throwWrongPin(int failures)
{
    const int attemptsLeft = kMaxFailures - failures % kMaxFailures;
    const int round = failures / kMaxFailures; // locks so far, this one included
    const QString description =
        failures % kMaxFailures != 0
            ? QStringLiteral("wrong name or PIN; %1 %2 left before a lock of %3")
                  .arg(attemptsLeft)
                  .arg(attemptsLeft == 1 ? QStringLiteral("attempt") : QStringLiteral("attempts"))
                  .arg(lockText(lockMsForRound(round + 1)))
            : QStringLiteral("wrong name or PIN; no attempts left, locked for %1").arg(lockText(lockMsForRound(round)));
    throw ApiError::unauthenticated(QStringLiteral("wrong_pin"), description);
}

void UserService::failUnknown(qint64 accountId, const QString &name, const QString &pin)
{
    PinHasher::verifyDummy(pin); // same time as a real check
    const qint64 now = m_clock.nowMs();
    ThrottleRepository throttles(m_db);
    if (now - m_prunedAtMs > kLockMs) { // on its own, before the row lock of hit() is taken
        throttles.prune(QStringLiteral("pin:"), now - kLongestLockMs, now); // names unused for 4 h start afresh
        m_prunedAtMs = now;
    }
    WriteTransaction transaction(m_db);
    const QString bucket = QStringLiteral("pin:%1:%2").arg(accountId).arg(name.toLower());
    const ThrottleCount decoy = throttles.hit(bucket, now, kNeverRestarts);
    if (decoy.blockedUntilMs > now)
        throwLocked(decoy.blockedUntilMs, now); // rolls back: a locked name's tries do not count
    if (decoy.failures % kMaxFailures == 0)
        throttles.block(bucket, now + lockMsForRound(int(decoy.failures / kMaxFailures)), false, now);
    transaction.commit();
    throwWrongPin(int(decoy.failures));
}

UserSession UserService::signIn(qint64 accountId, const QString &name, const QString &pin, const QString &keyActor)
{
    UserRepository users(m_db);
    const std::optional<UserRecord> user = users.findByName(accountId, name.trimmed());
    const qint64 now = m_clock.nowMs();
    if (!user || !user->info.active)
        failUnknown(accountId, name.trimmed(), pin);
    verifyPin(accountId, *user, pin, keyActor, now);

    UserSession session;
    session.token = newToken();
    session.expiresAtMs = now + kSessionMs;
    session.user = user->info;
    WriteTransaction transaction(m_db);
    if (user->failedAttempts > 0 || user->lockedUntilMs)
        users.clearFailures(user->info.id, now);
    users.deleteExpiredSessions(now);
    users.insertSession(SessionResolver::hashToken(session.token), user->info.id, session.expiresAtMs, now);
    transaction.commit();
    return session;
}

void UserService::verifyPin(qint64 accountId, const UserRecord &user, const QString &pin, const QString &actor,
                            qint64 nowMs)
{
    if (user.lockedUntilMs && *user.lockedUntilMs > nowMs)
        throwLocked(*user.lockedUntilMs, nowMs);
    // The slow argon2id check runs outside the write transaction; the counter update is atomic.
    if (PinHasher::isValidPin(pin) && PinHasher::verify(user.pinHash, pin))
        return;
    UserRepository users(m_db);
    WriteTransaction transaction(m_db);
    const int failures = users.addFailure(user.info.id, nowMs);
    if (failures % kMaxFailures == 0) {
        const qint64 lockMs = lockMsForRound(failures / kMaxFailures);
        users.lock(user.info.id, nowMs + lockMs, nowMs);
        m_audit.record(accountId, actor, QStringLiteral("user.locked"),
                       QStringLiteral("%1 locked for %2 after %3 wrong PINs in a row")
                           .arg(user.info.name, lockText(lockMs))
                           .arg(failures));
    }
    transaction.commit();
    throwWrongPin(failures);
}

void UserService::confirmPin(qint64 accountId, qint64 userId, const QString &pin, const QString &actor)
{
    UserRepository users(m_db);
    const std::optional<UserRecord> user = users.findById(accountId, userId);
    if (!user || !user->info.active)
        throw ApiError::unauthenticated(QStringLiteral("session_invalid"),
                                        QStringLiteral("the signed-in person is no longer active: sign in again"));
    const qint64 now = m_clock.nowMs();
    verifyPin(accountId, *user, pin, actor, now);
    if (user->failedAttempts > 0 || user->lockedUntilMs) {
        WriteTransaction transaction(m_db);
        users.clearFailures(user->info.id, now);
        transaction.commit();
    }
}

bool UserService::signOut(const QString &token)
{
    UserRepository users(m_db);
    WriteTransaction transaction(m_db);
    const bool ended = users.deleteSession(SessionResolver::hashToken(token));
    transaction.commit();
    return ended;
}

QList<UserInfo> UserService::list(qint64 accountId)
{
    return UserRepository(m_db).list(accountId);
}

UserInfo UserService::create(qint64 accountId, const QString &actor, const QString &name, const QString &role,
                             const QString &pin)
{
    const QString cleanName = checkedName(name);
    const std::optional<UserRole> parsedRole = UserRoles::fromString(role.trimmed());
    if (!parsedRole)
        throw ApiError::badRequest(QStringLiteral("role"), QStringLiteral("invalid_role"),
                                   QStringLiteral("role must be \"clerk\" or \"admin\""));
    checkPin(pin, *parsedRole);
    const QString pinHash = PinHasher::hash(pin);
    const qint64 now = m_clock.nowMs();
    UserRepository users(m_db);
    WriteTransaction transaction(m_db);
    if (users.findByName(accountId, cleanName))
        throw ApiError::conflict(QStringLiteral("name_taken"),
                                 QStringLiteral("a user called %1 already exists").arg(cleanName),
                                 QStringLiteral("name"));
    UserInfo info;
    try {
        info.id = users.insert(accountId, cleanName, *parsedRole, pinHash, now);
    } catch (const DatabaseError &e) {
        if (e.isUniqueViolation())
            throw ApiError::conflict(QStringLiteral("name_taken"),
                                     QStringLiteral("a user called %1 already exists").arg(cleanName),
                                     QStringLiteral("name"));
        throw;
    }
    info.accountId = accountId;
    info.name = cleanName;
    info.role = *parsedRole;
    info.active = true;
    m_audit.record(accountId, actor, QStringLiteral("user.create"),
                   QStringLiteral("added %1 %2").arg(UserRoles::name(info.role), info.name));
    transaction.commit();
    return info;
}

UserInfo UserService::resetPin(qint64 accountId, const QString &actor, qint64 userId, const QString &pin)
{
    UserRepository users(m_db);
    const UserInfo target = requireUser(users, accountId, userId); // an unknown id is 404 whatever the PIN
    checkPin(pin, target.role);
    const QString pinHash = PinHasher::hash(pin);
    const qint64 now = m_clock.nowMs();
    WriteTransaction transaction(m_db);
    const UserInfo info = requireUser(users, accountId, userId);
    users.setPin(userId, pinHash, now);
    m_audit.record(accountId, actor, QStringLiteral("user.reset_pin"),
                   QStringLiteral("reset the PIN of %1").arg(info.name));
    transaction.commit();
    return info;
}

UserInfo UserService::deactivate(qint64 accountId, const QString &actor, qint64 userId)
{
    UserRepository users(m_db);
    const qint64 now = m_clock.nowMs();
    WriteTransaction transaction(m_db);
    UserInfo info = requireUser(users, accountId, userId);
    if (!info.active)
        return info;
    if (info.role == UserRole::Admin && users.activeAdminCount(accountId) <= 1)
        throw ApiError::conflict(QStringLiteral("last_admin"),
                                 QStringLiteral("%1 is the last active admin; add another admin first").arg(info.name));
    users.deactivate(userId, now);
    users.deleteSessionsOf(userId);
    m_audit.record(accountId, actor, QStringLiteral("user.deactivate"),
                   QStringLiteral("deactivated %1 %2").arg(UserRoles::name(info.role), info.name));
    transaction.commit();
    info.active = false;
    return info;
}
