#include "upstreamcallrepository.h"

#include "store/database.h"

void UpstreamCallRepository::insert(const UpstreamCall &c)
{
    m_db.run(QStringLiteral("INSERT INTO upstream_calls (transaction_id, at, method, endpoint, http_status, latency_ms,"
                            " error, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
             {c.transactionId, c.atMs, c.method, c.endpoint, c.httpStatus, c.latencyMs, textValue(c.error), c.outcome});
}

QList<UpstreamCall> UpstreamCallRepository::forTransaction(qint64 transactionId)
{
    QList<UpstreamCall> calls;
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT transaction_id, at, method, endpoint, http_status, latency_ms, error,"
                                " outcome FROM upstream_calls WHERE transaction_id = ? ORDER BY id"),
                 {transactionId});
    while (q.next()) {
        UpstreamCall c;
        c.transactionId = q.value(0).toLongLong();
        c.atMs = q.value(1).toLongLong();
        c.method = q.value(2).toString();
        c.endpoint = q.value(3).toString();
        c.httpStatus = q.value(4).toInt();
        c.latencyMs = q.value(5).toLongLong();
        c.error = q.value(6).toString();
        c.outcome = q.value(7).toString();
        calls.append(c);
    }
    q.finish();
    return calls;
}
