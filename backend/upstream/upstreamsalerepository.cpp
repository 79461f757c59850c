#include "upstreamsalerepository.h"

#include "entities/saleupstream.h"
#include "store/database.h"

#include <QJsonDocument>
#include <QJsonValue>

namespace {
const QString kColumns = QStringLiteral("transaction_id, reference_id, state, upstream_id, attempts, next_attempt_at,"
                                        " error_code, error_description, endpoint, request_body, lease_owner,"
                                        " lease_until, send_once, status_check, resolved_by, resolution_note,"
                                        " resolved_at, reversed_at, reversal_source, mismatch_reported,"
                                        " mismatch_source, mismatch_at, upstream_name, tried");

UpstreamSale read(const QSqlQuery &q)
{
    UpstreamSale s;
    s.transactionId = q.value(0).toLongLong();
    s.referenceId = q.value(1).toString();
    s.state = UpstreamStates::fromName(q.value(2).toString()).value_or(UpstreamState::Unknown);
    s.upstreamId = q.value(3).toLongLong();
    s.attempts = q.value(4).toInt();
    s.nextAttemptAtMs = q.value(5).toLongLong();
    s.errorCode = q.value(6).toString();
    s.errorDescription = q.value(7).toString();
    s.endpoint = q.value(8).toString();
    s.requestBody = q.value(9).toString().toUtf8();
    s.leaseOwner = q.value(10).toString();
    s.leaseUntilMs = q.value(11).toLongLong();
    s.sendOnce = q.value(12).toInt() != 0;
    s.statusCheck = q.value(13).toInt() != 0;
    s.resolvedBy = q.value(14).toString();
    s.resolutionNote = q.value(15).toString();
    s.resolvedAtMs = q.value(16).toLongLong();
    s.reversedAtMs = q.value(17).toLongLong();
    s.reversalSource = q.value(18).toString();
    s.mismatchReported = q.value(19).toString();
    s.mismatchSource = q.value(20).toString();
    s.mismatchAtMs = q.value(21).toLongLong();
    s.upstreamName = q.value(22).toString();
    s.tried = QJsonDocument::fromJson(q.value(23).toString().toUtf8()).array();
    return s;
}
} // namespace

QString UpstreamStates::name(UpstreamState state)
{
    switch (state) {
    case UpstreamState::Queued:
        return QStringLiteral("queued");
    case UpstreamState::Sent:
        return QStringLiteral("sent");
    case UpstreamState::Unknown:
        return QStringLiteral("unknown");
    case UpstreamState::Pending:
        return QStringLiteral("pending");
    case UpstreamState::Settled:
        return QStringLiteral("settled");
    case UpstreamState::Refused:
        return QStringLiteral("refused");
    }
    return QString();
}

std::optional<UpstreamState> UpstreamStates::fromName(const QString &name)
{
    for (UpstreamState s : {UpstreamState::Queued, UpstreamState::Sent, UpstreamState::Unknown, UpstreamState::Pending,
                            UpstreamState::Settled, UpstreamState::Refused})
        if (UpstreamStates::name(s) == name)
            return s;
    return std::nullopt;
}

bool UpstreamStates::isUnknown(UpstreamState state)
{
    return state == UpstreamState::Queued || state == UpstreamState::Sent || state == UpstreamState::Unknown;
}

bool UpstreamSale::waiting() const
{
    return UpstreamStates::isUnknown(state) || state == UpstreamState::Pending;
}

QJsonObject UpstreamSale::toJson(bool attention) const
{
    QJsonValue error(QJsonValue::Null);
    if (state == UpstreamState::Refused || !errorCode.isEmpty())
        error = QJsonObject{{QStringLiteral("code"), errorCode}, {QStringLiteral("description"), errorDescription}};
    SaleUpstream presented;
    if (!resolvedBy.isEmpty())
        presented.resolution = SaleUpstream::Resolution{resolvedBy, resolutionNote, resolvedAtMs};
    if (reversedAtMs > 0)
        presented.reversal = SaleUpstream::Reversal{reversalSource, reversedAtMs};
    if (!mismatchReported.isEmpty())
        presented.mismatch = SaleUpstream::Mismatch{mismatchReported, mismatchSource, mismatchAtMs};
    return QJsonObject{{QStringLiteral("state"), UpstreamStates::name(state)},
                       {QStringLiteral("reference_id"), referenceId},
                       {QStringLiteral("transaction_id"), upstreamId > 0 ? QJsonValue(upstreamId) : QJsonValue()},
                       {QStringLiteral("attempts"), attempts},
                       {QStringLiteral("error"), error},
                       {QStringLiteral("attention"), attention && waiting()},
                       {QStringLiteral("send_once"), sendOnce},
                       {QStringLiteral("resolution"), presented.resolutionJson()},
                       {QStringLiteral("upstream"), upstreamName},
                       {QStringLiteral("tried"), tried},
                       {QStringLiteral("reversal"), presented.reversalJson()},
                       {QStringLiteral("mismatch"), presented.mismatchJson()}};
}

