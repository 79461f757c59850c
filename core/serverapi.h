#pragma once

#include "answer.h"
#include "entities/backupstatus.h"
#include "entities/servertls.h"
#include "entities/shopsetupresult.h"

/// Typed calls about the server itself; owns their routes.
class ServerApi
{
public:
    explicit ServerApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/server/tls.
    TypedCall<ServerTls> tls() const;
    /// GET /api/v1/server/backup (admin): the nightly backup's state.
    TypedCall<BackupStatus> backup() const;
    /// POST /api/v1/setup with the X-Setup-Token header (`setupToken`, the terminal's first run; loopback only):
    /// the shop and its first admin; 403 `setup_not_allowed`, 409 `already_set_up`, 400 naming a bad field.
    TypedCall<ShopSetupResult> setUp(const ShopSetupRequest &request, const QByteArray &setupToken) const;

private:
    ApiClient &m_api;
};
