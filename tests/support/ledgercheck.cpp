#include "ledgercheck.h"

#include "teststore.h"

#include <QSqlError>
#include <QSqlQuery>

ReadOnlyConnection::ReadOnlyConnection(const TestStore &store)
    : m_name(QStringLiteral("ledgercheck-readonly-%1").arg(quintptr(this))), m_db(store.openReadOnly(m_name))
{}

ReadOnlyConnection::~ReadOnlyConnection()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_name);
}

QStringList ReadOnlyConnection::column(const QString &sql, QString *error) const
{
    QStringList values;
    if (!m_db.isOpen()) {
        *error = m_db.lastError().text();
        return values;
    }
    QSqlQuery query(m_db);
    if (!query.exec(sql)) {
        *error = query.lastError().text();
        return values;
    }
    while (query.next())
        values.append(query.value(0).toString());
    return values;
}

QString ledgerProblems(const TestStore &store, const QString &label)
{
    struct Check
    {
        const char *what;
        const char *sql;
    };
    static const Check checks[] = {
        {"wallets differing from their ledger",
         "SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT COALESCE(SUM(l.amount), 0)"
         " FROM wallet_ledger l WHERE l.account_id = w.account_id AND l.mode = w.mode)"},
        {"sales without exactly one debit of paid",
         "SELECT COUNT(*) FROM transactions t WHERE (SELECT COUNT(*) FROM wallet_ledger l"
         " WHERE l.transaction_id = t.id AND l.kind = 'debit' AND l.amount = -t.paid) <> 1"},
        {"FAILED sales not refunded exactly once",
         "SELECT COUNT(*) FROM transactions t WHERE t.status = 'FAILED' AND ((SELECT COALESCE(SUM(l.amount), 0)"
         " FROM wallet_ledger l WHERE l.transaction_id = t.id) <> 0 OR (SELECT COUNT(*) FROM wallet_ledger l"
         " WHERE l.transaction_id = t.id AND l.kind = 'refund') <> 1)"},
        {"PENDING or SUCCESS sales not netting -paid (refunded though not FAILED)",
         "SELECT COUNT(*) FROM transactions t WHERE t.status <> 'FAILED' AND (SELECT COALESCE(SUM(l.amount), 0)"
         " FROM wallet_ledger l WHERE l.transaction_id = t.id) <> -t.paid"},
    };
    const ReadOnlyConnection db(store);
    QStringList problems;
    for (const Check &check : checks) {
        QString error;
        const QStringList rows = db.column(QString::fromLatin1(check.sql), &error);
        if (!error.isEmpty())
            problems.append(QStringLiteral("%1: cannot check %2: %3").arg(label, QLatin1String(check.what), error));
        else if (rows.value(0) != QLatin1String("0"))
            problems.append(QStringLiteral("%1: %2 %3").arg(label, rows.value(0), QLatin1String(check.what)));
    }
    return problems.join(QLatin1Char('\n'));
}
