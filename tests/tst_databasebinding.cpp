// Database::run binds values by name (the `?`s named ":0", ":1", … at prepare, see database.cpp): the values must
// reach the statement exactly as by position, with `?` inside quoted text left alone and statements the
// rewrite skips (a `:` in them) still bound by position.
#include "store/database.h"

#include <QTemporaryDir>
#include <QtTest>

class TestDatabaseBinding : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        m_db = Database::open(m_dir.filePath(QStringLiteral("binding.db")), &error);
        QVERIFY2(m_db, qPrintable(error));
    }
    void cleanup() { m_db.reset(); }

    void questionMarksInQuotesAreText()
    {
        for (int round = 0; round < 2; ++round) { // the cached statement, bound again
            const QString name = round ? QStringLiteral("दो") : QStringLiteral("one");
            QSqlQuery &q = m_db->run(QStringLiteral("SELECT '?', ?, \"?\" = \"?\", ?, '''?'''"),
                                     {name, qint64(round) + (qint64(1) << 40)});
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("?"));
            QCOMPARE(q.value(1).toString(), name);
            QCOMPARE(q.value(3).toLongLong(), qint64(round) + (qint64(1) << 40));
            QCOMPARE(q.value(4).toString(), QStringLiteral("'?'"));
            q.finish();
        }
    }

    void bracketsInQuotesAreText()
    {
        QSqlQuery &q = m_db->run(QStringLiteral("SELECT '[?]', ?"), {QStringLiteral("x")});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("[?]"));
        QCOMPARE(q.value(1).toString(), QStringLiteral("x"));
        q.finish();
    }

    void statementWithAColonIsBoundByPosition()
    {
        QSqlQuery &q = m_db->run(QStringLiteral("SELECT ?, '10:30', ?"), {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("a"));
        QCOMPARE(q.value(1).toString(), QStringLiteral("10:30"));
        QCOMPARE(q.value(2).toString(), QStringLiteral("b"));
        q.finish();
    }

    void manyValuesInOrder()
    {
        QStringList marks;
        QVariantList values;
        for (int i = 0; i < 70; ++i) { // past the 64 named ones: by position
            marks << QStringLiteral("?");
            values << i * 7;
        }
        for (const qsizetype n : {qsizetype(17), qsizetype(70)}) {
            QSqlQuery &q =
                m_db->run(QStringLiteral("SELECT ") + marks.mid(0, n).join(QLatin1Char(',')), values.mid(0, n));
            QVERIFY(q.next());
            for (int i = 0; i < n; ++i)
                QCOMPARE(q.value(i).toInt(), i * 7);
            q.finish();
        }
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Database> m_db;
};

QTEST_GUILESS_MAIN(TestDatabaseBinding)
#include "tst_databasebinding.moc"
