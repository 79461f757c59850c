#include "upstreamsettingsrepository.h"

#include "aadhaar/aadhaarvault.h"
#include "apierror.h"
#include "store/database.h"

#include <QJsonDocument>
#include <QRandomGenerator>

namespace {
const QString kColumns = QStringLiteral("name, priority, services, operators, enabled, base_url, key_id,"
                                        " key_secret_sealed, credential_sealed, webhook_password_sealed,"
                                        " webhook_secret_sealed, offers");

QStringList listOf(const QString &text)
{
    return text.isEmpty() ? QStringList() : text.split(QLatin1Char(','));
}
} // namespace

void UpstreamSettingsRepository::ensureConfigRow()
{
    static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString id;
    for (int i = 0; i < 8; ++i)
        id += QLatin1Char(kAlphabet[QRandomGenerator::system()->bounded(36)]);
    m_db.run(QStringLiteral("INSERT INTO upstream_config (id, server_id) VALUES (1, ?) ON CONFLICT (id) DO NOTHING"),
             {id});
}

void UpstreamSettingsRepository::bumpVersion()
{
    ensureConfigRow();
    m_db.run(QStringLiteral("UPDATE upstream_config SET version = version + 1 WHERE id = 1"));
}

QString UpstreamSettingsRepository::serverId()
{
    for (int round = 0; round < 2; ++round) {
        QSqlQuery &q = m_db.run(QStringLiteral("SELECT server_id FROM upstream_config WHERE id = 1"));
        const QString id = q.next() ? q.value(0).toString() : QString();
        q.finish();
        if (!id.isEmpty())
            return id;
        ensureConfigRow(); // the first use on this database
    }
    return QString();
}

std::optional<UpstreamSettings> UpstreamSettingsRepository::read(const QSqlQuery &q) const
{
    UpstreamSettings s;
    s.name = q.value(0).toString();
    s.priority = q.value(1).toInt();
    s.services = listOf(q.value(2).toString());
    s.operators = listOf(q.value(3).toString());
    s.enabled = q.value(4).toInt() != 0;
    s.baseUrl = q.value(5).toString();
    s.keyId = q.value(6).toString();
    const std::optional<QString> secret = unseal(q.value(7).toString(), "upstream:key_secret");
    const std::optional<QString> credential = unseal(q.value(8).toString(), "upstream:credential");
    const std::optional<QString> password = unseal(q.value(9).toString(), "upstream:webhook_password");
    const std::optional<QString> webhookSecret = unseal(q.value(10).toString(), "upstream:webhook_secret");
    if (!secret || !credential || !password || !webhookSecret)
        return std::nullopt;
    s.keySecret = *secret;
    s.credential = *credential;
    s.webhookPassword = *password;
    s.webhookSecret = *webhookSecret;
    s.offers = UpstreamOffers::fromJson(QJsonDocument::fromJson(q.value(11).toString().toUtf8()).object());
    return s;
}

QList<UpstreamSettings> UpstreamSettingsRepository::list()
{
    QList<UpstreamSettings> upstreams;
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM upstreams ORDER BY priority, name"));
    while (q.next())
        if (std::optional<UpstreamSettings> s = read(q))
            upstreams.append(std::move(*s));
    q.finish();
    return upstreams;
}

std::optional<UpstreamSettings> UpstreamSettingsRepository::load(const QString &name)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM upstreams WHERE name = ?"), {name});
    std::optional<UpstreamSettings> s;
    if (q.next())
        s = read(q);
    q.finish();
    return s;
}

std::optional<UpstreamSettings> UpstreamSettingsRepository::forService(const QString &service)
{
    for (const UpstreamSettings &s : list())
        if (s.sells(service))
            return s;
    return std::nullopt;
}