void UpstreamSaleRepository::insert(const UpstreamSale &s, qint64 nowMs)
{
    m_db.run(QStringLiteral("INSERT INTO upstream_sales (transaction_id, reference_id, state, upstream_id, attempts,"
                            " next_attempt_at, error_code, error_description, endpoint, request_body, updated_at,"
                            " lease_owner, lease_until, send_once, status_check, upstream_name)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
             {s.transactionId, s.referenceId, UpstreamStates::name(s.state), s.upstreamId, s.attempts,
              s.nextAttemptAtMs, textValue(s.errorCode), textValue(s.errorDescription), s.endpoint,
              QString::fromUtf8(s.requestBody), nowMs, textValue(s.leaseOwner), s.leaseUntilMs, s.sendOnce ? 1 : 0,
              s.statusCheck ? 1 : 0, s.upstreamName});
}

std::optional<UpstreamSale> UpstreamSaleRepository::one(const QString &where, const QVariantList &values)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM upstream_sales WHERE ") + where, values);
    std::optional<UpstreamSale> sale;
    if (q.next())
        sale = read(q);
    q.finish();
    return sale;
}

std::optional<UpstreamSale> UpstreamSaleRepository::find(qint64 transactionId)
{
    return one(QStringLiteral("transaction_id = ?"), {transactionId});
}

std::optional<UpstreamSale> UpstreamSaleRepository::findByReference(const QString &referenceId)
{
    return one(QStringLiteral("reference_id = ?"), {referenceId});
}

std::optional<UpstreamSale> UpstreamSaleRepository::findByUpstreamId(qint64 upstreamId)
{
    return one(QStringLiteral("upstream_id = ? ORDER BY transaction_id LIMIT 1"), {upstreamId});
}

void UpstreamSaleRepository::update(const UpstreamSale &s, qint64 nowMs, const QString &releasedBy)
{
    write(s, nowMs, releasedBy, false);
}

bool UpstreamSaleRepository::updateWaiting(const UpstreamSale &s, qint64 nowMs, const QString &releasedBy)
{
    return write(s, nowMs, releasedBy, true);
}

bool UpstreamSaleRepository::write(const UpstreamSale &s, qint64 nowMs, const QString &releasedBy, bool whileWaiting)
{
    QString sql = QStringLiteral("UPDATE upstream_sales SET state = ?, upstream_id = ?, attempts = ?,"
                                 " next_attempt_at = ?, error_code = ?, error_description = ?, updated_at = ?");
    QVariantList values{
        UpstreamStates::name(s.state), s.upstreamId, s.attempts, s.nextAttemptAtMs, textValue(s.errorCode),
        textValue(s.errorDescription), nowMs};
    if (!releasedBy.isEmpty()) {
        // Both CASEs see the row as it was (SQL evaluates every SET expression on the old row).
        sql += QStringLiteral(", lease_owner = CASE WHEN lease_owner = ? THEN '' ELSE lease_owner END,"
                              " lease_until = CASE WHEN lease_owner = ? THEN 0 ELSE lease_until END");
        values << releasedBy << releasedBy;
    }
    sql += QStringLiteral(" WHERE transaction_id = ?");
    values << s.transactionId;
    if (whileWaiting) {
        // Not ended: every state but these two waits. Two values, so SQLite compares them instead of building a
        // table of the IN list at each run.
        sql += QStringLiteral(" AND reference_id = ? AND state NOT IN ('settled', 'refused')");
        values << s.referenceId;
    }
    return m_db.run(sql, values).numRowsAffected() > 0;
}

QList<UpstreamSale> UpstreamSaleRepository::claimDue(qint64 nowMs, int limit, const QString &owner, qint64 leaseUntilMs)
{
    const QString lock = m_db.isPostgres() ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString();
    QList<UpstreamSale> sales;
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT ") + kColumns +
                                QStringLiteral(" FROM upstream_sales WHERE state IN ('queued', 'sent', 'unknown',"
                                               " 'pending') AND next_attempt_at <= ? AND lease_until <= ?"
                                               " ORDER BY next_attempt_at LIMIT ?") +
                                lock,
                            {nowMs, nowMs, limit});
    while (q.next())
        sales.append(read(q));
    q.finish();
    for (UpstreamSale &sale : sales) {
        m_db.run(QStringLiteral("UPDATE upstream_sales SET lease_owner = ?, lease_until = ? WHERE transaction_id = ?"),
                 {owner, leaseUntilMs, sale.transactionId});
        sale.leaseOwner = owner;
        sale.leaseUntilMs = leaseUntilMs;
    }
    return sales;
}

