#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

/// GET /api/v1/server/tls (issue 12): whether the server speaks https, and the SHA-256 fingerprint of its
/// certificate in TlsPin::fingerprint() form for an admin to compare with the one a terminal asks to confirm.
struct TlsInfo
{
    bool tls = false;
    std::optional<QString> fingerprintSha256; ///< nullopt without TLS

    static std::optional<TlsInfo> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};