void UpstreamSettingsRepository::save(const UpstreamSettings &settings, qint64 nowMs)
{
    if (!m_vault)
        throw ApiError::gatewayUnavailable(QStringLiteral("vault_unavailable"),
                                           QStringLiteral("the server has no key vault (data directory) to seal the "
                                                          "upstream secret with; nothing was stored"));
    const QVariantList values{settings.name,
                              settings.priority,
                              textValue(settings.services.join(QLatin1Char(','))),
                              textValue(settings.operators.join(QLatin1Char(','))),
                              settings.enabled ? 1 : 0,
                              settings.baseUrl,
                              textValue(settings.keyId),
                              textValue(seal(settings.keySecret, "upstream:key_secret")),
                              textValue(seal(settings.credential, "upstream:credential")),
                              textValue(seal(settings.webhookPassword, "upstream:webhook_password")),
                              textValue(seal(settings.webhookSecret, "upstream:webhook_secret")),
                              nowMs,
                              nowMs};
    // What the upstream offers is read again for the new settings (a new URL may be another service): until then
    // it is held to the spec.
    m_db.run(QStringLiteral("INSERT INTO upstreams (name, priority, services, operators, enabled, base_url, key_id,"
                            " key_secret_sealed, credential_sealed, webhook_password_sealed, webhook_secret_sealed,"
                            " offers, health_state, health_since, last_contact, last_error, updated_at)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', 'unknown', ?, 0, '', ?)"
                            " ON CONFLICT (name) DO UPDATE SET priority = excluded.priority,"
                            " services = excluded.services, operators = excluded.operators,"
                            " enabled = excluded.enabled, base_url = excluded.base_url, key_id = excluded.key_id,"
                            " key_secret_sealed = excluded.key_secret_sealed,"
                            " credential_sealed = excluded.credential_sealed,"
                            " webhook_password_sealed = excluded.webhook_password_sealed,"
                            " webhook_secret_sealed = excluded.webhook_secret_sealed, offers = '',"
                            " health_state = 'unknown', health_since = excluded.health_since, last_contact = 0,"
                            " last_error = '', updated_at = excluded.updated_at"),
             values);
    bumpVersion();
}

bool UpstreamSettingsRepository::clear(const QString &name, qint64 nowMs)
{
    Q_UNUSED(nowMs)
    QSqlQuery &q = m_db.run(QStringLiteral("DELETE FROM upstreams WHERE name = ?"), {name});
    const bool removed = q.numRowsAffected() > 0;
    bumpVersion();
    return removed;
}

UpstreamHealth UpstreamSettingsRepository::health(const QString &name)
{
    UpstreamHealth h;
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT health_state, health_since, last_contact, last_error"
                                           " FROM upstreams WHERE name = ?"),
                            {name});
    if (q.next()) {
        h.state = q.value(0).toString();
        h.sinceMs = q.value(1).toLongLong();
        h.lastContactMs = q.value(2).toLongLong();
        h.lastError = q.value(3).toString();
    }
    q.finish();
    return h;
}

void UpstreamSettingsRepository::recordContact(const QString &name, bool answered, const QString &error, qint64 nowMs)
{
    const QString state = answered ? QStringLiteral("online") : QStringLiteral("unreachable");
    m_db.run(
        QStringLiteral("UPDATE upstreams SET health_since = CASE WHEN health_state = ? THEN health_since"
                       " ELSE ? END, health_state = ?, last_contact = CASE WHEN ? = 1 THEN ? ELSE last_contact END,"
                       " last_error = ? WHERE name = ?"),
        {state, nowMs, state, answered ? 1 : 0, nowMs, textValue(error), name});
}

void UpstreamSettingsRepository::recordOffers(const QString &name, const QString &baseUrl, const UpstreamOffers &offers)
{
    const QString json = offers == UpstreamOffers{}
                             ? QString()
                             : QString::fromUtf8(QJsonDocument(offers.toJson()).toJson(QJsonDocument::Compact));
    // Only for the settings it was read for, and only when it changed (the counter makes every server unseal again).
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE upstreams SET offers = ? WHERE name = ? AND base_url = ? AND"
                                           " offers <> ?"),
                            {textValue(json), name, baseUrl, textValue(json)});
    if (q.numRowsAffected() > 0)
        bumpVersion();
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

int UpstreamSettingsRepository::count()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COUNT(*) FROM upstreams"));
    const int n = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    return n;
}

const QList<UpstreamSettings> &UpstreamSettingsCache::all()
{
    if (m_passes > 0 && m_checkedInPass)
        return m_upstreams;
    UpstreamSettingsRepository repository(m_db, m_vault);
    const qint64 version = repository.version();
    if (m_version != version) {
        m_upstreams = repository.list();
        m_version = version;
    }
    m_checkedInPass = m_passes > 0;
    return m_upstreams;
}

std::optional<UpstreamSettings> UpstreamSettingsCache::find(const QString &name)
{
    for (const UpstreamSettings &s : all())
        if (s.name == name)
            return s;
    return std::nullopt;
}

QList<UpstreamSettings> UpstreamSettingsCache::candidates(const QString &service, const QString &operatorCode)
{
    QList<UpstreamSettings> found;
    for (const UpstreamSettings &s : all())
        if (s.sells(service, operatorCode))
            found.append(s);
    return found;
}

std::optional<UpstreamSettings> UpstreamSettingsCache::current()
{
    for (const UpstreamSettings &s : all())
        if (s.enabled)
            return s;
    return std::nullopt;
}

QString UpstreamSettingsCache::serverId()
{
    if (m_serverId.isEmpty())
        m_serverId = UpstreamSettingsRepository(m_db, m_vault).serverId();
    return m_serverId;
}
