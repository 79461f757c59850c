#pragma once

#include "upstreamsettings.h"

#include <optional>

class AadhaarVault;
class Database;

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
    /// The row's change counter, bumped by save() and clear(); -1 before the row exists.
    qint64 version();
    /// True when an upstream key secret is stored sealed (whether or not this vault opens it).
    bool hasSealedKeySecret();
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
