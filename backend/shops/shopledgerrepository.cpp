#include "shops/shopledgerrepository.h"

#include "services/settlementservice.h"
#include "store/database.h"

#include <QSqlQuery>

namespace {

/// The statement kind of a ledger row `l`, in SQL (placeholder: the reversal note).
const QString kKindSql = QStringLiteral("CASE WHEN l.kind = 'debit' THEN 'sale'"
                                        " WHEN l.kind = 'refund' AND l.note = ? THEN 'reversal'"
                                        " WHEN l.kind = 'refund' THEN 'refund'"
                                        " WHEN l.kind = 'topup' AND l.note LIKE 'fund request %' THEN 'fund_request'"
                                        " WHEN l.kind = 'topup' THEN 'topup' ELSE 'other' END");

/// The rows of the range: placeholders account, from, end.
const QString kInRange = QStringLiteral(" FROM wallet_ledger l WHERE l.account_id = ? AND l.mode = 'live'"
                                        " AND l.created_at >= ? AND l.created_at < ?");

} // namespace

Paise ShopLedgerRepository::sumBefore(qint64 accountId, qint64 beforeMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COALESCE(SUM(amount), 0) FROM wallet_ledger"
                                           " WHERE account_id = ? AND mode = 'live' AND created_at < ?"),
                            {accountId, beforeMs});
    const Paise sum = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return sum;
}

QList<ShopLedgerRepository::KindTotal> ShopLedgerRepository::totalsByKind(qint64 accountId, qint64 fromMs, qint64 endMs)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT ") + kKindSql + QStringLiteral(" AS k, COALESCE(SUM(l.amount), 0), COUNT(*)") +
                     kInRange + QStringLiteral(" GROUP BY k"),
                 {SettlementService::reversalNote(), accountId, fromMs, endMs});
    QList<KindTotal> totals;
    while (q.next())
        totals.append({q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toLongLong()});
    q.finish();
    return totals;
}

Paise ShopLedgerRepository::sumOfFirst(qint64 accountId, qint64 fromMs, qint64 endMs, qint64 count)
{
    if (count <= 0)
        return 0;
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COALESCE(SUM(amount), 0) FROM (SELECT l.amount") + kInRange +
                                QStringLiteral(" ORDER BY l.created_at, l.id LIMIT ?) x"),
                            {accountId, fromMs, endMs, count});
    const Paise sum = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return sum;
}

QList<ShopStatement::Line> ShopLedgerRepository::lines(qint64 accountId, qint64 fromMs, qint64 endMs, qint64 limit,
                                                       qint64 offset)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("SELECT l.id, l.created_at, ") + kKindSql +
            QStringLiteral(", l.amount, l.transaction_id, l.note, l.actor, t.number, t.operator_code, t.reference_id"
                           " FROM wallet_ledger l LEFT JOIN transactions t ON t.id = l.transaction_id"
                           " WHERE l.account_id = ? AND l.mode = 'live' AND l.created_at >= ? AND l.created_at < ?"
                           " ORDER BY l.created_at, l.id LIMIT ? OFFSET ?"),
        {SettlementService::reversalNote(), accountId, fromMs, endMs, limit, offset});
    QList<ShopStatement::Line> rows;
    while (q.next()) {
        ShopStatement::Line line;
        line.id = q.value(0).toLongLong();
        line.at = QDateTime::fromMSecsSinceEpoch(q.value(1).toLongLong(), Qt::UTC);
        line.kind = q.value(2).toString();
        line.amount = q.value(3).toLongLong();
        line.transactionId = q.value(4).isNull() ? 0 : q.value(4).toLongLong();
        line.note = q.value(5).toString();
        line.actor = q.value(6).toString();
        line.number = q.value(7).toString();
        line.operatorCode = q.value(8).toString();
        line.reference = q.value(9).toString();
        rows.append(line);
    }
    q.finish();
    return rows;
}
