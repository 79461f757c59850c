#pragma once

#include "finalrecordcache.h"

#include <functional>

class ApiRouter;
class TransactionService;
class WalletService;

/// Beyond the spec (api-conventions.md): GET /api/v1/transactions/{transaction_id} (status
/// check, the same record as initiate) and GET /api/v1/transactions (filters type, status,
/// operator, reference_id, from, to as IST "YYYY-MM-DD[ HH:MM:SS]", q (id or number/reference
/// prefix), sort newest|oldest|amount_desc|amount_asc, limit 1-200, cursor), answering
/// {"entity": "collection", "count", "items", "next_cursor"}, and upstream_state=unknown|attention (live sales
/// still unknown at the upstream; those waiting past serve --upstream-attention-after-s, issue 26); GET
/// /api/v1/transactions/summary (count and SUCCESS money sums for the same filters); GET
/// /api/v1/transactions/{id}/ledger (admin: the wallet rows of one sale). Status checks of finished sales are answered
/// from a FinalRecordCache of at most `statusCacheEntries` answers (issue 17).
class TransactionsController
{
public:
    /// `attentionCutoff` answers the instant (UTC ms) at or before which a live sale still waiting on the upstream
    /// needs attention (UpstreamDispatcher::attentionCutoffMs(); `upstream_state=attention`).
    TransactionsController(TransactionService &transactions, WalletService &wallets, qsizetype statusCacheEntries,
                           std::function<qint64()> attentionCutoff)
        : m_transactions(transactions), m_wallets(wallets), m_finalRecords(statusCacheEntries),
          m_attentionCutoff(std::move(attentionCutoff))
    {}
    void registerRoutes(ApiRouter &router);

private:
    TransactionService &m_transactions;
    WalletService &m_wallets;
    FinalRecordCache m_finalRecords;
    std::function<qint64()> m_attentionCutoff;
};
