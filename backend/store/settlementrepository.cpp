#include "settlementrepository.h"

#include "database.h"

void SettlementRepository::insert(const PendingSettlement &settlement)
{
    m_db.run(QStringLiteral("INSERT INTO settlements (transaction_id, due_at, final_status) VALUES (?, ?, ?)"),
             {settlement.transactionId, settlement.dueAtMs, TransactionNames::status(settlement.finalStatus)});
}

QList<PendingSettlement> SettlementRepository::due(qint64 nowMs, int limit, qint64 leaseMs)
{
    if (m_db.isPostgres())
        m_db.execute(
            QStringLiteral("SET LOCAL idle_in_transaction_session_timeout = %1").arg(qMax(qint64(1), leaseMs)));
    const QString lock = m_db.isPostgres() ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString();
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT transaction_id, due_at, final_status FROM settlements"
                                           " WHERE due_at <= ? ORDER BY due_at, transaction_id LIMIT ?") +
                                lock,
                            {nowMs, limit});
    QList<PendingSettlement> rows;
    while (q.next()) {
        rows.append({q.value(0).toLongLong(), q.value(1).toLongLong(),
                     TransactionNames::statusFromString(q.value(2).toString()).value_or(TransactionStatus::Failed)});
    }
    q.finish();
    return rows;
}

void SettlementRepository::remove(qint64 transactionId)
{
    m_db.run(QStringLiteral("DELETE FROM settlements WHERE transaction_id = ?"), {transactionId});
}

std::optional<qint64> SettlementRepository::nextDueAt()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT MIN(due_at) FROM settlements"));
    std::optional<qint64> next;
    if (q.next() && !q.value(0).isNull())
        next = q.value(0).toLongLong();
    q.finish();
    return next;
}

int SettlementRepository::count()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COUNT(*) FROM settlements"));
    const int n = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    return n;
}
