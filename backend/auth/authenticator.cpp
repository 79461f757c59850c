#include "authenticator.h"

#include "apierror.h"
#include "apikeyservice.h"
#include "clock.h"
#include "shops/shoprepository.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "store/throttlerepository.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcAuth, "rechargedesk.auth")

namespace {

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}

} // namespace

AuthContext Authenticator::authenticate(const QByteArray &authorization, const QHostAddress &peer)
{
    const qint64 now = m_clock.nowMs();
    checkKeysVersion(now);
    {
        const QMutexLocker lock(&m_cacheMutex);
        const auto cached = m_cache.constFind(authorization);
        if (cached != m_cache.cend() && cached->validUntilMs > now)
            return cached->context;
    }

    QString keyId;
    try {
        const AuthContext context = verify(authorization, &keyId);
        const QMutexLocker lock(&m_cacheMutex);
        if (m_cache.size() > 10'000)
            m_cache.clear();
        m_cache.insert(authorization, {context, now + kCacheTtlMs});
        return context;
    } catch (const ApiError &error) {
        if (error.httpStatus() == 401)
            fail(QStringLiteral("key:") + peer.toString() + QLatin1Char('|') +
                     (keyId.isEmpty() ? QStringLiteral("*") : keyId),
                 error);
        throw;
    }
}

std::optional<AuthContext> Authenticator::cachedCaller(const QByteArray &authorization) const
{
    const qint64 now = m_clock.nowMs();
    const QMutexLocker lock(&m_cacheMutex);
    if (m_versionCheckedAtMs < 0 || now < m_versionCheckedAtMs || now - m_versionCheckedAtMs >= kVersionPollMs)
        return std::nullopt;
    const auto cached = m_cache.constFind(authorization);
    if (cached == m_cache.cend() || cached->validUntilMs <= now)
        return std::nullopt;
    return cached->context;
}

void Authenticator::clearCache()
{
    const QMutexLocker lock(&m_cacheMutex);
    m_cache.clear();
}

AuthContext Authenticator::verify(const QByteArray &authorization, QString *keyId)
{
    const auto unauthenticated = [](const QString &reason, const QString &description) {
        return ApiError::unauthenticated(reason, description);
    };
    if (authorization.isEmpty())
        throw unauthenticated(QStringLiteral("missing_credentials"),
                              QStringLiteral("send Authorization: Basic base64(key_id:key_secret)"));
    // The scheme name is case-insensitive (RFC 7235, section 2.1): "basic" is Basic too.
    if (authorization.size() < 6 || QByteArrayView(authorization).first(6).compare("Basic ", Qt::CaseInsensitive) != 0)
        throw unauthenticated(QStringLiteral("unsupported_scheme"), QStringLiteral("use the Basic scheme"));
    const auto decoded =
        QByteArray::fromBase64Encoding(authorization.mid(6).trimmed(), QByteArray::AbortOnBase64DecodingErrors);
    const qsizetype colon = decoded.decoded.indexOf(':');
    if (!decoded || colon <= 0)
        throw unauthenticated(QStringLiteral("malformed_credentials"),
                              QStringLiteral("the Basic credential must be base64(key_id:key_secret)"));
    const QString secret = QString::fromUtf8(decoded.decoded.mid(colon + 1));
    const std::optional<ApiKeyRow> key =
        AccountRepository(m_db).findKey(QString::fromUtf8(decoded.decoded.left(colon)));
    if (key)
        *keyId = key->keyId;
    if (!key || !constantTimeEquals(key->secretHash.toLatin1(), ApiKeyService::hashSecret(secret).toLatin1()))
        throw unauthenticated(QStringLiteral("invalid_credentials"), QStringLiteral("the API key or secret is wrong"));
    if (key->revokedAtMs)
        throw ApiError::forbidden(QStringLiteral("key_revoked"), QStringLiteral("this API key has been revoked"));
    AuthContext context;
    context.accountId = key->accountId;
    context.keyId = key->keyId;
    context.mode = key->mode;
    context.scope = key->scope;
    const std::optional<QString> shopState = ShopRepository(m_db).state(key->accountId);
    context.shop = shopState.has_value();
    context.suspended = shopState == QLatin1String("suspended");
    return context;
}

void Authenticator::checkKeysVersion(qint64 nowMs)
{
    {
        const QMutexLocker lock(&m_cacheMutex);
        if (m_versionCheckedAtMs >= 0 && nowMs - m_versionCheckedAtMs < kVersionPollMs && nowMs >= m_versionCheckedAtMs)
            return;
    }
    qint64 version = 0;
    try {
        version = AccountRepository(m_db).keysVersion();
    } catch (const DatabaseError &) {
        return; // the database is away: cached keys stay usable for their kCacheTtlMs, as before this check
    }
    const QMutexLocker lock(&m_cacheMutex);
    if (version != m_keysVersion)
        m_cache.clear();
    m_keysVersion = version;
    m_versionCheckedAtMs = nowMs;
}

void Authenticator::fail(const QString &bucket, const ApiError &error)
{
    const qint64 now = m_clock.nowMs();
    ThrottleRepository throttles(m_db);
    if (now - m_prunedAtMs > kFailureWindowMs) { // on its own, before the row lock of hit() is taken
        throttles.prune(QStringLiteral("key:"), now - kFailureWindowMs, now);
        m_prunedAtMs = now;
    }
    WriteTransaction transaction(m_db);
    const ThrottleCount count = throttles.hit(bucket, now, kFailureWindowMs);
    if (count.blockedUntilMs > now) {
        // A blocked bucket's failures do not count (the transaction rolls back).
        const qint64 seconds = (count.blockedUntilMs - now + 999) / 1000;
        throw ApiError::rateLimited(
            QStringLiteral("too_many_failed_logins"),
            QStringLiteral("too many failed authentication attempts; retry in %1 s").arg(seconds))
            .withHeader("Retry-After", QByteArray::number(seconds));
    }
    if (count.failures >= kMaxFailures) {
        throttles.block(bucket, now + kBlockMs, true, now);
        qCWarning(lcAuth, "blocking %s for %lld s after %d failed authentications", qPrintable(bucket), kBlockMs / 1000,
                  kMaxFailures);
    }
    transaction.commit();
    qCInfo(lcAuth, "authentication failed (%s): %s", qPrintable(bucket), qPrintable(error.reason()));
    throw ApiError::unauthenticated(error.reason(), error.description())
        .withHeader("WWW-Authenticate", "Basic realm=\"rechargedesk\"");
}
