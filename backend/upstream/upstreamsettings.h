#pragma once

#include <QString>
#include <QUrl>

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
