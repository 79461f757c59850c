#include "numberrepository.h"

#include "database.h"

namespace {

/// The conditions the lookup's queries share, of one account (migration 18's index) and of every account (the
/// network, migration 19's index); their literal terms match the partial indexes' WHERE, which is what lets SQLite
/// and PostgreSQL use them with bound parameters.
const QString kSoldByAccount = QStringLiteral(" FROM transactions WHERE account_id = ? AND mode = ? AND number = ?"
                                              " AND status = 'SUCCESS' AND type = 'MOBILE'");
const QString kSoldInNetwork = QStringLiteral(" FROM transactions WHERE mode = ? AND number = ?"
                                              " AND status = 'SUCCESS' AND type = 'MOBILE'");

} // namespace

std::optional<NumberSales> NumberRepository::lastSold(qint64 accountId, Mode mode, const QString &number)
{
    return read(kSoldByAccount, {accountId, ModeNames::mode(mode), number});
}

std::optional<NumberSales> NumberRepository::lastSoldInNetwork(Mode mode, const QString &number)
{
    return read(kSoldInNetwork, {ModeNames::mode(mode), number});
}

std::optional<NumberSales> NumberRepository::read(const QString &sold, const QVariantList &values)
{
    QSqlQuery &latest = m_db.run(QStringLiteral("SELECT operator_code, circle_code, created_at") + sold +
                                     QStringLiteral(" ORDER BY created_at DESC, id DESC LIMIT 1"),
                                 values);
    if (!latest.next()) {
        latest.finish();
        return std::nullopt;
    }
    NumberSales sales;
    sales.operatorCode = latest.value(0).toString();
    sales.circleCode = latest.value(1).toString();
    sales.lastSoldAtMs = latest.value(2).toLongLong();
    latest.finish();
    QSqlQuery &count = m_db.run(QStringLiteral("SELECT COUNT(*)") + sold, values);
    sales.count = count.next() ? count.value(0).toLongLong() : 0;
    count.finish();
    if (sales.circleCode.isEmpty()) {
        // The latest sale carried no circle (an older client): the latest one that did.
        QSqlQuery &circle =
            m_db.run(QStringLiteral("SELECT circle_code") + sold +
                         QStringLiteral(" AND circle_code IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1"),
                     values);
        if (circle.next())
            sales.circleCode = circle.value(0).toString();
        circle.finish();
    }
    return sales;
}
