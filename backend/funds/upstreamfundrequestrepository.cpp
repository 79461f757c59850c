#include "upstreamfundrequestrepository.h"

#include "store/database.h"

#include <QUuid>

namespace {

const QString kSelect = QStringLiteral(
    "SELECT id, account_id, upstream_name, reference_id, COALESCE(remote_id, 0), amount, method, utr, note, slip_type,"
    " COALESCE(slip_data, ''), state, COALESCE(reason, ''), COALESCE(credited_at, 0), next_check_at, attempts, actor,"
    " created_at FROM upstream_fund_requests");

const QString kWaiting = QStringLiteral("state IN ('sending', 'pending')");

StoredUpstreamFundRequest readRequest(const QSqlQuery &q)
{
    StoredUpstreamFundRequest r;
    r.id = q.value(0).toLongLong();
    r.accountId = q.value(1).toLongLong();
    r.upstreamName = q.value(2).toString();
    r.referenceId = q.value(3).toString();
    r.remoteId = q.value(4).toLongLong();
    r.amount = q.value(5).toLongLong();
    r.method = q.value(6).toString();
    r.utr = q.value(7).toString();
    r.note = q.value(8).toString();
    r.slipType = q.value(9).toString();
    r.slip = QByteArray::fromBase64(q.value(10).toString().toLatin1());
    r.state = q.value(11).toString();
    r.reason = q.value(12).toString();
    r.creditedAtMs = q.value(13).toLongLong();
    r.nextCheckAtMs = q.value(14).toLongLong();
    r.attempts = q.value(15).toInt();
    r.actor = q.value(16).toString();
    r.createdAtMs = q.value(17).toLongLong();
    return r;
}

QVariant nullableText(const QString &text)
{
    return text.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(text);
}

} // namespace

bool StoredUpstreamFundRequest::isFinal() const
{
    return state != QLatin1String("sending") && state != QLatin1String("pending");
}

qint64 UpstreamFundRequestRepository::insert(const StoredUpstreamFundRequest &r, const QString &serverId, qint64 nowMs)
{
    // The reference names the row's id, known after the insert: a unique placeholder until then.
    const qint64 id = m_db.insertReturningId(
        QStringLiteral("INSERT INTO upstream_fund_requests (account_id, upstream_name, reference_id, amount, method,"
                       " utr, note, slip_type, slip_data, state, next_check_at, attempts, actor, created_at,"
                       " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {r.accountId, r.upstreamName,
         QString(QStringLiteral("fr-new-") + QUuid::createUuid().toString(QUuid::WithoutBraces)), r.amount, r.method,
         r.utr, textValue(r.note), textValue(r.slipType),
         r.slip.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(QString::fromLatin1(r.slip.toBase64())),
         r.state, r.nextCheckAtMs, r.attempts, r.actor, nowMs, nowMs});
    m_db.run(QStringLiteral("UPDATE upstream_fund_requests SET reference_id = ? WHERE id = ?"),
             {QStringLiteral("fr-%1-%2").arg(serverId).arg(id), id})
        .finish();
    return id;
}

QList<StoredUpstreamFundRequest> UpstreamFundRequestRepository::many(const QString &where, const QVariantList &values)
{
    QSqlQuery &q = m_db.run(kSelect + QStringLiteral(" WHERE ") + where, values);
    QList<StoredUpstreamFundRequest> requests;
    while (q.next())
        requests.append(readRequest(q));
    q.finish();
    return requests;
}

std::optional<StoredUpstreamFundRequest> UpstreamFundRequestRepository::one(const QString &where,
                                                                            const QVariantList &values)
{
    const QList<StoredUpstreamFundRequest> found = many(where, values);
    return found.isEmpty() ? std::nullopt : std::optional(found.first());
}

std::optional<StoredUpstreamFundRequest> UpstreamFundRequestRepository::find(qint64 id)
{
    return one(QStringLiteral("id = ?"), {id});
}

std::optional<StoredUpstreamFundRequest> UpstreamFundRequestRepository::findByRemote(const QString &upstreamName,
                                                                                     qint64 remoteId)
{
    return one(QStringLiteral("upstream_name = ? AND remote_id = ?"), {upstreamName, remoteId});
}

std::optional<StoredUpstreamFundRequest> UpstreamFundRequestRepository::findByReference(const QString &referenceId)
{
    return one(QStringLiteral("reference_id = ?"), {referenceId});
}

