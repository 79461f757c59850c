#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

/// GET /api/v1/server/tls (issue 12): whether the shop server speaks TLS and the SHA-256
/// fingerprint of its certificate (TlsPin::fingerprint() form) that terminals confirm.
struct ServerTls
{
    bool tls = false;
    QString fingerprint; ///< empty (null on the wire) without TLS

    /// {tls, fingerprint_sha256 (null without TLS)}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<ServerTls> fromJson(const QJsonObject &json, QString *error);
};
