#pragma once

#include <QString>
#include <QUrl>

#include <optional>

class AadhaarVault;
class Database;

/// The upstream this server sells live recharges through (issue 11, "Configuration"): an
/// aggregator speaking api-v1.md, reached at baseUrl (ending in /api/v1) with Basic auth.
struct UpstreamSettings
{
    QString baseUrl; ///< "http(s)://host[:port]/…/api/v1", no trailing slash
    QString keyId;
    QString keySecret;       ///< plain only in memory; sealed by the vault in the database
    QString webhookPassword; ///< data.webhook_password the upstream sends to /hooks/upstream; may be empty
    QString webhookSecret;   ///< "whsec_…" Standard Webhooks secret of the upstream; empty: not checked

    /// The settings after the input rules: base_url an http(s) URL whose path ends in /api/v1,
    /// key_id 1–128 printable characters, key_secret 1–512 characters, webhook_password at most
    /// 256, webhook_secret empty or "whsec_" + base64. Throws ApiError 400 naming the first bad
    /// field (base_url, key_id, key_secret, webhook_password, webhook_secret).
    static UpstreamSettings checked(const QString &baseUrl, const QString &keyId, const QString &keySecret,
                                    const QString &webhookPassword, const QString &webhookSecret);
    /// baseUrl + path, e.g. url("/recharge/mobile/initiate-transaction").
    QUrl url(const QString &path) const;
    /// "Basic base64(key_id:key_secret)".
    QByteArray authorization() const;
};

/// What this server saw of its upstream through real calls (GET /api/v1/upstream `state`).
struct UpstreamHealth
{
    QString state = QStringLiteral("unknown"); ///< "online", "unreachable" or "unknown" (never contacted)
    qint64 sinceMs = 0;                        ///< UTC ms when the state began; 0 unknown
    qint64 lastContactMs = 0;                  ///< UTC ms of the last HTTP answer; 0 never
    QString lastError;                         ///< the last failure in words; empty after a good call
};

/// The one upstream_config row (migration 8): settings sealed with the vault, this server's id,
/// the upstream's health. Reads run outside transactions; writes commit at once unless a write
/// transaction is open. Throws DatabaseError.
class UpstreamSettingsRepository
{
public:
    /// `vault` may be null (no data directory): load() then finds no usable settings and save()
    /// throws ApiError 503 `vault_unavailable`.
    UpstreamSettingsRepository(Database &db, const AadhaarVault *vault) : m_db(db), m_vault(vault) {}

    /// This database's 8-character [a-z0-9] server id, created on first use.
    QString serverId();
    /// The configured upstream, secrets unsealed; nullopt when none is configured (or the
    /// sealed secret cannot be opened with this vault).
    std::optional<UpstreamSettings> load();
    /// Stores `settings`, sealing its secrets; resets the health to "unknown".
    void save(const UpstreamSettings &settings, qint64 nowMs);
    /// Forgets the upstream (secrets wiped); the server id stays.
    void clear(qint64 nowMs);
    UpstreamHealth health();
    /// Records the result of one real call: `answered` (any HTTP answer) makes the upstream
    /// "online", otherwise "unreachable"; `error` empty for a good answer.
    void recordContact(bool answered, const QString &error, qint64 nowMs);

private:
    void ensureRow();
    QString seal(const QString &value, const char *purpose) const;
    std::optional<QString> unseal(const QString &sealed, const char *purpose) const;

    Database &m_db;
    const AadhaarVault *m_vault;
};

/// The upstream settings as the live path uses them, unsealed once per change instead of once per
/// sale: each current() reads only the row's `version` (bumped by every save() and clear(), so by
/// `rechargedesk upstream set/clear` in another process and by PUT/DELETE /api/v1/upstream too) and
/// unseals again only when it moved. Lives on the database's thread. Throws DatabaseError.
class UpstreamSettingsCache
{
public:
    UpstreamSettingsCache(Database &db, const AadhaarVault *vault) : m_db(db), m_vault(vault) {}

    /// As UpstreamSettingsRepository::load(), as of the last committed change.
    std::optional<UpstreamSettings> current();
    /// UpstreamSettingsRepository::serverId(), read once (it never changes for a database).
    QString serverId();

private:
    Database &m_db;
    const AadhaarVault *m_vault;
    std::optional<qint64> m_version; ///< of m_settings; nullopt: nothing read yet
    std::optional<UpstreamSettings> m_settings;
    QString m_serverId;
};
