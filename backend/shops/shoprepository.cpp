#include "shops/shoprepository.h"

#include "shops/shopservice.h"
#include "store/database.h"

#include <QSqlQuery>

namespace {

/// The shop columns, the live wallet and today's totals; `?` = the IST day.
const QString kSelect = QStringLiteral(
    "SELECT a.id, a.name, s.owner, s.mobile, s.circle_code, s.gstin, s.state, s.suspended_reason, s.suspended_at,"
    " COALESCE(w.balance, 0), s.credit_limit, s.last_contact_at, s.created_at,"
    " COALESCE(t.sales, 0), COALESCE(t.success, 0), COALESCE(t.failed, 0), COALESCE(t.pending, 0), COALESCE(t.sold, 0)"
    " FROM shops s JOIN accounts a ON a.id = s.account_id"
    " LEFT JOIN wallets w ON w.account_id = s.account_id AND w.mode = 'live'"
    " LEFT JOIN (SELECT account_id, SUM(tx_count) AS sales,"
    " SUM(CASE WHEN status = 'SUCCESS' THEN tx_count ELSE 0 END) AS success,"
    " SUM(CASE WHEN status = 'FAILED' THEN tx_count ELSE 0 END) AS failed,"
    " SUM(CASE WHEN status = 'PENDING' THEN tx_count ELSE 0 END) AS pending,"
    " SUM(CASE WHEN status = 'SUCCESS' THEN bill_amount ELSE 0 END) AS sold"
    " FROM daily_totals WHERE mode = 'live' AND ist_day = ? GROUP BY account_id) t ON t.account_id = s.account_id");

/// The filter of a list query; appends its values to `values`.
QString where(const ShopListQuery &query, QVariantList &values)
{
    QString sql = QStringLiteral(" WHERE 1 = 1");
    if (!query.state.isEmpty()) {
        sql += QStringLiteral(" AND s.state = ?");
        values << query.state;
    }
    if (!query.search.isEmpty()) {
        QString escaped = query.search.toLower();
        escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('%'), QStringLiteral("\\%"))
            .replace(QLatin1Char('_'), QStringLiteral("\\_"));
        const QString pattern = QLatin1Char('%') + escaped + QLatin1Char('%');
        sql += QStringLiteral(" AND (lower(a.name) LIKE ? ESCAPE '\\' OR lower(s.owner) LIKE ? ESCAPE '\\'"
                              " OR s.mobile LIKE ? ESCAPE '\\' OR lower(s.gstin) LIKE ? ESCAPE '\\')");
        values << pattern << pattern << pattern << pattern;
    }
    return sql;
}

/// The ORDER BY of a list query (sort names checked by ShopService); ties by account id.
QString orderBy(const ShopListQuery &query)
{
    const QString direction = query.descending ? QStringLiteral(" DESC") : QStringLiteral(" ASC");
    QString key;
    if (query.sort == QLatin1String("balance"))
        key = QStringLiteral("COALESCE(w.balance, 0)");
    else if (query.sort == QLatin1String("sales"))
        key = QStringLiteral("COALESCE(t.sales, 0)");
    else if (query.sort == QLatin1String("success_rate"))
        key = QStringLiteral("CASE WHEN COALESCE(t.success, 0) + COALESCE(t.failed, 0) = 0 THEN -1"
                             " ELSE 1000 * t.success / (t.success + t.failed) END");
    else if (query.sort == QLatin1String("last_contact"))
        key = QStringLiteral("COALESCE(s.last_contact_at, 0)");
    else if (query.sort == QLatin1String("state"))
        key = QStringLiteral("s.state");
    else
        key = QStringLiteral("lower(a.name)");
    return QStringLiteral(" ORDER BY ") + key + direction + QStringLiteral(", a.id") + direction;
}

Shop readShop(const QSqlQuery &q)
{
    Shop shop;
    shop.id = q.value(0).toLongLong();
    shop.name = q.value(1).toString();
    shop.owner = q.value(2).toString();
    shop.mobile = q.value(3).toString();
    shop.circleCode = q.value(4).toString();
    shop.gstin = q.value(5).toString();
    shop.state = q.value(6).toString();
    shop.suspendedReason = q.value(7).isNull() ? QString() : q.value(7).toString();
    if (!q.value(8).isNull())
        shop.suspendedAt = QDateTime::fromMSecsSinceEpoch(q.value(8).toLongLong(), Qt::UTC);
    shop.balance = q.value(9).toLongLong();
    shop.creditLimit = q.value(10).toLongLong();
    if (!q.value(11).isNull())
        shop.lastContactAt = QDateTime::fromMSecsSinceEpoch(q.value(11).toLongLong(), Qt::UTC);
    shop.createdAt = QDateTime::fromMSecsSinceEpoch(q.value(12).toLongLong(), Qt::UTC);
    shop.today.sales = q.value(13).toLongLong();
    shop.today.success = q.value(14).toLongLong();
    shop.today.failed = q.value(15).toLongLong();
    shop.today.pending = q.value(16).toLongLong();
    shop.today.sold = q.value(17).toLongLong();
    return shop;
}

} // namespace

