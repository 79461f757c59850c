#include "transactionsapi.h"

namespace {

QString transactionPath(qint64 transactionId, const char *tail = "")
{
    return QStringLiteral("/api/v1/transactions/%1%2").arg(transactionId).arg(QLatin1String(tail));
}

} // namespace

TypedCall<Page<TransactionRecord>> TransactionsApi::list(const TransactionQuery &query) const
{
    return {m_api.get(QStringLiteral("/api/v1/transactions"), query.toQuery()), &Page<TransactionRecord>::fromJson};
}

TypedCall<TransactionSummary> TransactionsApi::summary(const TransactionQuery &query) const
{
    TransactionQuery totals = query;
    totals.limit = 0;
    totals.cursor.clear();
    return {m_api.get(QStringLiteral("/api/v1/transactions/summary"), totals.toQuery()), &TransactionSummary::fromJson};
}

TypedCall<TransactionRecord> TransactionsApi::get(qint64 transactionId, int waitSeconds) const
{
    QUrlQuery query;
    if (waitSeconds > 0)
        query.addQueryItem(QStringLiteral("wait_s"), QString::number(waitSeconds));
    return {m_api.get(transactionPath(transactionId), query), &TransactionRecord::fromJson};
}

TypedCall<Page<LedgerEntry>> TransactionsApi::ledger(qint64 transactionId) const
{
    return {m_api.get(transactionPath(transactionId, "/ledger")), &Page<LedgerEntry>::fromJson};
}
