#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/// What GET/PUT/DELETE /api/v1/upstream answer about the server's upstream provider (issue 11,
/// upstream-contract.md): whether one is configured, its URL and key id (never a secret), its
/// state since when (UTC ms; on the wire "YYYY-MM-DD HH:MM:SS" IST, ISO 8601 also read; null when unknown), the last
/// contact and error, the path the upstream sends webhooks to and how many of the caller's sales are still unknown
/// there.
struct UpstreamInfo
{
    bool configured = false;
    QString baseUrl;          ///< empty (null on the wire) when not configured
    QString keyId;            ///< empty (null on the wire) when not configured
    QString state;            ///< "not_configured", "unknown" (never contacted yet), "online", "unreachable"
    qint64 sinceMs = 0;       ///< 0: null
    qint64 lastContactMs = 0; ///< 0: null
    QString lastError;        ///< empty: null
    QString webhookPath;
    qint64 unknownSales = 0;

    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<UpstreamInfo> fromJson(const QJsonObject &json, QString *error);
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

/// One call the server made to its upstream for a sale (upstream-contract.md, "Call log").
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
