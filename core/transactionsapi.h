#pragma once

#include "answer.h"
#include "entities/ledgerentry.h"
#include "entities/page.h"
#include "entities/transactionquery.h"
#include "entities/transactionrecord.h"
#include "entities/transactionsummary.h"

/// Typed calls of the transaction reads (api-conventions.md "Beyond the spec"); owns their
/// routes. Every answer decodes strictly: a bad answer is an error, never a zero.
class TransactionsApi
{
public:
    explicit TransactionsApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/transactions: one page of the caller's transactions matching `query`.
    TypedCall<Page<TransactionRecord>> list(const TransactionQuery &query) const;
    /// GET /api/v1/transactions/summary: counts and sums over `query` (limit and cursor ignored).
    TypedCall<TransactionSummary> summary(const TransactionQuery &query) const;
    /// GET /api/v1/transactions/{id}: the spec's transaction status check (api-v1.md 8). With `waitSeconds` (1-30)
    /// a long poll: a PENDING sale is answered when it ends on the server or after that many seconds (issue 27).
    TypedCall<TransactionRecord> get(qint64 transactionId, int waitSeconds = 0) const;
    /// GET /api/v1/transactions/{id}/ledger (admin): the wallet rows of one sale.
    TypedCall<Page<LedgerEntry>> ledger(qint64 transactionId) const;

private:
    ApiClient &m_api;
};
