#pragma once

#include "authcontext.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QMutex>

#include <optional>

class ApiError;
class Clock;
class Database;

/// Checks the `Authorization: Basic base64(key_id:key_secret)` header of a request
/// (api-conventions.md, "Authentication"), and learns whether the key's account is a shop and a suspended one (issue
/// 30; cached with the key, so a suspension, which bumps the keys version, is seen within kVersionPollMs). Verified
/// keys are cached for a few seconds so the hot path does no hashing; revoking a key through this process clears the
/// cache. Several servers share one database (issue 16): a revocation anywhere bumps the `api_keys` row of
/// state_versions, which this class reads at most once every kVersionPollMs (one cheap SELECT a second), so a key
/// revoked on any server is refused here within kVersionPollMs (and kCacheTtlMs bounds it anyway).
///
/// Failed attempts are throttled per (address, key id) (issue 12), counted in the database's
/// throttles table so that failures split across servers add up (issue 16): wrong secrets for one key id
/// from one address, or credentials naming no key at all (one shared bucket per address). After
/// kMaxFailures in kFailureWindowMs that bucket answers 429 for kBlockMs. A correct key is never
/// locked out: it is checked before the throttle answers, so another client's wrong guesses (same
/// address, or the same key id from elsewhere) cannot stop a terminal. This costs no guessing
/// resistance: a secret has 190 bits, so the throttle is there to slow enumeration and noise, not
/// to make guessing a secret hard.
class Authenticator
{
public:
    static constexpr qint64 kCacheTtlMs = 5'000;
    static constexpr qint64 kVersionPollMs = 1'000;     ///< how stale this server's view of revocations may be
    static constexpr int kMaxFailures = 10;             ///< failures per (address, key id) per window
    static constexpr qint64 kFailureWindowMs = 300'000; ///< 5 minutes
    static constexpr qint64 kBlockMs = 60'000;          ///< then 429 for a minute

    Authenticator(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}

    /// The caller behind `authorization` (the raw header value). Throws ApiError 401
    /// (missing, malformed, unknown key or wrong secret; with WWW-Authenticate), 403 (revoked
    /// key) or 429 (too many failures from `peer` for this key id, with Retry-After in seconds;
    /// never for a correct key).
    AuthContext authenticate(const QByteArray &authorization, const QHostAddress &peer);
    /// The caller behind `authorization` when this server verified that exact header within kCacheTtlMs and read the
    /// shared keys version within kVersionPollMs (so a revocation anywhere is seen as authenticate() sees it);
    /// nothing otherwise. Reads no database and counts no failure; safe on any thread (the HTTP worker threads,
    /// issue 17), while authenticate() runs on the server thread.
    std::optional<AuthContext> cachedCaller(const QByteArray &authorization) const;

    /// Forgets every cached verification (after a revocation).
    void clearCache();

private:
    struct CachedKey
    {
        AuthContext context;
        qint64 validUntilMs;
    };
    /// Counts a failure in `bucket` and throws 401, or 429 while the bucket is blocked.
    [[noreturn]] void fail(const QString &bucket, const ApiError &error);
    /// Checks the credential; `*keyId` receives the id of the named key when it exists.
    AuthContext verify(const QByteArray &authorization, QString *keyId);
    /// Drops the cache when the shared keys version moved since it was last read (at most once per kVersionPollMs;
    /// while the database cannot answer, the cache stays as it is).
    void checkKeysVersion(qint64 nowMs);

    Database &m_db;
    const Clock &m_clock;
    mutable QMutex m_cacheMutex; ///< guards m_cache, m_keysVersion and m_versionCheckedAtMs (cachedCaller's threads)
    QHash<QByteArray, CachedKey> m_cache;
    qint64 m_keysVersion = -1;        ///< the state_versions `api_keys` value the cache was built at
    qint64 m_versionCheckedAtMs = -1; ///< when it was last read
    qint64 m_prunedAtMs = 0;          ///< when idle throttle buckets were last deleted
};
