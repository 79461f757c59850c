#pragma once

#include "auth/authcontext.h"

#include <QList>
#include <QString>
#include <QStringList>

class QSqlQuery;

#include <optional>

class AadhaarVault;
class Database;

/// The webhook endpoint of one account and mode (api-conventions.md, "Webhooks"): where events
/// go, the spec's webhook_password, the Standard Webhooks signing secret and, during a
/// rotation, the previous secret until it expires. Times are UTC milliseconds.
struct WebhookEndpoint
{
    qint64 accountId = 0;
    Mode mode = Mode::Test;
    QString url;               ///< as configured; for the built-in inbox the inbox URL when created
    bool builtinInbox = false; ///< true: deliver to this server's own /hooks/inbox, whatever its port
    QString password;          ///< data.webhook_password of every event body
    QString secret;            ///< "whsec_…"
    QString previousSecret;    ///< empty unless a rotation is in progress
    qint64 previousSecretExpiresAtMs = 0;
    std::optional<qint64> disabledAtMs; ///< set when a receiver answered 410 Gone
    QString disabledReason;
    qint64 createdAtMs = 0;
    qint64 updatedAtMs = 0;

    /// The secrets that sign a message sent at `nowMs`: the current one, then the previous one
    /// while its rotation overlap lasts.
    QStringList signingSecrets(qint64 nowMs) const;
};

/// Endpoint settings rows. The signing secrets and the webhook_password are sealed with the
/// vault (as the upstream's secrets and Aadhaar numbers are; issue 12) in the *_sealed columns
/// of migration 9, bound to their account, mode and column, and the clear columns hold ''.
/// Writes run inside the caller's transaction. Throws DatabaseError.
class WebhookEndpointRepository
{
public:
    /// `vault` may be null only where there is no data directory (tools, benchmarks): rows are
    /// then written in the clear and sealed ones read as empty secrets (nothing verifies).
    explicit WebhookEndpointRepository(Database &db, const AadhaarVault *vault = nullptr) : m_db(db), m_vault(vault) {}

    /// The endpoint of this account and mode; nullopt if none was ever set.
    std::optional<WebhookEndpoint> find(qint64 accountId, Mode mode);
    /// Every endpoint (the inbox checks a signature against them).
    QList<WebhookEndpoint> all();
    /// How many endpoints keep their secret sealed (a backup check counts the ones this vault opens).
    int sealedSecretCount();
    /// Inserts the endpoint or replaces every setting of the existing one.
    void save(const WebhookEndpoint &endpoint);
    /// Marks the endpoint disabled (410 Gone); false if there is none or it already is.
    bool disable(qint64 accountId, Mode mode, const QString &reason, qint64 nowMs);
    /// Seals the secrets still stored in the clear (rows of a version before issue 12, or written
    /// without a vault) and blanks them; run at every server start. Returns the rows sealed.
    /// Nothing without a vault.
    int sealClearSecrets();

private:
    WebhookEndpoint read(const QSqlQuery &q) const;
    QString seal(const WebhookEndpoint &e, const char *column, const QString &value) const;
    QString unseal(qint64 accountId, Mode mode, const char *column, const QString &sealed) const;

    Database &m_db;
    const AadhaarVault *m_vault;
};
