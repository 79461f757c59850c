#include "fundrequestrepository.h"

#include "store/database.h"

namespace {

const QString kSelect = QStringLiteral(
    "SELECT f.id, f.account_id, a.name, f.amount, f.method, f.utr, COALESCE(f.reference_id, ''), f.note, f.slip_type,"
    " f.state, COALESCE(f.reason, ''), COALESCE(f.decided_by, ''), COALESCE(f.decided_at, 0),"
    " COALESCE(f.ledger_id, 0), f.created_at,"
    " CASE WHEN EXISTS (SELECT 1 FROM fund_requests d WHERE d.utr = f.utr AND d.id <> f.id) THEN 1 ELSE 0 END"
    " FROM fund_requests f JOIN accounts a ON a.id = f.account_id");

/// 0 for a pending request, 1 for a decided one: every shop's list shows the pending part first.
const QString kPart = QStringLiteral("(CASE WHEN f.state = 'pending' THEN 0 ELSE 1 END)");

StoredFundRequest readRequest(const QSqlQuery &q)
{
    StoredFundRequest r;
    r.id = q.value(0).toLongLong();
    r.accountId = q.value(1).toLongLong();
    r.shopName = q.value(2).toString();
    r.amount = q.value(3).toLongLong();
    r.method = q.value(4).toString();
    r.utr = q.value(5).toString();
    r.referenceId = q.value(6).toString();
    r.note = q.value(7).toString();
    r.slipType = q.value(8).toString();
    r.state = q.value(9).toString();
    r.reason = q.value(10).toString();
    r.decidedBy = q.value(11).toString();
    r.decidedAtMs = q.value(12).toLongLong();
    r.ledgerId = q.value(13).toLongLong();
    r.createdAtMs = q.value(14).toLongLong();
    r.duplicateUtr = q.value(15).toInt() != 0;
    return r;
}

} // namespace

qint64 FundRequestRepository::insert(const StoredFundRequest &r, const QByteArray &slip)
{
    const qint64 id = m_db.insertReturningId(
        QStringLiteral("INSERT INTO fund_requests (account_id, amount, method, utr, reference_id, note, slip_type,"
                       " state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {r.accountId, r.amount, r.method, r.utr,
         r.referenceId.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(r.referenceId), textValue(r.note),
         textValue(r.slipType), r.state, r.createdAtMs});
    if (!slip.isEmpty())
        m_db.run(QStringLiteral("INSERT INTO fund_request_slips (fund_request_id, data) VALUES (?, ?)"),
                 {id, QString::fromLatin1(slip.toBase64())})
            .finish();
    return id;
}

QList<StoredFundRequest> FundRequestRepository::many(const QString &where, const QVariantList &values)
{
    QSqlQuery &q = m_db.run(kSelect + QStringLiteral(" WHERE ") + where, values);
    QList<StoredFundRequest> requests;
    while (q.next())
        requests.append(readRequest(q));
    q.finish();
    return requests;
}

std::optional<StoredFundRequest> FundRequestRepository::find(qint64 id)
{
    const QList<StoredFundRequest> found = many(QStringLiteral("f.id = ?"), {id});
    return found.isEmpty() ? std::nullopt : std::optional(found.first());
}

std::optional<StoredFundRequest> FundRequestRepository::findByReference(qint64 accountId, const QString &referenceId)
{
    const QList<StoredFundRequest> found =
        many(QStringLiteral("f.account_id = ? AND f.reference_id = ?"), {accountId, referenceId});
    return found.isEmpty() ? std::nullopt : std::optional(found.first());
}

QList<StoredFundRequest> FundRequestRepository::list(const FundRequestFilter &filter)
{
    QString where = QStringLiteral("1 = 1");
    QVariantList values;
    if (!filter.state.isEmpty()) {
        where += QStringLiteral(" AND f.state = ?");
        values << filter.state;
    }
    if (filter.accountId > 0) {
        where += QStringLiteral(" AND f.account_id = ?");
        values << filter.accountId;
        if (filter.afterId > 0) {
            where += QStringLiteral(" AND f.id < ?");
            values << filter.afterId;
        }
        where += QStringLiteral(" ORDER BY f.id DESC LIMIT ?");
    } else {
        if (filter.afterId > 0) {
            where += QStringLiteral(" AND (%1 > ? OR (%1 = ? AND f.id > ?))").arg(kPart);
            values << filter.afterPart << filter.afterPart << filter.afterId;
        }
        where += QStringLiteral(" ORDER BY %1, f.id LIMIT ?").arg(kPart);
    }
    values << filter.limit;
    return many(where, values);
}

QByteArray FundRequestRepository::slip(qint64 id)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT data FROM fund_request_slips WHERE fund_request_id = ?"), {id});
    QByteArray bytes;
    if (q.next())
        bytes = QByteArray::fromBase64(q.value(0).toString().toLatin1());
    q.finish();
    return bytes;
}

bool FundRequestRepository::decide(qint64 id, const QString &state, const QString &reason, const QString &decidedBy,
                                   qint64 nowMs)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("UPDATE fund_requests SET state = ?, reason = ?, decided_by = ?,"
                       " decided_at = ? WHERE id = ? AND state = 'pending'"),
        {state, reason.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(reason), decidedBy, nowMs, id});
    const bool done = q.numRowsAffected() > 0;
    q.finish();
    return done;
}

void FundRequestRepository::setLedgerId(qint64 id, qint64 ledgerId)
{
    m_db.run(QStringLiteral("UPDATE fund_requests SET ledger_id = ? WHERE id = ?"), {ledgerId, id}).finish();
}

qint64 FundRequestRepository::lastLiveLedgerId(qint64 accountId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT MAX(id) FROM wallet_ledger WHERE account_id = ? AND mode = 'live'"),
                            {accountId});
    const qint64 id = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return id;
}

bool FundRequestRepository::isShop(qint64 accountId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT 1 FROM shops WHERE account_id = ?"), {accountId});
    const bool shop = q.next();
    q.finish();
    return shop;
}
