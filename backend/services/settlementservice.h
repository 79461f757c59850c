#pragma once

#include "store/transactionrepository.h"

#include <QObject>
#include <QTimer>

#include <functional>

class Clock;
class Database;

/// Moves PENDING transactions to their final status when their persisted settlement timer is
/// due (api-v1.md, "States and transitions"): one database transaction per round sets the
/// status, refunds a FAILED sale's `paid` to the wallet, issues a voucher's redeem code, and
/// lets the status listener write the webhook outbox row. Timers live in the database, so a
/// restart picks them up (start()).
///
/// Several servers on one database (issue 16): each claims the due rows it settles with a row lock
/// (FOR UPDATE SKIP LOCKED) held by its settling transaction, so each timer runs once; a server that
/// dies mid-round loses its locks with its session (PostgreSQL ends a session idle in that transaction
/// after the lease time). Every server looks at the shared table at least three times per lease time,
/// so a timer written by a server that died is run by another within the lease time of being due.
class SettlementService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettlementService)

public:
    /// Called inside the settling transaction for every transaction that left PENDING, with
    /// its final record (operatorName empty). Throwing rolls the round back.
    using StatusListener = std::function<void(const StoredTransaction &settled)>;
    /// The note of the refund row reverseOne() writes (a SUCCESS sale reversed: by its upstream or a credited
    /// complaint); statements class such rows `reversal` (issue 30).
    static QString reversalNote() { return QStringLiteral("refund of a sale the upstream reversed"); }

    /// `leaseMs`: the lease time of ServerOptions::leaseMs (ms).
    SettlementService(Database &db, const Clock &clock, qint64 leaseMs = 30'000, QObject *parent = nullptr);

    /// Settles what is already due and arms the timer for the next settlement in the database.
    void start();
    /// Makes sure the timer fires no later than `dueAtMs` (UTC ms).
    void scheduleAt(qint64 dueAtMs);
    /// Settles every settlement due now that no other server is settling; returns how many transactions
    /// changed status. Throws DatabaseError (nothing of the failing round is written; the timer retries).
    int settleDue();
    void setStatusListener(StatusListener listener) { m_listener = std::move(listener); }

    /// Settles one PENDING transaction to `status` inside the caller's open write transaction:
    /// the guarded status change (only from PENDING, so exactly once), a FAILED sale's refund of
    /// `paid`, a SUCCESS voucher's redeem code (`redeemCode`, or a new one when empty) and the
    /// status listener's webhook outbox row. Used by the sandbox timers and by the upstream.
    /// Returns false (and writes nothing) when the transaction is unknown or no longer PENDING.
    /// The caller commits, then calls announce(). Throws DatabaseError.
    /// `settled` (may be null) receives the final row. `webhook` false leaves out the outbox row:
    /// only for a live sale whose final record goes to its client in the initiate answer (the
    /// caller calls notify() in a later write when that answer could not be delivered). `pending`
    /// (may be null): the PENDING row as its sale wrote it, so it need not be read again (the
    /// status change stays guarded by the database). A FAILED end with `webhook` true reached the client after
    /// it was shown PENDING: it is stored and reported as failed_after_pending (issue 27: the customer had paid).
    bool settleOne(qint64 transactionId, TransactionStatus status, const QString &redeemCode, qint64 nowMs,
                   StoredTransaction *settled = nullptr, bool webhook = true,
                   const StoredTransaction *pending = nullptr);
    /// Reverses one SUCCESS transaction inside the caller's open write transaction (issue 26: the upstream reported
    /// FAILED after it had reported SUCCESS; api-conventions.md "Leaving SUCCESS or FAILED"): the guarded change to
    /// FAILED (only from SUCCESS, so exactly once, marked failed_after_pending), the refund of `paid` (a Refund ledger
    /// row) and the webhook outbox row with the FAILED record. False (nothing written) when it is not SUCCESS. The
    /// caller commits, then calls announce(). Throws DatabaseError.
    bool reverseOne(qint64 transactionId, qint64 nowMs, StoredTransaction *reversed = nullptr);
    /// Writes, inside the caller's write transaction, the webhook outbox row of a sale settled with
    /// settleOne(…, webhook = false) whose final record did not reach its client. Throws DatabaseError.
    void notify(const StoredTransaction &settled);
    /// After the commit of a settleOne(): emits settled() (wakes the webhook dispatcher).
    void announce(qint64 transactionId) { emit settled(transactionId); }

signals:
    /// Emitted after the commit for each settled transaction.
    void settled(qint64 transactionId);

private:
    void onTimer();
    void armForNext();

    Database &m_db;
    const Clock &m_clock;
    qint64 m_leaseMs;
    QTimer m_timer;
    qint64 m_armedForMs = 0;
    StatusListener m_listener;
};
