#pragma once

#include "webhookendpointrepository.h"

#include <QUrl>

#include <functional>
#include <optional>

class AadhaarVault;
class Clock;
class Database;

/// An endpoint as an admin sees it after a read or a change. `shownSecret` holds the signing
/// secret only when it was created or rotated by this very call: it is shown that once.
struct WebhookEndpointView
{
    WebhookEndpoint endpoint;
    QUrl effectiveUrl; ///< where events go now (the inbox URL for the built-in inbox)
    bool created = false;
    QString shownSecret;
};

/// Webhook endpoint settings per account and mode (api-conventions.md, "Webhooks"; admin
/// endpoints /api/v1/webhook-endpoint and `rechargedesk webhook`). A test-mode account without
/// settings gets the built-in inbox of this server by default, created at first use. Settings
/// are read from the database at every use, so a CLI change takes effect at once.
class WebhookEndpointService
{
public:
    /// How long the previous secret keeps signing after a rotation: 24 h, in milliseconds.
    static constexpr qint64 kRotationOverlapMs = 24LL * 3600 * 1000;
    /// Longest accepted URL and webhook_password.
    static constexpr int kMaxUrlLength = 2048;
    static constexpr int kMaxPasswordLength = 256;

    /// `inboxUrl` gives this server's /hooks/inbox URL, or an invalid URL when unknown (CLI,
    /// server not listening yet): then no default endpoint is created. `vault` seals the secrets
    /// (WebhookEndpointRepository; null only without a data directory).
    WebhookEndpointService(Database &db, const Clock &clock, const AadhaarVault *vault, std::function<QUrl()> inboxUrl);

    /// The endpoint of this account and mode; for test mode without one, creates the built-in
    /// inbox default (created = true, secret shown). nullopt when there is none (live mode, or
    /// test mode while the inbox URL is unknown).
    std::optional<WebhookEndpointView> get(qint64 accountId, Mode mode);
    /// Sets URL and webhook_password, enabling the endpoint again if a 410 had disabled it. A new
    /// endpoint, or one replacing the built-in default, gets a fresh secret (shown). Throws
    /// ApiError 400 for a bad URL (field `url`) or password (field `webhook_password`).
    WebhookEndpointView set(qint64 accountId, Mode mode, const QString &url, const QString &password);
    /// Replaces the secret; the previous one keeps signing for kRotationOverlapMs. Throws
    /// ApiError 404 when the account has no endpoint in this mode.
    WebhookEndpointView rotateSecret(qint64 accountId, Mode mode);

    /// Where events of `endpoint` go now.
    QUrl effectiveUrl(const WebhookEndpoint &endpoint) const;
    /// Checks a target URL: http or https, a host, no user info, at most kMaxUrlLength; an IP
    /// literal must pass the address guard (live: AddressGuard::refusalReason, test:
    /// testModeRefusalReason, which allows loopback); hostnames are checked on their resolved
    /// address at delivery. Throws ApiError 400 (field `url`).
    static void validateUrl(Mode mode, const QString &url);

private:
    Database &m_db;
    const Clock &m_clock;
    const AadhaarVault *m_vault;
    std::function<QUrl()> m_inboxUrl;
};
