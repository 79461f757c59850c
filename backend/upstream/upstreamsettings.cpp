#include "upstreamsettings.h"

#include "aadhaar/aadhaarvault.h"
#include "apierror.h"
#include "store/database.h"
#include "webhooks/webhooksigner.h"

#include <QRandomGenerator>

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

void UpstreamSettingsRepository::ensureRow()
{
    static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString id;
    for (int i = 0; i < 8; ++i)
        id += QLatin1Char(kAlphabet[QRandomGenerator::system()->bounded(36)]);
    m_db.run(QStringLiteral("INSERT INTO upstream_config (id, server_id) VALUES (1, ?) ON CONFLICT (id) DO NOTHING"),
             {id});
}

QString UpstreamSettingsRepository::serverId()
{
    for (int round = 0; round < 2; ++round) {
        QSqlQuery &q = m_db.run(QStringLiteral("SELECT server_id FROM upstream_config WHERE id = 1"));
        const QString id = q.next() ? q.value(0).toString() : QString();
        q.finish();
        if (!id.isEmpty())
            return id;
        ensureRow(); // the first use on this database
    }
    return QString();
}

std::optional<UpstreamSettings> UpstreamSettingsRepository::load()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT base_url, key_id, key_secret_sealed, webhook_password_sealed,"
                                           " webhook_secret_sealed FROM upstream_config WHERE id = 1"));
    if (!q.next() || q.value(0).toString().isEmpty()) {
        q.finish();
        return std::nullopt;
    }
    UpstreamSettings s;
    s.baseUrl = q.value(0).toString();
    s.keyId = q.value(1).toString();
    const QString sealedSecret = q.value(2).toString();
    const QString sealedPassword = q.value(3).toString();
    const QString sealedWebhookSecret = q.value(4).toString();
    q.finish();
    const std::optional<QString> secret = unseal(sealedSecret, "upstream:key_secret");
    const std::optional<QString> password = unseal(sealedPassword, "upstream:webhook_password");
    const std::optional<QString> webhookSecret = unseal(sealedWebhookSecret, "upstream:webhook_secret");
    if (!secret || !password || !webhookSecret)
        return std::nullopt;
    s.keySecret = *secret;
    s.webhookPassword = *password;
    s.webhookSecret = *webhookSecret;
    return s;
}

void UpstreamSettingsRepository::save(const UpstreamSettings &settings, qint64 nowMs)
{
    if (!m_vault)
        throw ApiError::gatewayUnavailable(QStringLiteral("vault_unavailable"),
                                           QStringLiteral("the server has no key vault (data directory) to seal the "
                                                          "upstream secret with; nothing was stored"));
    ensureRow();
    m_db.run(QStringLiteral("UPDATE upstream_config SET base_url = ?, key_id = ?, key_secret_sealed = ?,"
                            " webhook_password_sealed = ?, webhook_secret_sealed = ?, version = version + 1,"
                            " health_state = 'unknown', health_since = ?, last_contact = 0, last_error = ''"
                            " WHERE id = 1"),
             {settings.baseUrl, settings.keyId, textValue(seal(settings.keySecret, "upstream:key_secret")),
              textValue(seal(settings.webhookPassword, "upstream:webhook_password")),
              textValue(seal(settings.webhookSecret, "upstream:webhook_secret")), nowMs});
}

void UpstreamSettingsRepository::clear(qint64 nowMs)
{
    ensureRow();
    m_db.run(QStringLiteral("UPDATE upstream_config SET base_url = '', key_id = '', key_secret_sealed = '',"
                            " webhook_password_sealed = '', webhook_secret_sealed = '', version = version + 1,"
                            " health_state = 'unknown', health_since = ?, last_contact = 0, last_error = ''"
                            " WHERE id = 1"),
             {nowMs});
}

UpstreamHealth UpstreamSettingsRepository::health()
{
    UpstreamHealth h;
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT health_state, health_since, last_contact, last_error"
                                           " FROM upstream_config WHERE id = 1"));
    if (q.next()) {
        h.state = q.value(0).toString();
        h.sinceMs = q.value(1).toLongLong();
        h.lastContactMs = q.value(2).toLongLong();
        h.lastError = q.value(3).toString();
    }
    q.finish();
    return h;
}

void UpstreamSettingsRepository::recordContact(bool answered, const QString &error, qint64 nowMs)
{
    const QString state = answered ? QStringLiteral("online") : QStringLiteral("unreachable");
    m_db.run(
        QStringLiteral("UPDATE upstream_config SET health_since = CASE WHEN health_state = ? THEN health_since"
                       " ELSE ? END, health_state = ?, last_contact = CASE WHEN ? = 1 THEN ? ELSE last_contact END,"
                       " last_error = ? WHERE id = 1"),
        {state, nowMs, state, answered ? 1 : 0, nowMs, textValue(error)});
}

QString UpstreamSettingsRepository::seal(const QString &value, const char *purpose) const
{
    if (value.isEmpty())
        return QString();
    return QString::fromLatin1(m_vault->seal(value, QByteArray(purpose)).toBase64());
}

std::optional<QString> UpstreamSettingsRepository::unseal(const QString &sealed, const char *purpose) const
{
    if (sealed.isEmpty())
        return QString();
    if (!m_vault)
        return std::nullopt;
    return m_vault->unseal(QByteArray::fromBase64(sealed.toLatin1()), QByteArray(purpose));
}

std::optional<UpstreamSettings> UpstreamSettingsCache::current()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT version FROM upstream_config WHERE id = 1"));
    const qint64 version = q.next() ? q.value(0).toLongLong() : -1;
    q.finish();
    if (m_version != version) {
        m_settings = UpstreamSettingsRepository(m_db, m_vault).load();
        m_version = version;
    }
    return m_settings;
}

QString UpstreamSettingsCache::serverId()
{
    if (m_serverId.isEmpty())
        m_serverId = UpstreamSettingsRepository(m_db, m_vault).serverId();
    return m_serverId;
}
