#include "numberrepository.h"

#include "database.h"

namespace {

/// The condition every query of the lookup shares; its literal terms match the partial index's WHERE, which is what
/// lets SQLite and PostgreSQL use it with bound parameters.
const QString kSold = QStringLiteral(" FROM transactions WHERE account_id = ? AND mode = ? AND number = ?"
                                     " AND status = 'SUCCESS' AND type = 'MOBILE'");

} // namespace

std::optional<NumberSales> NumberRepository::lastSold(qint64 accountId, Mode mode, const QString &number)
{
    const QVariantList values{accountId, ModeNames::mode(mode), number};
    QSqlQuery &latest = m_db.run(QStringLiteral("SELECT operator_code, circle_code, created_at") + kSold +
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
    QSqlQuery &count = m_db.run(QStringLiteral("SELECT COUNT(*)") + kSold, values);
    sales.count = count.next() ? count.value(0).toLongLong() : 0;
    count.finish();
    if (sales.circleCode.isEmpty()) {
        // The latest sale carried no circle (an older client): the latest one that did.
        QSqlQuery &circle =
            m_db.run(QStringLiteral("SELECT circle_code") + kSold +
                         QStringLiteral(" AND circle_code IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1"),
                     values);
        if (circle.next())
            sales.circleCode = circle.value(0).toString();
        circle.finish();
    }
    return sales;
}
