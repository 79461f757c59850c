#include "throttlerepository.h"

#include "database.h"

ThrottleCount ThrottleRepository::hit(const QString &bucket, qint64 nowMs, qint64 windowMs)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral(
                     "INSERT INTO throttles (bucket, failures, window_start, blocked_until, last_at)"
                     " VALUES (?, 1, ?, 0, ?)"
                     " ON CONFLICT (bucket) DO UPDATE SET"
                     " failures = CASE WHEN ? - throttles.window_start > ? THEN 1 ELSE throttles.failures + 1 END,"
                     " window_start = CASE WHEN ? - throttles.window_start > ? THEN ? ELSE throttles.window_start END,"
                     " last_at = ?"
                     " RETURNING failures, window_start, blocked_until"),
                 {bucket, nowMs, nowMs, nowMs, windowMs, nowMs, windowMs, nowMs, nowMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("throttle update returned no row"));
    ThrottleCount count{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong()};
    q.finish();
    return count;
}

void ThrottleRepository::block(const QString &bucket, qint64 untilMs, bool restartWindow, qint64 nowMs)
{
    if (restartWindow)
        m_db.run(
            QStringLiteral("UPDATE throttles SET blocked_until = ?, failures = 0, window_start = ? WHERE bucket = ?"),
            {untilMs, nowMs, bucket});
    else
        m_db.run(QStringLiteral("UPDATE throttles SET blocked_until = ? WHERE bucket = ?"), {untilMs, bucket});
}

int ThrottleRepository::prune(const QString &prefix, qint64 idleSinceMs, qint64 nowMs)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("DELETE FROM throttles WHERE last_at < ? AND blocked_until <= ? AND bucket LIKE ?"),
                 {idleSinceMs, nowMs, QString(prefix + QLatin1Char('%'))});
    return q.numRowsAffected();
}
