#pragma once

#include "answer.h"
#include "entities/transactionrecord.h"
#include "operatorcatalog.h"

/// Typed calls of the spec's three sale endpoints (api-v1.md 5-7); owns their routes.
class SalesApi
{
public:
    explicit SalesApi(ApiClient &api) : m_api(api) {}

    /// POST the sale `body` (the spec's fields, reference_id included) to the initiate-transaction
    /// endpoint of `kind`; the answer is the transaction record (201, or 200 for a reference_id
    /// already used with the same sale).
    TypedCall<TransactionRecord> initiate(ProductKind kind, const QJsonObject &body) const;
    /// "/api/v1/recharge/mobile/initiate-transaction", ".../dth/...", "/api/v1/voucher/appstore/...".
    static QString initiatePath(ProductKind kind);

private:
    ApiClient &m_api;
};
