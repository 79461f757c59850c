#pragma once

#include "entities/transactionrecord.h"

#include <QList>

#include <optional>

class Database;

/// A PENDING transaction waiting to settle: when (UTC ms) and into which final status.
struct PendingSettlement
{
    qint64 transactionId = 0;
    qint64 dueAtMs = 0;
    TransactionStatus finalStatus = TransactionStatus::Success;
};

/// Persisted settlement timers, so a restart loses none (api-conventions.md, "Sandbox
/// outcomes"). Writes run in the caller's transaction. Throws DatabaseError.
class SettlementRepository
{
public:
    explicit SettlementRepository(Database &db) : m_db(db) {}

    void insert(const PendingSettlement &settlement);
    /// Settlements due at or before `nowMs`, earliest first, at most `limit`. On PostgreSQL the
    /// rows are locked (FOR UPDATE SKIP LOCKED) so several servers never settle one twice: the claim
    /// of the caller's transaction, which PostgreSQL ends when it stays idle `leaseMs` (a hung server).
    QList<PendingSettlement> due(qint64 nowMs, int limit, qint64 leaseMs);
    void remove(qint64 transactionId);
    /// The earliest due time of any settlement; nullopt when none is waiting.
    std::optional<qint64> nextDueAt();
    /// Number of settlements waiting.
    int count();

private:
    Database &m_db;
};
