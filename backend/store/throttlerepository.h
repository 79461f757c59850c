#pragma once

#include <QString>

class Database;

/// One failure counter of the throttles table (times in epoch ms).
struct ThrottleCount
{
    qint64 failures = 0; ///< counted in the current window
    qint64 windowStartMs = 0;
    qint64 blockedUntilMs = 0; ///< 0 or a past time when not blocked
};

/// The throttles table: failure counters that slow guessing, shared by every server on the database
/// (issue 16), so failures split across servers add up. A bucket is a caller-chosen name with a kind
/// prefix, e.g. "key:<address>|<key id>" (Authenticator) or "pin:<account>:<name>" (UserService). Call
/// inside the caller's WriteTransaction: on PostgreSQL hit() locks the row until it ends, so concurrent
/// failures in one bucket are counted one after the other. Every call throws DatabaseError.
class ThrottleRepository
{
public:
    explicit ThrottleRepository(Database &db) : m_db(db) {}

    /// Counts one failure in `bucket` at `nowMs` and returns the counter after it: a bucket whose window
    /// began more than `windowMs` ago starts a new window with this failure. The caller rolls back the
    /// transaction when the answer shows the bucket blocked and the failure must not count.
    ThrottleCount hit(const QString &bucket, qint64 nowMs, qint64 windowMs);
    /// Blocks `bucket` until `untilMs`; with `restartWindow` its count starts again at 0 from `nowMs`.
    void block(const QString &bucket, qint64 untilMs, bool restartWindow, qint64 nowMs);
    /// Deletes the buckets starting with `prefix` that are not blocked at `nowMs` and had no failure
    /// since `idleSinceMs`. Returns how many went.
    int prune(const QString &prefix, qint64 idleSinceMs, qint64 nowMs);

private:
    Database &m_db;
};
