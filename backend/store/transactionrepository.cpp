#include "transactionrepository.h"

#include "database.h"

namespace {

const QString kColumns = QStringLiteral(
    "SELECT id, account_id, mode, type, operator_code, number, bill_amount, discount, paid, customer_email, status,"
    " redeem_code, COALESCE(reference_id, ''), fingerprint, key_id, created_at, clerk FROM transactions");

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
    row.clerk = q.value(16).toString();
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
                       " updated_at, clerk) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
        {row.accountId, ModeNames::mode(row.mode), TransactionNames::type(r.type), r.operatorCode, textValue(r.number),
         r.billAmount, r.discount, r.paid, textValue(r.customerEmail), TransactionNames::status(r.status),
         textValue(r.redeemCode),
         textOrNull(r.referenceId), row.fingerprint, row.keyId, r.createdAtMs, nowMs, textValue(row.clerk)});
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

QString TransactionRepository::conditions(const TransactionFilter &filter, QVariantList *values)
{
    QString sql;
    if (filter.type) {
        sql += QStringLiteral(" AND type = ?");
        values->append(TransactionNames::type(*filter.type));
    }
    if (filter.status) {
        sql += QStringLiteral(" AND status = ?");
        values->append(TransactionNames::status(*filter.status));
    }
    if (!filter.operatorCode.isEmpty()) {
        sql += QStringLiteral(" AND operator_code = ?");
        values->append(filter.operatorCode);
    }
    if (!filter.referenceId.isEmpty()) {
        sql += QStringLiteral(" AND reference_id = ?");
        values->append(filter.referenceId);
    }
    if (filter.fromMs > 0) {
        sql += QStringLiteral(" AND created_at >= ?");
        values->append(filter.fromMs);
    }
    if (filter.toMs > 0) {
        sql += QStringLiteral(" AND created_at < ?");
        values->append(filter.toMs);
    }
    if (!filter.search.isEmpty()) {
        // Prefix matches keep the number and reference indexes usable; '%' and '_' are escaped.
        QString pattern = filter.search;
        pattern.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
            .replace(QLatin1Char('%'), QLatin1String("\\%"))
            .replace(QLatin1Char('_'), QLatin1String("\\_"));
        pattern += QLatin1Char('%');
        bool isNumber = false;
        const qint64 id = filter.search.toLongLong(&isNumber);
        sql += QStringLiteral(" AND (id = ? OR number LIKE ? ESCAPE '\\' OR reference_id LIKE ? ESCAPE '\\')");
        values->append(isNumber ? id : qint64(-1));
        values->append(pattern);
        values->append(pattern);
    }
    return sql;
}

QList<StoredTransaction> TransactionRepository::list(qint64 accountId, Mode mode, const TransactionFilter &filter)
{
    QVariantList values{accountId, ModeNames::mode(mode)};
    QString sql = kColumns + QStringLiteral(" WHERE account_id = ? AND mode = ?") + conditions(filter, &values);
    using Order = TransactionFilter::Order;
    const bool cursor = filter.afterId > 0;
    switch (filter.order) {
    // Date orders walk the (account_id, mode, created_at, id) index, so a page inside a date range
    // reads only its rows instead of sorting the whole range (measured at 1M rows: 1.1 s -> ~0 s).
    case Order::NewestFirst:
        if (cursor) {
            sql += QStringLiteral(" AND (created_at < ? OR (created_at = ? AND id < ?))");
            values << filter.afterCreatedAt << filter.afterCreatedAt << filter.afterId;
        }
        sql += QStringLiteral(" ORDER BY created_at DESC, id DESC");
        break;
    case Order::OldestFirst:
        if (cursor) {
            sql += QStringLiteral(" AND (created_at > ? OR (created_at = ? AND id > ?))");
            values << filter.afterCreatedAt << filter.afterCreatedAt << filter.afterId;
        }
        sql += QStringLiteral(" ORDER BY created_at ASC, id ASC");
        break;
    case Order::AmountHighFirst:
        if (cursor) {
            sql += QStringLiteral(" AND (bill_amount < ? OR (bill_amount = ? AND id < ?))");
            values << filter.afterAmount << filter.afterAmount << filter.afterId;
        }
        sql += QStringLiteral(" ORDER BY bill_amount DESC, id DESC");
        break;
    case Order::AmountLowFirst:
        if (cursor) {
            sql += QStringLiteral(" AND (bill_amount > ? OR (bill_amount = ? AND id > ?))");
            values << filter.afterAmount << filter.afterAmount << filter.afterId;
        }
        sql += QStringLiteral(" ORDER BY bill_amount ASC, id ASC");
        break;
    }
    sql += QStringLiteral(" LIMIT ?");
    values.append(filter.limit);
    QSqlQuery &q = m_db.run(sql, values);
    QList<StoredTransaction> rows;
    while (q.next())
        rows.append(readRow(q));
    q.finish();
    return rows;
}

TransactionTotals TransactionRepository::totals(qint64 accountId, Mode mode, const TransactionFilter &filter)
{
    QVariantList values{accountId, ModeNames::mode(mode)};
    const QString sql =
        QStringLiteral("SELECT COUNT(*),"
                       " COALESCE(SUM(CASE WHEN status = 'SUCCESS' THEN 1 ELSE 0 END), 0),"
                       " COALESCE(SUM(CASE WHEN status = 'PENDING' THEN 1 ELSE 0 END), 0),"
                       " COALESCE(SUM(CASE WHEN status = 'FAILED' THEN 1 ELSE 0 END), 0),"
                       " COALESCE(SUM(CASE WHEN status = 'SUCCESS' THEN bill_amount ELSE 0 END), 0),"
                       " COALESCE(SUM(CASE WHEN status = 'SUCCESS' THEN discount ELSE 0 END), 0),"
                       " COALESCE(SUM(CASE WHEN status = 'SUCCESS' THEN paid ELSE 0 END), 0)"
                       " FROM transactions WHERE account_id = ? AND mode = ?") +
        conditions(filter, &values);
    QSqlQuery &q = m_db.run(sql, values);
    TransactionTotals totals;
    if (q.next()) {
        totals.count = q.value(0).toLongLong();
        totals.success = q.value(1).toLongLong();
        totals.pending = q.value(2).toLongLong();
        totals.failed = q.value(3).toLongLong();
        totals.billAmount = q.value(4).toLongLong();
        totals.discount = q.value(5).toLongLong();
        totals.paid = q.value(6).toLongLong();
    }
    q.finish();
    return totals;
}

bool TransactionRepository::settle(qint64 transactionId, TransactionStatus status, const QString &redeemCode,
                                   qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE transactions SET status = ?, redeem_code = CASE WHEN ? = '' THEN"
                                           " redeem_code ELSE ? END, updated_at = ? WHERE id = ? AND status = 'PENDING'"),
                            {TransactionNames::status(status), textValue(redeemCode), textValue(redeemCode), nowMs, transactionId});
    return q.numRowsAffected() == 1;
}
