// The settings every SQLite connection of Database::open has (architecture.md, "Time, money, storage"): WAL with
// synchronous=FULL (an acknowledged sale is on disk), foreign keys, secure delete — and statement journals in
// memory (issue 17): a grouped commit gives each request a savepoint, and SQLite journals the pages a savepoint
// changes; past 64 KiB that journal went to a temporary file, opened, written and unlinked in every commit.
#include "store/database.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

class TestSqliteConnection : public QObject
{
    Q_OBJECT

    /// How many files this process holds open that SQLite made as temporary files ("etilqs_" names, unlinked at
    /// once: "(deleted)" links in /proc/self/fd).
    static int openSqliteTemporaryFiles()
    {
        int count = 0;
        const QDir fds(QStringLiteral("/proc/self/fd"));
        for (const QString &fd : fds.entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)) {
            const QString target = QFileInfo(fds.filePath(fd)).symLinkTarget();
            if (target.contains(QLatin1String("etilqs_")))
                ++count;
        }
        return count;
    }

    qint64 pragma(const QString &name)
    {
        QSqlQuery &q = m_db->run(QStringLiteral("PRAGMA ") + name);
        const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return value;
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        m_db = Database::open(m_dir.filePath(QStringLiteral("connection.db")), &error);
        QVERIFY2(m_db, qPrintable(error));
    }
    void cleanup() { m_db.reset(); }

    void durableSettings()
    {
        QSqlQuery &q = m_db->run(QStringLiteral("PRAGMA journal_mode"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
        q.finish();
        QCOMPARE(pragma(QStringLiteral("synchronous")), 2); // FULL
        QCOMPARE(pragma(QStringLiteral("foreign_keys")), 1);
        QCOMPARE(pragma(QStringLiteral("secure_delete")), 1);
        QCOMPARE(pragma(QStringLiteral("temp_store")), 2); // MEMORY
    }

    /// A transaction whose savepoints change a few hundred pages (as a grouped commit of many sales does) keeps
    /// their journal in memory: no temporary file is open while it runs, and rolling back to a savepoint still
    /// undoes exactly that savepoint's changes.
    void savepointJournalsStayInMemory()
    {
        m_db->execute(QStringLiteral("CREATE TABLE pages_of_text (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"));
        m_db->begin();
        for (int i = 0; i < 400; ++i)
            m_db->run(QStringLiteral("INSERT INTO pages_of_text (body) VALUES (?)"), {QString(3000, QLatin1Char('a'))});
        m_db->commit();

        const int before = openSqliteTemporaryFiles();
        m_db->begin();
        m_db->savepoint(QStringLiteral("kept"));
        m_db->run(QStringLiteral("UPDATE pages_of_text SET body = ? WHERE id <= 200"),
                  {QString(3000, QLatin1Char('b'))});
        m_db->releaseSavepoint(QStringLiteral("kept"));
        m_db->savepoint(QStringLiteral("undone"));
        m_db->run(QStringLiteral("UPDATE pages_of_text SET body = ? WHERE id > 200"),
                  {QString(3000, QLatin1Char('c'))});
        QCOMPARE(openSqliteTemporaryFiles(), before);
        m_db->rollbackToSavepoint(QStringLiteral("undone"));
        m_db->releaseSavepoint(QStringLiteral("undone"));
        m_db->commit();

        QSqlQuery &q = m_db->run(QStringLiteral("SELECT substr(body, 1, 1), COUNT(*) FROM pages_of_text"
                                                " GROUP BY 1 ORDER BY 1"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("a"));
        QCOMPARE(q.value(1).toInt(), 200);
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("b"));
        QCOMPARE(q.value(1).toInt(), 200);
        QVERIFY(!q.next());
        q.finish();
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Database> m_db;
};

QTEST_GUILESS_MAIN(TestSqliteConnection)
#include "tst_sqliteconnection.moc"