void ShopRepository::insertBlank(qint64 accountId, const QString &createdBy, qint64 nowMs)
{
    m_db.run(QStringLiteral("INSERT INTO shops (account_id, state, created_by, created_at, updated_at)"
                            " VALUES (?, 'active', ?, ?, ?)"),
             {accountId, textValue(createdBy), nowMs, nowMs});
}

void ShopRepository::updateDetails(qint64 accountId, const QString &owner, const QString &mobile,
                                   const QString &circleCode, const QString &gstin, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE shops SET owner = ?, mobile = ?, circle_code = ?, gstin = ?, updated_at = ?"
                            " WHERE account_id = ?"),
             {textValue(owner), textValue(mobile), textValue(circleCode), textValue(gstin), nowMs, accountId});
}

void ShopRepository::setCreatedBy(qint64 accountId, const QString &actor)
{
    m_db.run(QStringLiteral("UPDATE shops SET created_by = ? WHERE account_id = ?"), {textValue(actor), accountId});
}

void ShopRepository::setCreditLimit(qint64 accountId, Paise creditLimit, qint64 nowMs)
{
    m_db.run(QStringLiteral("UPDATE shops SET credit_limit = ?, updated_at = ? WHERE account_id = ?"),
             {creditLimit, nowMs, accountId});
}

bool ShopRepository::setSuspended(qint64 accountId, const QString &reason, qint64 nowMs)
{
    QSqlQuery &q =
        reason.isEmpty()
            ? m_db.run(QStringLiteral("UPDATE shops SET state = 'active', suspended_reason = NULL, suspended_at = NULL,"
                                      " updated_at = ? WHERE account_id = ? AND state = 'suspended'"),
                       {nowMs, accountId})
            : m_db.run(QStringLiteral("UPDATE shops SET state = 'suspended', suspended_reason = ?, suspended_at = ?,"
                                      " updated_at = ? WHERE account_id = ? AND state = 'active'"),
                       {reason, nowMs, nowMs, accountId});
    return q.numRowsAffected() == 1;
}

void ShopRepository::touchContact(qint64 accountId, qint64 atMs)
{
    m_db.run(QStringLiteral("UPDATE shops SET last_contact_at = ? WHERE account_id = ?"
                            " AND (last_contact_at IS NULL OR last_contact_at < ?)"),
             {atMs, accountId, atMs});
}

std::optional<QString> ShopRepository::state(qint64 accountId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT state FROM shops WHERE account_id = ?"), {accountId});
    std::optional<QString> state;
    if (q.next())
        state = q.value(0).toString();
    q.finish();
    return state;
}

Paise ShopRepository::creditLimit(qint64 accountId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT credit_limit FROM shops WHERE account_id = ?"), {accountId});
    const Paise limit = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return limit;
}

std::optional<qint64> ShopRepository::idByName(const QString &name)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("SELECT s.account_id FROM shops s JOIN accounts a ON a.id = s.account_id WHERE a.name = ?"),
        {name});
    std::optional<qint64> id;
    if (q.next())
        id = q.value(0).toLongLong();
    q.finish();
    return id;
}

QList<Shop> ShopRepository::list(const ShopListQuery &query, qint64 istDay)
{
    QVariantList values{istDay};
    const QString sql = kSelect + where(query, values) + orderBy(query) + QStringLiteral(" LIMIT ? OFFSET ?");
    values << query.limit << query.offset;
    QSqlQuery &q = m_db.run(sql, values);
    QList<Shop> shops;
    while (q.next())
        shops.append(readShop(q));
    q.finish();
    return shops;
}

qint64 ShopRepository::count(const ShopListQuery &query)
{
    QVariantList values;
    const QString sql =
        QStringLiteral("SELECT COUNT(*) FROM shops s JOIN accounts a ON a.id = s.account_id") + where(query, values);
    QSqlQuery &q = m_db.run(sql, values);
    const qint64 count = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return count;
}

std::optional<Shop> ShopRepository::find(qint64 accountId, qint64 istDay)
{
    QSqlQuery &q = m_db.run(kSelect + QStringLiteral(" WHERE s.account_id = ?"), {istDay, accountId});
    std::optional<Shop> shop;
    if (q.next())
        shop = readShop(q);
    q.finish();
    return shop;
}