bool UpstreamSaleRepository::claim(qint64 transactionId, qint64 nowMs, const QString &owner, qint64 leaseUntilMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE upstream_sales SET lease_owner = ?, lease_until = ?"
                                           " WHERE transaction_id = ? AND state IN ('queued', 'sent', 'unknown',"
                                           " 'pending') AND (lease_until <= ? OR lease_owner = ?)"),
                            {owner, leaseUntilMs, transactionId, nowMs, owner});
    return q.numRowsAffected() > 0;
}

std::optional<qint64> UpstreamSaleRepository::nextDueAt()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until"
                                           " ELSE next_attempt_at END) FROM upstream_sales"
                                           " WHERE state IN ('queued', 'sent', 'unknown', 'pending')"));
    std::optional<qint64> due;
    if (q.next() && !q.value(0).isNull())
        due = q.value(0).toLongLong();
    q.finish();
    return due;
}

void UpstreamSaleRepository::resumeInFlight(qint64 nowMs, const QString &owner)
{
    m_db.run(
        QStringLiteral("UPDATE upstream_sales SET state = 'unknown',"
                       " next_attempt_at = CASE WHEN send_once = 1 THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END,"
                       " updated_at = ?"
                       " WHERE state IN ('queued', 'sent') AND lease_owner IN (?, '')"),
        {UpstreamSale::kNever, nowMs, nowMs, owner});
    m_db.run(QStringLiteral("UPDATE upstream_sales SET lease_owner = '', lease_until = 0 WHERE lease_owner = ?"),
             {owner});
}

qint64 UpstreamSaleRepository::accountOf(qint64 transactionId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT account_id FROM transactions WHERE id = ?"), {transactionId});
    const qint64 account = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return account;
}

qint64 UpstreamSaleRepository::unknownCount(qint64 accountId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COUNT(*) FROM upstream_sales u JOIN transactions t ON"
                                           " t.id = u.transaction_id WHERE t.account_id = ? AND"
                                           " u.state IN ('queued', 'sent', 'unknown')"),
                            {accountId});
    const qint64 count = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return count;
}

qint64 UpstreamSaleRepository::attentionCount(qint64 accountId, qint64 createdBeforeMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COUNT(*) FROM upstream_sales u JOIN transactions t ON"
                                           " t.id = u.transaction_id WHERE t.account_id = ? AND t.created_at <= ? AND"
                                           " u.state IN ('queued', 'sent', 'unknown', 'pending')"),
                            {accountId, createdBeforeMs});
    const qint64 count = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return count;
}

void UpstreamSaleRepository::recordResolution(qint64 transactionId, const QString &by, const QString &note,
                                              qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE upstream_sales SET state = 'settled', resolved_by = ?, resolution_note = ?,"
                            " resolved_at = ?, next_attempt_at = 0, lease_owner = '', lease_until = 0, updated_at = ?"
                            " WHERE transaction_id = ?"),
             {by, note, nowMs, nowMs, transactionId});
}

void UpstreamSaleRepository::recordReversal(qint64 transactionId, const QString &source, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE upstream_sales SET reversed_at = ?, reversal_source = ?, updated_at = ?"
                            " WHERE transaction_id = ?"),
             {nowMs, source, nowMs, transactionId});
}

bool UpstreamSaleRepository::recordMismatch(qint64 transactionId, const QString &reported, const QString &source,
                                            qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE upstream_sales SET mismatch_reported = ?, mismatch_source = ?,"
                                           " mismatch_at = ?, updated_at = ? WHERE transaction_id = ? AND"
                                           " NOT (mismatch_reported = ? AND mismatch_source = ?)"),
                            {reported, source, nowMs, nowMs, transactionId, reported, source});
    return q.numRowsAffected() > 0;
}

void UpstreamSaleRepository::moveOn(const UpstreamSale &s, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE upstream_sales SET upstream_name = ?, reference_id = ?, request_body = ?,"
                            " send_once = ?, status_check = ?, tried = ?, state = 'queued', upstream_id = 0,"
                            " attempts = 0, next_attempt_at = ?, error_code = '', error_description = '',"
                            " lease_owner = '', lease_until = 0, updated_at = ? WHERE transaction_id = ?"),
             {s.upstreamName, s.referenceId, QString::fromUtf8(s.requestBody), s.sendOnce ? 1 : 0,
              s.statusCheck ? 1 : 0, QString::fromUtf8(QJsonDocument(s.tried).toJson(QJsonDocument::Compact)),
              s.nextAttemptAtMs, nowMs, s.transactionId});
}
