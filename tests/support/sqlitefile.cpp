#include "sqlitefile.h"

#include <QSqlError>
#include <QSqlQuery>

SqliteFile::SqliteFile(const QString &path) : m_name(QStringLiteral("file-%1").arg(quintptr(this)))
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
    db.setDatabaseName(path);
    db.open();
}

SqliteFile::~SqliteFile()
{
    QSqlDatabase::database(m_name, false).close();
    QSqlDatabase::removeDatabase(m_name);
}

QString SqliteFile::exec(const QString &sql) const
{
    QSqlQuery q(db());
    return q.exec(sql) ? QString() : sql + QStringLiteral(": ") + q.lastError().text();
}
