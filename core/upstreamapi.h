#pragma once

#include "answer.h"
#include "entities/transactionrecord.h"
#include "entities/upstreaminfo.h"

/// Typed calls of the upstream settings and a live sale's upstream side (issue 11,
/// upstream-contract.md); owns their routes.
class UpstreamApi
{
public:
    explicit UpstreamApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/upstream.
    TypedCall<UpstreamInfo> get() const;
    /// PUT /api/v1/upstream (live admin) with base_url, key_id, key_secret and the optional
    /// webhook_password / webhook_secret; answers the new state.
    TypedCall<UpstreamInfo> save(const QJsonObject &settings) const;
    /// DELETE /api/v1/upstream (live admin): live sales are refused until one is set again.
    TypedCall<UpstreamInfo> clear() const;
    /// POST /api/v1/upstream/check (admin): one probe of the configured upstream.
    TypedCall<UpstreamCheck> check() const;
    /// GET /api/v1/transactions/{id}/upstream-calls (admin).
    TypedCall<UpstreamCallList> calls(qint64 transactionId) const;
    /// POST /api/v1/transactions/{id}/upstream-recheck: asks the upstream now; answers the record.
    TypedCall<TransactionRecord> recheck(qint64 transactionId) const;

private:
    ApiClient &m_api;
};
