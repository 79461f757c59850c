#pragma once

#include "answer.h"
#include "entities/tlsinfo.h"

class ApiClient;

/// Typed call of GET /api/v1/server/tls (issue 12); owns the route.
class TlsApi
{
public:
    explicit TlsApi(ApiClient &api) : m_api(api) {}

    /// Whether the server speaks https and its certificate's fingerprint.
    TypedCall<TlsInfo> info() { return {m_api.get(QStringLiteral("/api/v1/server/tls")), &TlsInfo::fromJson}; }

private:
    ApiClient &m_api;
};
