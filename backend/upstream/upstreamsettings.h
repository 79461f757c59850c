#pragma once

#include "entities/upstreaminfo.h"

class OperatorCatalog;

#include <QString>
#include <QStringList>
#include <QUrl>

/// The upstream this server sells live recharges through (issue 11, "Configuration"; issue 26): an aggregator
/// speaking api-v1.md, reached at baseUrl (ending in /api/v1) with the Basic scheme of api-v1.md "Authentication",
/// either with the opaque credential its dashboard gave (sent verbatim) or with a RechargeDesk key pair.
struct UpstreamSettings
{
    /// Its name among the server's upstreams ([a-z0-9_-], 1–32; "default" is the one of the single-upstream
    /// commands and routes). Its webhooks arrive at /hooks/upstream/<name>.
    QString name = QStringLiteral("default");
    /// Live sales try the enabled upstreams that sell their service and operator by priority, lowest first
    /// (0–1000; ties by name).
    int priority = 100;
    /// What it sells: "mobile", "dth", "voucher", "aadhaar", "plans"; empty: all of them.
    QStringList services;
    /// The operator codes it sells (mobile and DTH, e.g. "AT", "TS"); empty: all of them.
    QStringList operators;
    bool enabled = true;
    QString baseUrl;         ///< "http(s)://host[:port]/…/api/v1", no trailing slash
    QString keyId;           ///< empty when an opaque credential is used
    QString keySecret;       ///< plain only in memory; sealed by the vault in the database
    QString credential;      ///< the opaque string after "Basic "; empty for a key pair. Sealed like the secret
    QString webhookPassword; ///< data.webhook_password the upstream sends to /hooks/upstream; may be empty
    QString webhookSecret;   ///< "whsec_…" Standard Webhooks secret of the upstream; empty: not checked
    /// What it declared it offers beyond the spec (docs/upstream-contract.md, "Kinds of upstream"); all false
    /// until its OpenAPI document was read and said so (UpstreamOffersRead).
    UpstreamOffers offers;

    /// The settings of a key pair after the input rules: base_url an http(s) URL whose path ends in /api/v1,
    /// key_id 1–128 printable characters, key_secret 1–512 characters, webhook_password at most 256,
    /// webhook_secret empty or "whsec_" + base64. Throws ApiError 400 naming the first bad field (base_url,
    /// key_id, key_secret, webhook_password, webhook_secret).
    static UpstreamSettings checked(const QString &baseUrl, const QString &keyId, const QString &keySecret,
                                    const QString &webhookPassword, const QString &webhookSecret);
    /// The same with an opaque credential from the aggregator's dashboard (api-v1.md "Authentication"): 1–2048
    /// printable ASCII characters without spaces, sent verbatim. Throws ApiError 400 `credential` when it is not.
    static UpstreamSettings checkedCredential(const QString &baseUrl, const QString &credential,
                                              const QString &webhookPassword, const QString &webhookSecret);
    /// The service names of `services`.
    static const QStringList &serviceNames();
    /// Applies the routing fields after their input rules: `name` [a-z0-9_-]{1,32}, `priority` 0–1000,
    /// `services` among serviceNames(), `operators` codes of `catalog`'s operators. Throws ApiError 400 naming the
    /// field (name, priority, services, operators).
    void setRouting(const QString &name, int priority, const QStringList &services, const QStringList &operators,
                    bool enabled, const OperatorCatalog &catalog);
    /// True when it is enabled and sells `service` ("mobile", …) for `operatorCode` (empty: any, e.g. a voucher).
    bool sells(const QString &service, const QString &operatorCode = {}) const;
    /// baseUrl + path, e.g. url("/recharge/mobile/initiate-transaction").
    QUrl url(const QString &path) const;
    /// "Basic <credential>" for an opaque credential, else "Basic base64(key_id:key_secret)".
    QByteArray authorization() const;
    /// "opaque" or "key_pair" (GET /api/v1/upstream `credential`).
    QString credentialKind() const;
    /// "rechargedesk" when it declared any promise beyond the spec, else "spec" (GET /api/v1/upstream `kind`).
    QString kind() const;
};

/// What this server saw of its upstream through real calls (GET /api/v1/upstream `state`).
struct UpstreamHealth
{
    QString state = QStringLiteral("unknown"); ///< "online", "unreachable" or "unknown" (never contacted)
    qint64 sinceMs = 0;                        ///< UTC ms when the state began; 0 unknown
    qint64 lastContactMs = 0;                  ///< UTC ms of the last HTTP answer; 0 never
    QString lastError;                         ///< the last failure in words; empty after a good call
};