QList<StoredUpstreamFundRequest> UpstreamFundRequestRepository::list(qint64 accountId, const QString &upstreamName,
                                                                     int limit, qint64 beforeId)
{
    QString where = QStringLiteral("account_id = ? AND upstream_name = ?");
    QVariantList values{accountId, upstreamName};
    if (beforeId > 0) {
        where += QStringLiteral(" AND id < ?");
        values << beforeId;
    }
    values << limit;
    return many(where + QStringLiteral(" ORDER BY id DESC LIMIT ?"), values);
}

QList<StoredUpstreamFundRequest> UpstreamFundRequestRepository::notCredited(qint64 accountId,
                                                                            const QString &upstreamName)
{
    return many(QStringLiteral("account_id = ? AND upstream_name = ? AND credited_at IS NULL ORDER BY id"),
                {accountId, upstreamName});
}

bool UpstreamFundRequestRepository::updateWaiting(const StoredUpstreamFundRequest &r, qint64 nowMs)
{
    // The slip is kept only while it may have to be sent again.
    const bool taken = r.remoteId > 0 || r.state != QLatin1String("sending");
    QSqlQuery &q = m_db.run(
        QStringLiteral("UPDATE upstream_fund_requests SET state = ?, remote_id = ?, reason = ?, next_check_at = ?,"
                       " attempts = ?, updated_at = ?%1 WHERE id = ? AND %2")
            .arg(taken ? QStringLiteral(", slip_data = NULL") : QString(), kWaiting),
        {r.state, r.remoteId > 0 ? QVariant(r.remoteId) : QVariant(QMetaType(QMetaType::LongLong)),
         nullableText(r.reason), r.nextCheckAtMs, r.attempts, nowMs, r.id});
    const bool done = q.numRowsAffected() > 0;
    q.finish();
    return done;
}

bool UpstreamFundRequestRepository::markCredited(qint64 id, qint64 remoteId, qint64 nowMs)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("UPDATE upstream_fund_requests SET state = 'approved', remote_id = ?, reason = NULL,"
                                " credited_at = ?, next_check_at = 0, slip_data = NULL, updated_at = ? WHERE id = ? AND"
                                " credited_at IS NULL AND %1")
                     .arg(kWaiting),
                 {remoteId, nowMs, nowMs, id});
    const bool done = q.numRowsAffected() > 0;
    q.finish();
    return done;
}

void UpstreamFundRequestRepository::setLedgerToNewest(qint64 id, qint64 accountId)
{
    m_db.run(QStringLiteral("UPDATE upstream_fund_requests SET ledger_id = (SELECT MAX(id) FROM wallet_ledger WHERE"
                            " account_id = ? AND mode = 'live') WHERE id = ?"),
             {accountId, id})
        .finish();
}

QList<std::pair<qint64, Paise>> UpstreamFundRequestRepository::liveSales(qint64 accountId, const QString &upstreamName,
                                                                         const QString &condition)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("SELECT t.id, t.paid FROM transactions t JOIN upstream_sales u ON u.transaction_id = t.id WHERE"
                       " t.account_id = ? AND t.mode = 'live' AND u.upstream_name = ? AND (%1) ORDER BY t.id")
            .arg(condition),
        {accountId, upstreamName});
    QList<std::pair<qint64, Paise>> sales;
    while (q.next())
        sales.append({q.value(0).toLongLong(), q.value(1).toLongLong()});
    q.finish();
    return sales;
}

QList<StoredUpstreamFundRequest> UpstreamFundRequestRepository::claimDue(qint64 nowMs, int limit, qint64 leaseUntilMs)
{
    const QString lock = m_db.isPostgres() ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString();
    const QList<StoredUpstreamFundRequest> due =
        many(QStringLiteral("next_check_at > 0 AND next_check_at <= ? AND ") + kWaiting +
                 QStringLiteral(" ORDER BY next_check_at LIMIT ?") + lock,
             {nowMs, limit});
    for (const StoredUpstreamFundRequest &r : due)
        m_db.run(QStringLiteral("UPDATE upstream_fund_requests SET next_check_at = ? WHERE id = ?"),
                 {leaseUntilMs, r.id})
            .finish();
    return due;
}

std::optional<qint64> UpstreamFundRequestRepository::nextDueAt()
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT MIN(next_check_at) FROM upstream_fund_requests WHERE next_check_at > 0 AND ") +
                 kWaiting);
    std::optional<qint64> due;
    if (q.next() && !q.value(0).isNull())
        due = q.value(0).toLongLong();
    q.finish();
    return due;
}
