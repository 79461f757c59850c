#include "upstreamsettingsrepository.h"

#include "aadhaar/aadhaarvault.h"
#include "apierror.h"
#include "store/database.h"

#include <QRandomGenerator>

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

qint64 UpstreamSettingsRepository::version()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT version FROM upstream_config WHERE id = 1"));
    const qint64 version = q.next() ? q.value(0).toLongLong() : -1;
    q.finish();
    return version;
}

bool UpstreamSettingsRepository::hasSealedKeySecret()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COUNT(*) FROM upstream_config WHERE key_secret_sealed <> ''"));
    const bool sealed = q.next() && q.value(0).toInt() > 0;
    q.finish();
    return sealed;
}

std::optional<UpstreamSettings> UpstreamSettingsCache::current()
{
    UpstreamSettingsRepository repository(m_db, m_vault);
    const qint64 version = repository.version();
    if (m_version != version) {
        m_settings = repository.load();
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
