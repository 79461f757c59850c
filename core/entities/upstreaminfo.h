#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

/// What an upstream promises beyond api-v1.md (docs/upstream-contract.md, "Kinds of upstream"): a RechargeDesk
/// upstream declares it in its OpenAPI document (`x-rechargedesk-upstream`); every other upstream promises nothing
/// more than the spec, so all of them are false.
struct UpstreamOffers
{
    bool idempotentReferenceId = false; ///< the same reference_id sent again is the same sale, never a second one
    bool statusCheck = false;           ///< GET /transactions/{transaction_id} answers a sale's record
    bool balance = false;               ///< GET /wallet answers the shop's balance there
    /// Issue 29: POST /transactions/{id}/complaints takes a complaint about its sale, GET /complaints/{id} answers how
    /// it stands, and its webhooks include `event.complaint`.
    bool complaints = false;
    bool numberLookup = false; ///< issue 29: GET /numbers/{phone_number} answers what it last sold to a number
    /// Issue 30: POST /fund-requests takes a shop's fund request (the same reference_id again is the same request),
    /// GET /fund-requests/{id} answers how it stands, and its webhooks include `event.fund_request`.
    bool fundRequests = false;

    QJsonObject toJson() const;
    /// The `x-rechargedesk-upstream` object (or the `offers` of GET /api/v1/upstream); a missing or non-true member
    /// is false.
    static UpstreamOffers fromJson(const QJsonObject &json);
    bool operator==(const UpstreamOffers &) const = default;
};

/// What GET/PUT/DELETE /api/v1/upstream answer about the server's upstream provider (issue 11,
/// upstream-contract.md): whether one is configured, its URL and key id (never a secret), its
/// state since when (UTC ms; on the wire "YYYY-MM-DD HH:MM:SS" IST, ISO 8601 also read; null when unknown), the last
/// contact and error, the path the upstream sends webhooks to and how many of the caller's sales are still unknown
/// there.
struct UpstreamInfo
{
    QString name = QStringLiteral("default"); ///< its name among the server's upstreams
    int priority = 100;                       ///< tried by priority, lowest first
    QStringList services;  ///< what it sells ("mobile", "dth", "voucher", "aadhaar", "plans"); empty: all
    QStringList operators; ///< the operator codes it sells; empty: all
    bool enabled = true;
    bool configured = false;
    QString baseUrl;          ///< empty (null on the wire) when not configured
    QString keyId;            ///< empty (null on the wire) when not configured or an opaque credential is used
    QString state;            ///< "not_configured", "unknown" (never contacted yet), "online", "unreachable"
    qint64 sinceMs = 0;       ///< 0: null
    qint64 lastContactMs = 0; ///< 0: null
    QString lastError;        ///< empty: null
    QString webhookPath;
    qint64 unknownSales = 0;
    /// "rechargedesk" (it declared what it offers) or "spec" (it promises only api-v1.md); empty (null) when not
    /// configured.
    QString kind;
    QString credential;         ///< "key_pair" or "opaque"; empty (null) when not configured
    UpstreamOffers offers;      ///< all false for a spec-only upstream
    qint64 attentionSales = 0;  ///< the caller account's live sales not ended within attentionAfterS
    qint64 attentionAfterS = 0; ///< serve --upstream-attention-after-s

    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<UpstreamInfo> fromJson(const QJsonObject &json, QString *error);
};

/// GET /api/v1/upstreams: every upstream of the server by priority (issue 26, "Several upstreams").
struct UpstreamList
{
    QList<UpstreamInfo> items;

    QJsonObject toJson() const;
    static std::optional<UpstreamList> fromJson(const QJsonObject &json, QString *error);
};

/// The answer of POST /api/v1/upstream/check: whether the upstream answered as one should.
struct UpstreamCheck
{
    bool ok = false;
    int httpStatus = 0; ///< 0: no HTTP answer (null on the wire)
    qint64 latencyMs = 0;
    QString message; ///< in words, for the settings card

    QJsonObject toJson() const;
    static std::optional<UpstreamCheck> fromJson(const QJsonObject &json, QString *error);
};

/// One call the server made to its upstream for a sale (docs/upstream-contract.md, "A live sale": the call log).
struct UpstreamCall
{
    qint64 transactionId = 0; ///< the shop's sale (not on the wire)
    qint64 atMs = 0;          ///< UTC ms when the call started; IST on the wire
    QString method;           ///< "POST" or "GET"
    QString endpoint;         ///< path under the base URL
    int httpStatus = 0;       ///< 0: no HTTP answer (null on the wire)
    qint64 latencyMs = 0;
    QString error;   ///< network error or refusal in words; empty (null on the wire) for none
    QString outcome; ///< "SUCCESS", "PENDING", "FAILED", "refused" or "unknown"

    /// The item of upstream-contract.md (times in IST, null for no status / no error).
    QJsonObject toJson() const;
    static std::optional<UpstreamCall> fromJson(const QJsonObject &json, QString *error);
};

/// GET /api/v1/transactions/{id}/upstream-calls: {items: [UpstreamCall]}, oldest first.
struct UpstreamCallList
{
    QList<UpstreamCall> items;

    QJsonObject toJson() const;
    static std::optional<UpstreamCallList> fromJson(const QJsonObject &json, QString *error);
};
