#pragma once

#include "auth/authcontext.h"
#include "salerequest.h"
#include "store/transactionrepository.h"

#include <QObject>

#include <exception>
#include <functional>

class ApiError;
class Clock;
class CommitBatcher;
class Database;
class AsyncFulfilment;
class Fulfilment;
class OperatorCatalog;
class SaleTerms;
class SettlementService;

/// Sells recharges and vouchers (api-v1.md endpoints 5, 6, 7) and reads them back.
/// One sale is one grouped-commit write: idempotency check on reference_id, wallet debit of
/// `paid`, the transaction row, and the settlement timer or refund its outcome needs — all or
/// nothing (docs/architecture.md, "The request path (one mobile sale)").
class TransactionService
{
public:
    /// Answer to initiate: the record, or the error (ApiError, or anything else for a server
    /// fault). Returns true when the answer was written to the client (false: the client left).
    using InitiateCallback = std::function<bool(const TransactionRecord *record, std::exception_ptr error)>;
    /// True while the client of an initiate can still be answered (its connection open).
    using ClientWaiting = std::function<bool()>;

    /// `liveFulfilment` (the upstream, issue 11) may be null: live keys then get 503 GATEWAY_ERROR.
    /// `terms` gives the account's discount rate and sandbox settle delay at sale time.
    TransactionService(Database &db, CommitBatcher &batcher, const OperatorCatalog &catalog, Fulfilment &sandbox,
                       AsyncFulfilment *liveFulfilment, SettlementService &settlements, const Clock &clock,
                       const SaleTerms &terms);

    /// Starts a sale for `caller`. Validated already (SaleRequest::decode*). The callback runs
    /// once the outcome is durable; for a new live sale, once the upstream first answered or the
    /// upstream wait (ServerOptions::upstreamTimeoutMs) is over, with the record as it then is.
    /// Errors: 402 insufficient wallet, 409 reference_id reused with another body, 409 `no_open_shift` (issue 28:
    /// the shop sells in shifts and the caller's person has none open; nothing written), 503 no live
    /// provider (thrown at once, before anything is written). The sale keeps the request's tender and is
    /// attached to the caller's person's open shift when there is one. `waiting` (may be empty: never
    /// known to wait) tells a live sale's provider whether the final record can still go to the
    /// client in this answer, in which case the sale posts no webhook of its own (AsyncFulfilment).
    void initiate(const AuthContext &caller, const SaleRequest &sale, InitiateCallback done,
                  ClientWaiting waiting = {});

    /// The caller's transaction; ApiError 404 if it does not exist for the caller's account and mode.
    TransactionRecord get(const AuthContext &caller, qint64 transactionId);
    /// The caller's transaction as get() presents it, read through `reader`: another connection to this server's
    /// database, on another thread (an HTTP worker's, issue 17). Nothing when the caller has no such transaction or
    /// it is a live sale (its `upstream` object is read on the server thread: get()). Thread-safe: it touches
    /// only `reader` and the immutable operator catalog. Throws DatabaseError.
    std::optional<TransactionRecord> getThrough(Database &reader, const AuthContext &caller,
                                                qint64 transactionId) const;
    /// The caller's transactions, newest first (GET /api/v1/transactions).
    QList<TransactionRecord> list(const AuthContext &caller, const TransactionFilter &filter);
    /// Count and SUCCESS sums of the caller's transactions matching `filter`.
    TransactionTotals totals(const AuthContext &caller, const TransactionFilter &filter);

    /// Fills operatorName from the catalog, and a live upstream sale's "upstream" extension.
    TransactionRecord present(const StoredTransaction &row) const;
    /// A voucher redeem code: four groups of four characters from an unambiguous alphabet
    /// (no 0/O, 1/I/L), joined by hyphens, from the system CSPRNG.
    static QString newRedeemCode();

private:
    struct WriteResult
    {
        TransactionRecord record;
        qint64 settleAtMs = 0;     ///< > 0 when a settlement timer was written
        bool dispatchLive = false; ///< a new live sale: hand it to the live fulfilment after the commit
    };
    /// The body of one sale inside the batch savepoint. Throws ApiError or DatabaseError.
    WriteResult write(const AuthContext &caller, const SaleRequest &sale);
    /// The id of the caller's person's open shift (0: none); 409 `no_open_shift` when the shop requires one.
    qint64 shiftOf(const AuthContext &caller);
    /// Queues write() on the batcher; a write that lost a race to another server (duplicate reference_id,
    /// PostgreSQL deadlock or serialization failure) runs again in a later batch, up to `retriesLeft` times.
    void submit(const AuthContext &caller, const SaleRequest &sale, InitiateCallback done, ClientWaiting waiting,
                int retriesLeft);
    /// Hands a new live sale to the live fulfilment; `done` gets its first answer.
    void dispatchLive(const AuthContext &caller, const TransactionRecord &pending, InitiateCallback done,
                      ClientWaiting waiting);
    /// The stored record with its operator's name from the catalog (no "upstream" object).
    TransactionRecord named(const TransactionRecord &stored) const;
    static constexpr int kMaxRetries = 5;

    Database &m_db;
    CommitBatcher &m_batcher;
    const OperatorCatalog &m_catalog;
    Fulfilment &m_sandbox;
    AsyncFulfilment *m_live;
    SettlementService &m_settlements;
    const Clock &m_clock;
    const SaleTerms &m_terms;
};
