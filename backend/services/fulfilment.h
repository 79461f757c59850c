#pragma once

#include "salerequest.h"

#include <QJsonObject>

#include <functional>

struct StoredTransaction;

/// What the live provider hands the client waiting on a live initiate (AsyncFulfilment::dispatch()).
struct LiveAnswer
{
    /// The sale's row as the answer's commit left it, when that answer settled the sale; null when
    /// the sale is still PENDING as the initiate wrote it.
    const StoredTransaction *settled = nullptr;
    /// The record's "upstream" object as committed; empty when the provider has none at hand (the
    /// wait timed out, a webhook ended it): the record is then read again from the database.
    QJsonObject upstream;
};

/// The client waiting on a live initiate (TransactionService -> AsyncFulfilment::dispatch()).
struct LiveWaiter
{
    /// True while the client can still be answered (not answered yet, its connection open).
    std::function<bool()> waiting;
    /// Answers the client, once; true when the record was written to its connection.
    std::function<bool(const LiveAnswer &answer)> answer;
};

/// What the fulfilment provider says of a sale at the moment it is asked.
enum class FulfilmentOutcome
{
    Success,            ///< completed at once
    Failed,             ///< refused at once (the debit is refunded)
    PendingThenSuccess, ///< accepted; completes after the settle delay
    PendingThenFailed,  ///< accepted; fails after the settle delay (refunded then)
};

/// The provider that actually recharges a phone or issues a code (docs/architecture.md, "Seams for testing").
/// The sandbox decides by the test numbers of api-conventions.md; an upstream provider for
/// live keys plugs in here.
class Fulfilment
{
public:
    virtual ~Fulfilment() = default;
    /// Decides the outcome of one validated sale. Must not block.
    virtual FulfilmentOutcome decide(const SaleRequest &sale) = 0;
};

/// Deterministic outcomes for test keys (api-conventions.md, "Sandbox outcomes"): mobile and
/// DTH numbers ending in 0000 fail, 1111 pend then succeed, 2222 pend then fail; voucher
/// e-mails containing "+failed@", "+pending@", "+pendingfail@" do the same; anything else
/// succeeds at once.
class SandboxFulfilment final : public Fulfilment
{
public:
    FulfilmentOutcome decide(const SaleRequest &sale) override;
};

/// The provider for live keys, which answers later over the network (issue 11; architecture.md,
/// "Live sales through an upstream"). TransactionService drives it in three steps: available()
/// before anything is written, enqueue() inside the sale's write transaction after the debit,
/// dispatch() after the COMMIT. The sale stays PENDING until the provider settles it through
/// SettlementService::settleOne().
class AsyncFulfilment
{
public:
    virtual ~AsyncFulfilment() = default;
    /// Throws ApiError 503 GATEWAY_ERROR `no_live_provider` (saying how to configure one) when
    /// `sale` cannot be taken live now (no upstream sells it); nothing has been written then.
    virtual void checkAvailable(const SaleRequest &sale) = 0;
    /// Records, inside the sale's write transaction, what is to be sent for the PENDING `row`
    /// (its transaction_id assigned). The record's extension object (describe()) reaches the client
    /// with the first answer (LiveAnswer::upstream). Throws DatabaseError.
    virtual void enqueue(const StoredTransaction &row, const SaleRequest &sale, qint64 nowMs) = 0;
    /// After the commit: starts sending the sale of account `accountId`. `waiter.answer` runs
    /// exactly once, on this thread, when the provider's first answer is committed or when the
    /// initiate wait is over, whichever comes first; it never runs inside dispatch(). A sale that
    /// the first answer settles while `waiter.waiting()` posts no webhook of its own when the final
    /// record reached the client in its initiate answer (api-v1.md, "States and transitions": the
    /// client never saw it PENDING), and posts it when the answer could not be delivered.
    virtual void dispatch(qint64 transactionId, qint64 accountId, LiveWaiter waiter) = 0;
    /// A client was answered `transactionId` as PENDING (a replay by reference_id while the first
    /// answer is awaited): its end is then announced by webhook like any PENDING sale's.
    virtual void pendingShown(qint64 transactionId) = 0;
    /// The record's extension object for a live sale made at `createdAtMs` (UTC ms) ("upstream" of
    /// docs/upstream-contract.md); empty when the sale has none. Throws DatabaseError.
    virtual QJsonObject describe(qint64 transactionId, qint64 createdAtMs) = 0;
};
