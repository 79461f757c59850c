#include "upstreamsalerepository.h"

#include "store/database.h"

#include <QJsonValue>

namespace {
const QString kColumns = QStringLiteral("transaction_id, reference_id, state, upstream_id, attempts, next_attempt_at,"
                                        " error_code, error_description, endpoint, request_body, lease_owner,"
                                        " lease_until");

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

QJsonObject UpstreamSale::toJson() const
{
    QJsonValue error(QJsonValue::Null);
    if (state == UpstreamState::Refused || !errorCode.isEmpty())
        error = QJsonObject{{QStringLiteral("code"), errorCode}, {QStringLiteral("description"), errorDescription}};
    return QJsonObject{{QStringLiteral("state"), UpstreamStates::name(state)},
                       {QStringLiteral("reference_id"), referenceId},
                       {QStringLiteral("transaction_id"), upstreamId > 0 ? QJsonValue(upstreamId) : QJsonValue()},
                       {QStringLiteral("attempts"), attempts},
                       {QStringLiteral("error"), error}};
}

void UpstreamSaleRepository::insert(const UpstreamSale &s, qint64 nowMs)
{
    m_db.run(QStringLiteral("INSERT INTO upstream_sales (transaction_id, reference_id, state, upstream_id, attempts,"
                            " next_attempt_at, error_code, error_description, endpoint, request_body, updated_at,"
                            " lease_owner, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
             {s.transactionId, s.referenceId, UpstreamStates::name(s.state), s.upstreamId, s.attempts,
              s.nextAttemptAtMs, textValue(s.errorCode), textValue(s.errorDescription), s.endpoint,
              QString::fromUtf8(s.requestBody), nowMs, textValue(s.leaseOwner), s.leaseUntilMs});
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
    const QString set = QStringLiteral("UPDATE upstream_sales SET state = ?, upstream_id = ?, attempts = ?,"
                                       " next_attempt_at = ?, error_code = ?, error_description = ?, updated_at = ?");
    const QVariantList values{
        UpstreamStates::name(s.state), s.upstreamId, s.attempts, s.nextAttemptAtMs, textValue(s.errorCode),
        textValue(s.errorDescription), nowMs};
    if (releasedBy.isEmpty()) {
        m_db.run(set + QStringLiteral(" WHERE transaction_id = ?"), values + QVariantList{s.transactionId});
        return;
    }
    // Both CASEs see the row as it was (SQL evaluates every SET expression on the old row).
    m_db.run(set + QStringLiteral(", lease_owner = CASE WHEN lease_owner = ? THEN '' ELSE lease_owner END,"
                                  " lease_until = CASE WHEN lease_owner = ? THEN 0 ELSE lease_until END"
                                  " WHERE transaction_id = ?"),
             values + QVariantList{releasedBy, releasedBy, s.transactionId});
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
    m_db.run(QStringLiteral("UPDATE upstream_sales SET state = 'unknown', next_attempt_at = ?, updated_at = ?"
                            " WHERE state IN ('queued', 'sent') AND lease_owner IN (?, '')"),
             {nowMs, nowMs, owner});
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
