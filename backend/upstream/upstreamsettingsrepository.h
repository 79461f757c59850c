#pragma once

#include "upstreamsettings.h"

#include <QList>

#include <optional>

class AadhaarVault;
class Database;
class QSqlQuery;

/// The server's upstreams (the `upstreams` table, migration 14; issue 26 "Several upstreams"): one row per name with
/// its routing, its settings sealed with the vault, what it offers and its health; plus this server's id and the
/// change counter (upstream_config). Reads run outside transactions; writes commit at once unless a write
/// transaction is open. Throws DatabaseError.
class UpstreamSettingsRepository
{
public:
    /// `vault` may be null (no data directory): no upstream can be unsealed then, and save() throws ApiError 503
    /// `vault_unavailable`.
    UpstreamSettingsRepository(Database &db, const AadhaarVault *vault) : m_db(db), m_vault(vault) {}

    /// This database's 8-character [a-z0-9] server id, created on first use.
    QString serverId();
    /// Every upstream whose secrets this vault opens, by priority (lowest first), then name.
    QList<UpstreamSettings> list();
    /// The upstream of that name, secrets unsealed; nullopt when there is none (or its sealed secrets cannot be
    /// opened with this vault).
    std::optional<UpstreamSettings> load(const QString &name = QStringLiteral("default"));
    /// The first upstream by priority that sells `service` ("plans", "aadhaar", …); nullopt when none does.
    std::optional<UpstreamSettings> forService(const QString &service);
    /// Stores `settings` under settings.name (a new upstream, or new settings of one), sealing its secrets; resets
    /// its health to "unknown" and its offers to the spec's (until recordOffers()).
    void save(const UpstreamSettings &settings, qint64 nowMs);
    /// Forgets the upstream of that name (its secrets with it); false when there was none. The server id stays.
    bool clear(const QString &name, qint64 nowMs);
    UpstreamHealth health(const QString &name);
    /// The change counter bumped by every save(), clear() and recordOffers(); -1 before the first use.
    qint64 version();
    /// How many upstreams are configured, whether or not this vault opens their secrets.
    int count();
    /// Records the result of one real call to the upstream `name`: `answered` (any HTTP answer) makes it "online",
    /// otherwise "unreachable"; `error` empty for a good answer.
    void recordContact(const QString &name, bool answered, const QString &error, qint64 nowMs);
    /// Stores what the upstream `name` at `baseUrl` declared it offers (UpstreamOffersRead), when `baseUrl` is still
    /// its URL and it changed; all false stores the spec's promises only.
    void recordOffers(const QString &name, const QString &baseUrl, const UpstreamOffers &offers);

private:
    void ensureConfigRow();
    void bumpVersion();
    std::optional<UpstreamSettings> read(const QSqlQuery &q) const;
    QString seal(const QString &value, const char *purpose) const;
    std::optional<QString> unseal(const QString &sealed, const char *purpose) const;

    Database &m_db;
    const AadhaarVault *m_vault;
};

/// The upstreams as the live path uses them, unsealed once per change instead of once per sale: each read looks at
/// the change counter only (bumped by every change, so by `rechargedesk upstream set` in another process and by the
/// API too) and unseals again only when it moved. Lives on the database's thread. Throws DatabaseError.
class UpstreamSettingsCache
{
public:
    UpstreamSettingsCache(Database &db, const AadhaarVault *vault) : m_db(db), m_vault(vault) {}

    /// UpstreamSettingsRepository::list(), as of the last committed change.
    const QList<UpstreamSettings> &all();
    /// The upstream of that name; nullopt when there is none.
    std::optional<UpstreamSettings> find(const QString &name);
    /// The enabled upstreams that sell `service` for `operatorCode`, in the order a sale tries them.
    QList<UpstreamSettings> candidates(const QString &service, const QString &operatorCode = {});
    /// The first enabled upstream by priority, whatever it sells; nullopt when there is none.
    std::optional<UpstreamSettings> current();
    /// UpstreamSettingsRepository::serverId(), read once (it never changes for a database).
    QString serverId();

    /// While one lives, the change counter is read at the first use only: the uses of one pass over several sales
    /// (UpstreamDispatcher sending the sales dispatched in one event-loop turn) see the same settings. Passes nest.
    class Pass
    {
    public:
        explicit Pass(UpstreamSettingsCache &cache) : m_cache(cache) { ++m_cache.m_passes; }
        ~Pass()
        {
            if (--m_cache.m_passes == 0)
                m_cache.m_checkedInPass = false;
        }
        Q_DISABLE_COPY_MOVE(Pass)

    private:
        UpstreamSettingsCache &m_cache;
    };

private:
    Database &m_db;
    const AadhaarVault *m_vault;
    std::optional<qint64> m_version; ///< of m_upstreams; nullopt: nothing read yet
    QList<UpstreamSettings> m_upstreams;
    QString m_serverId;
    int m_passes = 0;             ///< Pass objects alive
    bool m_checkedInPass = false; ///< the counter was read during the current Pass
};
