#pragma once

#include <QSqlDatabase>
#include <QString>

/// A plain QtSql connection to an SQLite file for one scope: no migrations, SQLite's defaults (foreign keys
/// off). For tests that read or shape a database file the way another process (or an older release) would.
class SqliteFile
{
public:
    explicit SqliteFile(const QString &path);
    ~SqliteFile();
    Q_DISABLE_COPY_MOVE(SqliteFile)
    QSqlDatabase db() const { return QSqlDatabase::database(m_name, false); }
    /// Runs `sql`; the statement with the error's text when it fails, an empty string when it succeeds.
    QString exec(const QString &sql) const;

private:
    QString m_name;
};
