#include "serverapi.h"

TypedCall<ServerTls> ServerApi::tls() const
{
    return {m_api.get(QStringLiteral("/api/v1/server/tls")), &ServerTls::fromJson};
}

TypedCall<BackupStatus> ServerApi::backup() const
{
    return {m_api.get(QStringLiteral("/api/v1/server/backup")), &BackupStatus::fromJson};
}

TypedCall<ShopSetupResult> ServerApi::setUp(const ShopSetupRequest &request, const QByteArray &setupToken) const
{
    return {m_api.post(QStringLiteral("/api/v1/setup"), request.toJson(), {{"X-Setup-Token", setupToken}}),
            &ShopSetupResult::fromJson};
}
