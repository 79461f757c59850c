#pragma once

#include "authcontext.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>

class Clock;
class Database;

/// Checks the `Authorization: Basic base64(key_id:key_secret)` header of a request
/// (api-conventions.md, "Authentication"). Verified keys are cached for a few seconds so the
/// hot path does no hashing or SQL; revoking a key through this process clears the cache, and
/// another process's revocation takes effect within kCacheTtlMs. Repeated failures from one
/// address are throttled.
class Authenticator
{
public:
    static constexpr qint64 kCacheTtlMs = 5'000;
    static constexpr int kMaxFailures = 10;             ///< failures per address per window
    static constexpr qint64 kFailureWindowMs = 300'000; ///< 5 minutes
    static constexpr qint64 kBlockMs = 60'000;          ///< then 429 for a minute

    Authenticator(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}

    /// The caller behind `authorization` (the raw header value). Throws ApiError 401
    /// (missing, malformed, unknown key or wrong secret; with WWW-Authenticate), 403 (revoked
    /// key) or 429 (too many failures from `peer`, with Retry-After in seconds).
    AuthContext authenticate(const QByteArray &authorization, const QHostAddress &peer);
    /// Forgets every cached verification (after a revocation).
    void clearCache() { m_cache.clear(); }

private:
    struct CachedKey
    {
        AuthContext context;
        qint64 validUntilMs;
    };
    struct FailureCount
    {
        int failures = 0;
        qint64 windowStartMs = 0;
        qint64 blockedUntilMs = 0;
    };
    [[noreturn]] void fail(const QHostAddress &peer, const QString &reason, const QString &description);
    AuthContext verify(const QByteArray &authorization);

    Database &m_db;
    const Clock &m_clock;
    QHash<QByteArray, CachedKey> m_cache;
    QHash<QString, FailureCount> m_failures;
};
