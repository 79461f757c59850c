#pragma once

#include "auth/authcontext.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

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

/// Endpoint settings rows. Writes run inside the caller's transaction. Throws DatabaseError.
class WebhookEndpointRepository
{
public:
    explicit WebhookEndpointRepository(Database &db) : m_db(db) {}

    /// The endpoint of this account and mode; nullopt if none was ever set.
    std::optional<WebhookEndpoint> find(qint64 accountId, Mode mode);
    /// Every endpoint (the inbox checks a signature against them).
    QList<WebhookEndpoint> all();
    /// Inserts the endpoint or replaces every setting of the existing one.
    void save(const WebhookEndpoint &endpoint);
    /// Marks the endpoint disabled (410 Gone); false if there is none or it already is.
    bool disable(qint64 accountId, Mode mode, const QString &reason, qint64 nowMs);

private:
    Database &m_db;
};
