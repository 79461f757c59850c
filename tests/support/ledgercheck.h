#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

class TestStore;

/// A read-only connection to a store's database for one scope (TestStore::openReadOnly under a name of its own).
class ReadOnlyConnection
{
public:
    explicit ReadOnlyConnection(const TestStore &store);
    ~ReadOnlyConnection();
    ReadOnlyConnection(const ReadOnlyConnection &) = delete;
    ReadOnlyConnection &operator=(const ReadOnlyConnection &) = delete;

    /// The rows of a query as strings of their first column; *error set when it fails.
    QStringList column(const QString &sql, QString *error) const;

private:
    QString m_name;
    QSqlDatabase m_db;
};

/// The money invariants of one database, checked after live sales (issue 11, "Tests"; issue 26): every wallet equals
/// the sum of its ledger, and every sale has one debit of `paid`, nets to zero when FAILED (refunded exactly once) and
/// to -paid otherwise (never refunded unless FAILED). Empty when all hold; else one "label: n rows where ..." line per
/// broken rule (or the query that could not run).
QString ledgerProblems(const TestStore &store, const QString &label);
