#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

/// An API key of the account (the `api_key` entity of GET/POST /api/v1/keys and POST /api/v1/keys/{key_id}/revoke,
/// api-conventions.md "Keys"). `mode` is "test" or "live", `scope` "pos" or "admin"; times are IST.
struct ApiKey
{
    QString keyId;
    QString name;
    QString mode;
    QString scope;
    QDateTime createdAt;
    std::optional<QDateTime> revokedAt; ///< nullopt while the key works
    std::optional<QString> secret;      ///< only in the answer that created the key; shown once

    bool isLive() const { return mode == QLatin1String("live"); }
    bool isAdmin() const { return scope == QLatin1String("admin"); }
    bool isRevoked() const { return revokedAt.has_value(); }

    /// Decodes the `api_key` entity; nullopt with `*error` naming the field when one is missing or mistyped.
    static std::optional<ApiKey> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};
