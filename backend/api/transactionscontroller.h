#pragma once

#include "finalrecordcache.h"
#include "settlewaiters.h"

#include <functional>

class ApiRouter;
class ApiReply;
struct AuthContext;
class SettlementService;
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
/// from a FinalRecordCache of at most `statusCacheEntries` answers (issue 17). A status check with `wait_s=N` (1-30)
/// on a PENDING sale is a long poll: answered when the sale ends on this server or after N seconds (SettleWaiters;
/// issue 27), with the record as it is then.
class TransactionsController
{
public:
    /// `attentionCutoff` answers the instant (UTC ms) at or before which a live sale still waiting on the upstream
    /// needs attention (UpstreamDispatcher::attentionCutoffMs(); `upstream_state=attention`).
    /// `settlements` announces the sales that end on this server (the long poll's wake-up).
    TransactionsController(TransactionService &transactions, WalletService &wallets, SettlementService &settlements,
                           qsizetype statusCacheEntries, std::function<qint64()> attentionCutoff)
        : m_transactions(transactions), m_wallets(wallets), m_finalRecords(statusCacheEntries),
          m_attentionCutoff(std::move(attentionCutoff)), m_settleWaiters(settlements)
    {}
    void registerRoutes(ApiRouter &router);
    /// The status-check answers kept of finished sales (the server drops a reversed sale's, issue 29).
    FinalRecordCache &finalRecords() { return m_finalRecords; }

private:
    /// Answers the status check of sale @p id with its record as stored now (the final record cache kept in step).
    void answerStatus(const AuthContext &caller, qint64 id, const ApiReply &reply);

    TransactionService &m_transactions;
    WalletService &m_wallets;
    FinalRecordCache m_finalRecords;
    std::function<qint64()> m_attentionCutoff;
    SettleWaiters m_settleWaiters;
};
