#include "transactionrepository.h"

#include "database.h"

namespace {

const QString kColumns = QStringLiteral(
    "SELECT id, account_id, mode, type, operator_code, number, bill_amount, discount, paid, customer_email, status,"
    " redeem_code, COALESCE(reference_id, ''), fingerprint, key_id, created_at FROM transactions");

StoredTransaction readRow(const QSqlQuery &q)
{
    StoredTransaction row;
    TransactionRecord &r = row.record;
    r.transactionId = q.value(0).toLongLong();
    row.accountId = q.value(1).toLongLong();
    row.mode = ModeNames::modeFromString(q.value(2).toString()).value_or(Mode::Test);
    r.type = TransactionNames::typeFromString(q.value(3).toString()).value_or(TransactionType::Mobile);
    r.operatorCode = q.value(4).toString();
    r.number = q.value(5).toString();
    r.billAmount = q.value(6).toLongLong();
    r.discount = q.value(7).toLongLong();
    r.paid = q.value(8).toLongLong();
    r.customerEmail = q.value(9).toString();
    r.status = TransactionNames::statusFromString(q.value(10).toString()).value_or(TransactionStatus::Pending);
    r.redeemCode = q.value(11).toString();
    r.referenceId = q.value(12).toString();
    row.fingerprint = q.value(13).toString();
    row.keyId = q.value(14).toString();
    r.createdAtMs = q.value(15).toLongLong();
    return row;
}

QVariant textOrNull(const QString &text)
{
    return text.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(text);
}

} // namespace

qint64 TransactionRepository::insert(const StoredTransaction &row, qint64 nowMs)
{
    const TransactionRecord &r = row.record;
    QSqlQuery &q = m_db.run(
        QStringLiteral("INSERT INTO transactions (account_id, mode, type, operator_code, number, bill_amount, discount,"
                       " paid, customer_email, status, redeem_code, reference_id, fingerprint, key_id, created_at,"
                       " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
        {row.accountId, ModeNames::mode(row.mode), TransactionNames::type(r.type), r.operatorCode, textValue(r.number),
         r.billAmount, r.discount, r.paid, textValue(r.customerEmail), TransactionNames::status(r.status),
         textValue(r.redeemCode),
         textOrNull(r.referenceId), row.fingerprint, row.keyId, r.createdAtMs, nowMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("transaction insert returned no id"));
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

std::optional<StoredTransaction> TransactionRepository::one(const QString &where, const QVariantList &values)
{
    QSqlQuery &q = m_db.run(kColumns + QStringLiteral(" WHERE ") + where, values);
    std::optional<StoredTransaction> row;
    if (q.next())
        row = readRow(q);
    q.finish();
    return row;
}

std::optional<StoredTransaction> TransactionRepository::find(qint64 accountId, Mode mode, qint64 transactionId)
{
    return one(QStringLiteral("id = ? AND account_id = ? AND mode = ?"),
               {transactionId, accountId, ModeNames::mode(mode)});
}

std::optional<StoredTransaction> TransactionRepository::findById(qint64 transactionId)
{
    return one(QStringLiteral("id = ?"), {transactionId});
}

std::optional<StoredTransaction> TransactionRepository::findByReference(qint64 accountId, const QString &referenceId)
{
    return one(QStringLiteral("account_id = ? AND reference_id = ?"), {accountId, referenceId});
}

QList<StoredTransaction> TransactionRepository::list(qint64 accountId, Mode mode, const TransactionFilter &filter)
{
    QString sql = kColumns + QStringLiteral(" WHERE account_id = ? AND mode = ?");
    QVariantList values{accountId, ModeNames::mode(mode)};
    if (filter.type) {
        sql += QStringLiteral(" AND type = ?");
        values.append(TransactionNames::type(*filter.type));
    }
    if (filter.status) {
        sql += QStringLiteral(" AND status = ?");
        values.append(TransactionNames::status(*filter.status));
    }
    if (!filter.operatorCode.isEmpty()) {
        sql += QStringLiteral(" AND operator_code = ?");
        values.append(filter.operatorCode);
    }
    if (!filter.referenceId.isEmpty()) {
        sql += QStringLiteral(" AND reference_id = ?");
        values.append(filter.referenceId);
    }
    if (filter.fromMs > 0) {
        sql += QStringLiteral(" AND created_at >= ?");
        values.append(filter.fromMs);
    }
    if (filter.toMs > 0) {
        sql += QStringLiteral(" AND created_at < ?");
        values.append(filter.toMs);
    }
    if (filter.beforeId > 0) {
        sql += QStringLiteral(" AND id < ?");
        values.append(filter.beforeId);
    }
    sql += QStringLiteral(" ORDER BY id DESC LIMIT ?");
    values.append(filter.limit);
    QSqlQuery &q = m_db.run(sql, values);
    QList<StoredTransaction> rows;
    while (q.next())
        rows.append(readRow(q));
    q.finish();
    return rows;
}

bool TransactionRepository::settle(qint64 transactionId, TransactionStatus status, const QString &redeemCode,
                                   qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE transactions SET status = ?, redeem_code = CASE WHEN ? = '' THEN"
                                           " redeem_code ELSE ? END, updated_at = ? WHERE id = ? AND status = 'PENDING'"),
                            {TransactionNames::status(status), textValue(redeemCode), textValue(redeemCode), nowMs, transactionId});
    return q.numRowsAffected() == 1;
}
