#include "upstreamsettings.h"

#include "apierror.h"
#include "webhooks/webhooksigner.h"

UpstreamSettings UpstreamSettings::checked(const QString &baseUrl, const QString &keyId, const QString &keySecret,
                                           const QString &webhookPassword, const QString &webhookSecret)
{
    UpstreamSettings s;
    QString base = baseUrl.trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    const QUrl url(base, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
        url.host().isEmpty() || !url.path().endsWith(QLatin1String("/api/v1")) || url.hasQuery() || url.hasFragment() ||
        !url.userInfo().isEmpty())
        throw ApiError::badRequest(QStringLiteral("base_url"), QStringLiteral("invalid_base_url"),
                                   QStringLiteral("base_url must be an http:// or https:// address ending in /api/v1, "
                                                  "e.g. http://distributor.example:8080/api/v1"));
    s.baseUrl = base;
    s.keyId = keyId.trimmed();
    static const auto printable = [](const QString &text) {
        for (QChar c : text)
            if (c.unicode() < 0x21 || c.unicode() > 0x7e)
                return false;
        return true;
    };
    if (s.keyId.isEmpty() || s.keyId.size() > 128 || !printable(s.keyId))
        throw ApiError::badRequest(
            QStringLiteral("key_id"), QStringLiteral("invalid_key_id"),
            QStringLiteral("key_id must be the upstream key id (1 to 128 characters, no spaces)"));
    s.keySecret = keySecret.trimmed();
    if (s.keySecret.isEmpty() || s.keySecret.size() > 512 || !printable(s.keySecret))
        throw ApiError::badRequest(QStringLiteral("key_secret"), QStringLiteral("invalid_key_secret"),
                                   QStringLiteral("key_secret must be the upstream key secret (1 to 512 characters)"));
    if (webhookPassword.size() > 256)
        throw ApiError::badRequest(QStringLiteral("webhook_password"), QStringLiteral("invalid_webhook_password"),
                                   QStringLiteral("webhook_password must be at most 256 characters"));
    s.webhookPassword = webhookPassword;
    s.webhookSecret = webhookSecret.trimmed();
    if (!s.webhookSecret.isEmpty() && !WebhookSigner::secretKey(s.webhookSecret))
        throw ApiError::badRequest(QStringLiteral("webhook_secret"), QStringLiteral("invalid_webhook_secret"),
                                   QStringLiteral("webhook_secret must be the upstream's signing secret, whsec_ "
                                                  "followed by base64"));
    return s;
}

QUrl UpstreamSettings::url(const QString &path) const
{
    return QUrl(baseUrl + path);
}

QByteArray UpstreamSettings::authorization() const
{
    return "Basic " + (keyId + QLatin1Char(':') + keySecret).toUtf8().toBase64();
}
