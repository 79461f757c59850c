// Migrations when several processes open one fresh database at the same moment (issue 16). On SQLite there is no
// advisory lock: each migration's BEGIN IMMEDIATE excludes the other writers, and a step another process applied
// meanwhile is skipped. (PostgreSQL, with real servers: tst_severalservers.cpp.)
#include "store/database.h"
#include "store/migrations.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <thread>

class TestMigrations final : public QObject
{
    Q_OBJECT

private slots:
    void severalOpenOneFreshSqliteFileAtOnce()
    {
        for (int round = 0; round < 12; ++round) {
            QTemporaryDir dir;
            QVERIFY(dir.isValid());
            const QString path = dir.filePath(QStringLiteral("rechargedesk.db"));
            // An empty file already in WAL mode: switching the journal mode needs the file to itself, and that race
            // of a brand-new file is not the one under test (a separate matter); the migrations are.
            {
                QSqlDatabase file = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("setup"));
                file.setDatabaseName(path);
                QVERIFY(file.open());
                QVERIFY(QSqlQuery(file).exec(QStringLiteral("PRAGMA journal_mode=WAL")));
                file.close();
            }
            QSqlDatabase::removeDatabase(QStringLiteral("setup"));
            std::array<QString, 4> errors;
            std::array<bool, 4> opened{};
            {
                std::array<std::thread, 4> threads;
                for (std::size_t i = 0; i < threads.size(); ++i) {
                    threads[i] = std::thread([&, i] { opened[i] = Database::open(path, &errors[i]) != nullptr; });
                }
                for (std::thread &thread : threads)
                    thread.join();
            }
            for (std::size_t i = 0; i < opened.size(); ++i)
                QVERIFY2(opened[i], qPrintable(errors[i]));
            QString error;
            const auto db = Database::open(path, &error);
            QVERIFY2(db, qPrintable(error));
            QCOMPARE(db->appliedMigrations().size(), allMigrations().size());
            QCOMPARE(schemaCurrency(db->appliedMigrations()), SchemaCurrency::Current);
        }
    }
};

QTEST_GUILESS_MAIN(TestMigrations)
#include "tst_migrations.moc"
