// Migrations when several processes open one fresh database at the same moment (issue 16). On SQLite there is no
// advisory lock: each migration's BEGIN IMMEDIATE excludes the other writers, and a step another process applied
// meanwhile is skipped. (PostgreSQL, with real servers: tst_severalservers.cpp.)
// Migration 13's SQLite table rebuild (issue 17): a database of version 12 keeps every row, id, index and foreign
// key, its CHECKs still refuse what they refused, and ids keep growing.
#include "sqlitefile.h"
#include "store/database.h"
#include "store/migrations.h"

#include <QFile>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <memory>
#include <thread>

namespace {

constexpr int kBeforeRebuild = 12; ///< the schema version before migration 13's table rebuild

/// The tables migration 13 rebuilds on SQLite.
const QStringList &rebuiltTables()
{
    static const QStringList tables{
        QStringLiteral("transactions"),     QStringLiteral("wallet_ledger"), QStringLiteral("webhook_events"),
        QStringLiteral("webhook_attempts"), QStringLiteral("webhook_inbox"), QStringLiteral("upstream_sales"),
        QStringLiteral("upstream_calls"),
    };
    return tables;
}

/// Every row of the query `sql` as text, one line per row, each value with its type ("qlonglong:7", "NULL").
QStringList rowsOf(const QSqlDatabase &db, const QString &sql)
{
    QStringList rows;
    QSqlQuery q(db);
    if (!q.exec(sql))
        return {sql + QStringLiteral(": ") + q.lastError().text()};
    while (q.next()) {
        QStringList cells;
        for (int i = 0; i < q.record().count(); ++i)
            cells.append(q.isNull(i)
                             ? QStringLiteral("NULL")
                             : QString::fromLatin1(q.value(i).typeName()) + QLatin1Char(':') + q.value(i).toString());
        rows.append(cells.join(QLatin1Char('|')));
    }
    return rows;
}

/// What a rebuild must keep of a database: every row of every table (by rowid), every index (name, table and
/// SQL), and every table's columns and foreign keys.
QMap<QString, QStringList> schemaAndRows(const QSqlDatabase &db)
{
    QMap<QString, QStringList> all;
    all[QStringLiteral("indexes")] =
        rowsOf(db, QStringLiteral("SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name"));
    for (const QString &table :
         rowsOf(db, QStringLiteral("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                                   " AND name <> 'schema_migrations' ORDER BY name"))) {
        const QString name = table.section(QLatin1Char(':'), 1);
        all[name + QStringLiteral(" rows")] = rowsOf(db, QStringLiteral("SELECT * FROM %1 ORDER BY rowid").arg(name));
        all[name + QStringLiteral(" columns")] = rowsOf(db, QStringLiteral("PRAGMA table_info(%1)").arg(name));
        all[name + QStringLiteral(" foreign keys")] =
            rowsOf(db, QStringLiteral("PRAGMA foreign_key_list(%1)").arg(name));
    }
    return all;
}

/// Creates the SQLite file `path` at schema version `version`: the migrations up to it, as Database::migrate()
/// applies them. Returns the first error, or an empty string.
QString createAtVersion(const QString &path, int version)
{
    const SqliteFile file(path);
    QString error = file.exec(
        QStringLiteral("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)"));
    for (const Migration &migration : allMigrations()) {
        if (migration.version > version)
            break;
        for (QString sql : migration.statements) {
            if (error.isEmpty())
                error =
                    file.exec(sql.replace(QLatin1String("%ID%"), QLatin1String("INTEGER PRIMARY KEY AUTOINCREMENT")));
        }
        if (error.isEmpty())
            error = file.exec(QStringLiteral("INSERT INTO schema_migrations (version, applied_at) VALUES (%1, 0)")
                                  .arg(migration.version));
    }
    return error;
}

/// Applies to the SQLite file `path` the statements of every migration after 13 (as Database::migrate() does);
/// returns the first error, or an empty string.
QString applyAfterTheRebuild(const QString &path)
{
    const SqliteFile file(path);
    QString error;
    for (const Migration &migration : allMigrations()) {
        if (migration.version <= kBeforeRebuild + 1)
            continue;
        for (const QString &sql : migration.statements)
            if (error.isEmpty())
                error = file.exec(
                    QString(sql).replace(QLatin1String("%ID%"), QLatin1String("INTEGER PRIMARY KEY AUTOINCREMENT")));
    }
    return error;
}

/// Rows in every table migration 13 rebuilds, with every value their CHECKs allow and ids with gaps (the
/// largest: 1000), all parents present. Returns the first error, or an empty string.
QString fillRebuiltTables(const QString &path)
{
    const SqliteFile file(path);
    QStringList statements{
        QStringLiteral("INSERT INTO accounts (id, name, created_at) VALUES (1, 'shop', 0), (5, 'other', 0)"),
    };
    const QStringList types{QStringLiteral("MOBILE"), QStringLiteral("VOUCHER"), QStringLiteral("DTH")};
    const QStringList statuses{QStringLiteral("PENDING"), QStringLiteral("SUCCESS"), QStringLiteral("FAILED")};
    const QList<int> saleIds{3, 10, 17, 24, 31, 38, 45, 52, 1000}; // gaps; the last is the file's largest id
    for (qsizetype i = 0; i < saleIds.size(); ++i) {
        const QString id = QString::number(saleIds.at(i));
        statements.append(
            QStringLiteral("INSERT INTO transactions (id, account_id, mode, type, operator_code, number, bill_amount,"
                           " discount, paid, customer_email, status, redeem_code, reference_id, fingerprint, key_id,"
                           " created_at, updated_at, clerk) VALUES (%1, 1, 'live', '%2', 'AT', '98765%1', %4, %1, %4 -"
                           " %1, 'a@b.in', '%3', 'R%1', 'rd-1-%1', 'fp%1', 'rk_%1', %5, %5 + 1, 'asha')")
                .arg(id, types.at(i / 3), statuses.at(i % 3), QString::number(10000 + saleIds.at(i)),
                     QString::number(1795485424754LL + i)));
    }
    statements
        << QStringLiteral("INSERT INTO transactions (id, account_id, mode, type, operator_code, bill_amount,"
                          " discount, paid, status, fingerprint, key_id, created_at, updated_at) VALUES (999, 5,"
                          " 'test', 'MOBILE', 'JIO', 500, 0, 500, 'SUCCESS', 'f', 'k', 1, 2)")
        << QStringLiteral("INSERT INTO wallet_ledger (id, account_id, mode, amount, kind, transaction_id, note,"
                          " actor, created_at) VALUES (2, 1, 'live', 500000, 'opening', NULL, 'n', 'admin', 1),"
                          " (9, 1, 'live', 100000, 'topup', NULL, '', 'admin', 2),"
                          " (100, 1, 'live', -10003, 'debit', 3, '', '', 3),"
                          " (1000, 1, 'live', 10003, 'refund', 3, 'refund', '', 4)")
        << QStringLiteral("INSERT INTO webhook_events (id, webhook_id, account_id, mode, event_type, transaction_id,"
                          " payload, status, attempts, retry_index, next_attempt_at, locked_until, last_error,"
                          " created_at, delivered_at, locked_by) VALUES"
                          " (4, 'wh_4', 1, 'live', 'transaction.success', 10, '{}', 'pending', 0, 0, 5, 0, '', 1,"
                          " NULL, 0), (8, 'wh_8', 1, 'live', 'transaction.failed', 17, '{}', 'delivered', 1, 0,"
                          " 5, 0, '', 1, 9, 0), (1000, 'wh_1000', 1, 'live', 'transaction.success', 24, '{}',"
                          " 'failed', 8, 7, 5, 99, 'timeout', 1, NULL, 42)")
        << QStringLiteral("INSERT INTO webhook_attempts (id, event_id, account_id, mode, attempt, attempted_at,"
                          " url, http_status, latency_ms, success, error) VALUES (6, 8, 1, 'live', 1, 7,"
                          " 'https://x.in/h', 200, 12, 1, ''), (1000, 1000, 1, 'live', 8, 8, 'https://x.in/h',"
                          " NULL, 5000, 0, 'timeout')")
        << QStringLiteral("INSERT INTO webhook_inbox (id, account_id, mode, webhook_id, event_type, transaction_id,"
                          " body, received_at, deliveries) VALUES (3, 5, 'test', 'wh_8', 'transaction.failed', 17,"
                          " '{}', 9, 1), (1000, 5, 'test', 'wh_9', 'transaction.success', 999, '{}', 10, 2)")
        << QStringLiteral("INSERT INTO settlements (transaction_id, due_at, final_status) VALUES (3, 77, 'FAILED')")
        << QStringLiteral("INSERT INTO upstream_calls (id, transaction_id, at, method, endpoint, http_status,"
                          " latency_ms, error, outcome) VALUES (2, 3, 1, 'POST', '/v1/x', 200, 30, '', 'ok'),"
                          " (1000, 10, 2, 'GET', '/v1/y', 0, 5000, 'timeout', 'unknown')");
    const QStringList states{QStringLiteral("queued"),  QStringLiteral("sent"),    QStringLiteral("unknown"),
                             QStringLiteral("pending"), QStringLiteral("settled"), QStringLiteral("refused")};
    const QList<int> sales{3, 10, 17, 24, 31, 38};
    for (qsizetype i = 0; i < states.size(); ++i)
        statements.append(QStringLiteral("INSERT INTO upstream_sales (transaction_id, reference_id, state, upstream_id,"
                                         " attempts, next_attempt_at, endpoint, request_body, updated_at, lease_owner,"
                                         " lease_until) VALUES (%1, 'rd-1-%1', '%2', %3, 1, 2, '/v1/m', '{}', 3, '%4',"
                                         " %3)")
                              .arg(QString::number(sales.at(i)), states.at(i), QString::number(i * 11),
                                   i % 2 ? QStringLiteral("server-a") : QString()));
    for (const QString &sql : std::as_const(statements)) {
        const QString error = file.exec(sql);
        if (!error.isEmpty())
            return error;
    }
    return {};
}

/// A database of version 12 filled by fillRebuiltTables(), in `dir`; its path, or an empty string (with a warning).
QString filledDatabaseBeforeTheRebuild(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("rechargedesk.db"));
    QString error = createAtVersion(path, kBeforeRebuild);
    if (error.isEmpty())
        error = fillRebuiltTables(path);
    if (!error.isEmpty()) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    return path;
}

/// The database of filledDatabaseBeforeTheRebuild() in `dir`, opened (so migrated); nullptr (with a warning) when
/// it cannot be.
std::unique_ptr<Database> migratedDatabase(const QTemporaryDir &dir)
{
    const QString path = filledDatabaseBeforeTheRebuild(dir);
    if (path.isEmpty())
        return nullptr;
    QString error;
    std::unique_ptr<Database> db = Database::open(path, &error);
    if (!db)
        qWarning("%s", qPrintable(error));
    return db;
}

qint64 scalar(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery q(db);
    return q.exec(sql) && q.next() ? q.value(0).toLongLong() : -1;
}

} // namespace

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

    // Issue 17, migration 13: every row (with its id and the type of each value), every index exactly, every
    // table's columns and foreign keys survive the rebuild; foreign key and integrity checks pass; the connection
    // enforces foreign keys again; and the rebuilt tables have neither an IN list of three or more constants
    // (a temporary b-tree per row written) nor AUTOINCREMENT.
    void rebuildKeepsEveryRowIndexAndForeignKey()
    {
        QTemporaryDir dir;
        const QString path = filledDatabaseBeforeTheRebuild(dir);
        QVERIFY(!path.isEmpty());
        // What the rebuild must keep, as the migrations after it change it too (they add columns, never rebuild):
        // a copy of the file of version 12 with only those later migrations applied.
        const QString reference = dir.filePath(QStringLiteral("reference.sqlite"));
        QVERIFY(QFile::copy(path, reference));
        QCOMPARE(applyAfterTheRebuild(reference), QString());
        QMap<QString, QStringList> before;
        {
            const SqliteFile old(reference);
            before = schemaAndRows(old.db());
        }
        QCOMPARE(before.value(QStringLiteral("transactions rows")).size(), 10);
        QCOMPARE(before.value(QStringLiteral("upstream_sales rows")).size(), 6);

        QString error;
        const auto db = Database::open(path, &error);
        QVERIFY2(db, qPrintable(error));
        QCOMPARE(schemaCurrency(db->appliedMigrations()), SchemaCurrency::Current);
        const QMap<QString, QStringList> after = schemaAndRows(db->connection());
        QCOMPARE(after.keys(), before.keys());
        for (auto it = before.cbegin(); it != before.cend(); ++it)
            QCOMPARE(after.value(it.key()), it.value());
        QCOMPARE(rowsOf(db->connection(), QStringLiteral("PRAGMA foreign_key_check")), QStringList());
        QCOMPARE(rowsOf(db->connection(), QStringLiteral("PRAGMA integrity_check")),
                 QStringList{QStringLiteral("QString:ok")});
        QCOMPARE(scalar(db->connection(), QStringLiteral("PRAGMA foreign_keys")), 1);

        static const QRegularExpression longInList(QStringLiteral("\\bIN\\s*\\([^()]*,[^()]*,[^()]*\\)"),
                                                   QRegularExpression::CaseInsensitiveOption);
        for (const QString &table : rebuiltTables()) {
            const QStringList sql =
                rowsOf(db->connection(), QStringLiteral("SELECT sql FROM sqlite_schema WHERE name = '%1'").arg(table));
            QCOMPARE(sql.size(), 1);
            QVERIFY2(!sql.constFirst().contains(longInList), qPrintable(sql.constFirst()));
            QVERIFY2(!sql.constFirst().contains(QLatin1String("AUTOINCREMENT"), Qt::CaseInsensitive),
                     qPrintable(sql.constFirst()));
        }
    }

    // The rebuilt CHECKs refuse what the IN lists refused, and allow every value they allowed (fillRebuiltTables
    // wrote each allowed value before the rebuild; these write them after).
    void rebuiltChecksStillRefuseOtherValues_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("allowed");
        QTest::addColumn<QString>("refused");
        const QString sale = QStringLiteral(
            "INSERT INTO transactions (account_id, mode, type, operator_code, bill_amount, discount, paid, status,"
            " fingerprint, key_id, created_at, updated_at) VALUES (1, 'test', %1, 'AT', 100, 0, 100, %2, 'f', 'k', 0,"
            " 0)");
        QTest::newRow("transactions.type") << sale.arg(QStringLiteral("'%1'"), QStringLiteral("'SUCCESS'"))
                                           << QStringLiteral("VOUCHER") << QStringLiteral("FOO");
        QTest::newRow("transactions.type, other case") << sale.arg(QStringLiteral("'%1'"), QStringLiteral("'SUCCESS'"))
                                                       << QStringLiteral("DTH") << QStringLiteral("mobile");
        QTest::newRow("transactions.status") << sale.arg(QStringLiteral("'MOBILE'"), QStringLiteral("'%1'"))
                                             << QStringLiteral("PENDING") << QStringLiteral("X");
        QTest::newRow("transactions.status, update")
            << QStringLiteral("UPDATE transactions SET status = '%1' WHERE id = 3") << QStringLiteral("SUCCESS")
            << QStringLiteral("X");
        QTest::newRow("wallet_ledger.kind")
            << QStringLiteral(
                   "INSERT INTO wallet_ledger (account_id, mode, amount, kind, created_at) VALUES (1, 'test',"
                   " 1, '%1', 0)")
            << QStringLiteral("refund") << QStringLiteral("x");
        QTest::newRow("webhook_events.status")
            << QStringLiteral("INSERT INTO webhook_events (webhook_id, account_id, mode, event_type, payload, status,"
                              " next_attempt_at, created_at) VALUES ('wh_%1', 1, 'test', 'e', '{}', '%1', 0, 0)")
            << QStringLiteral("delivered") << QStringLiteral("x");
        QTest::newRow("upstream_sales.state")
            << QStringLiteral("INSERT INTO upstream_sales (transaction_id, reference_id, state, endpoint, request_body,"
                              " updated_at) VALUES (999, 'rd-%1', '%1', '/v1', '{}', 0)")
            << QStringLiteral("sent") << QStringLiteral("x");
    }

    void rebuiltChecksStillRefuseOtherValues()
    {
        QFETCH(QString, sql);
        QFETCH(QString, allowed);
        QFETCH(QString, refused);
        QTemporaryDir dir;
        const std::unique_ptr<Database> db = migratedDatabase(dir);
        QVERIFY(db);
        try {
            db->execute(sql.arg(refused));
            QFAIL(qPrintable(QStringLiteral("accepted: ") + sql.arg(refused)));
        } catch (const DatabaseError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("CHECK constraint failed")), e.what());
        }
        db->execute(sql.arg(allowed));
    }

    // Without AUTOINCREMENT a new row's id is the largest + 1: above every id written before the rebuild (the
    // largest, 1000, after gaps), in every rebuilt table with an id.
    void idsKeepGrowingAfterTheRebuild()
    {
        QTemporaryDir dir;
        const std::unique_ptr<Database> db = migratedDatabase(dir);
        QVERIFY(db);
        const qint64 sale = db->insertReturningId(
            QStringLiteral(
                "INSERT INTO transactions (account_id, mode, type, operator_code, bill_amount, discount, paid,"
                " status, fingerprint, key_id, created_at, updated_at) VALUES (1, 'live', 'MOBILE', 'AT',"
                " 100, 0, 100, 'SUCCESS', 'f', 'k', 0, 0)"),
            {});
        QCOMPARE(sale, 1001);
        QCOMPARE(db->insertReturningId(QStringLiteral("INSERT INTO wallet_ledger (account_id, mode, amount, kind,"
                                                      " transaction_id, created_at) VALUES (1, 'live', -100, 'debit',"
                                                      " ?, 0)"),
                                       {sale}),
                 1001);
        QCOMPARE(db->insertReturningId(QStringLiteral("INSERT INTO webhook_events (webhook_id, account_id, mode,"
                                                      " event_type, transaction_id, payload, status, next_attempt_at,"
                                                      " created_at) VALUES ('wh_new', 1, 'live', 'e', ?, '{}',"
                                                      " 'pending', 0, 0)"),
                                       {sale}),
                 1001);
        QCOMPARE(db->insertReturningId(QStringLiteral("INSERT INTO webhook_attempts (event_id, account_id, mode,"
                                                      " attempt, attempted_at, url, latency_ms, success) VALUES (1001,"
                                                      " 1, 'live', 1, 0, 'u', 1, 1)"),
                                       {}),
                 1001);
        QCOMPARE(db->insertReturningId(QStringLiteral("INSERT INTO webhook_inbox (account_id, mode, webhook_id,"
                                                      " event_type, body, received_at) VALUES (5, 'test', 'wh_new',"
                                                      " 'e', '{}', 0)"),
                                       {}),
                 1001);
        QCOMPARE(db->insertReturningId(QStringLiteral("INSERT INTO upstream_calls (transaction_id, at, method,"
                                                      " endpoint, latency_ms, outcome) VALUES (?, 0, 'POST', '/v1', 1,"
                                                      " 'ok')"),
                                       {sale}),
                 1001);
    }

    // A rebuild that would leave a row without its parent (here a ledger row of a sale that is not there, written
    // by hand with foreign keys off) is not committed: open() fails naming the row, and the file keeps version 12.
    void rebuildThatWouldBreakAForeignKeyChangesNothing()
    {
        QTemporaryDir dir;
        const QString path = filledDatabaseBeforeTheRebuild(dir);
        QVERIFY(!path.isEmpty());
        {
            const SqliteFile file(path);
            QCOMPARE(file.exec(QStringLiteral("INSERT INTO wallet_ledger (id, account_id, mode, amount, kind,"
                                              " transaction_id, created_at) VALUES (1001, 1, 'live', 1, 'refund', 4242,"
                                              " 0)")),
                     QString());
        }
        QString error;
        QVERIFY(!Database::open(path, &error));
        QVERIFY2(error.contains(QLatin1String("row 1001 of wallet_ledger")), qPrintable(error));
        const SqliteFile file(path);
        QCOMPARE(scalar(file.db(), QStringLiteral("SELECT MAX(version) FROM schema_migrations")), kBeforeRebuild);
        QCOMPARE(scalar(file.db(), QStringLiteral("SELECT COUNT(*) FROM sqlite_schema WHERE name LIKE 'rebuilt_%'")),
                 0);
        QCOMPARE(scalar(file.db(), QStringLiteral("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'transactions' AND"
                                                  " sql LIKE '%AUTOINCREMENT%'")),
                 1);
    }

    // Issue 30, migration 20: every account of a database before it, other than the server's own (`shop`, the
    // distributor), becomes an active shop with no details and no credit.
    void existingAccountsBecomeShops()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("before-shops.sqlite"));
        QCOMPARE(createAtVersion(path, 19), QString());
        {
            const SqliteFile file(path);
            QCOMPARE(file.exec(QStringLiteral("INSERT INTO accounts (id, name, created_at) VALUES (1, 'shop', 10),"
                                              " (2, 'kirana', 20), (3, 'corner store', 30)")),
                     QString());
        }
        QString error;
        const auto db = Database::open(path, &error);
        QVERIFY2(db, qPrintable(error));
        QCOMPARE(rowsOf(db->connection(),
                        QStringLiteral("SELECT account_id, state, owner, credit_limit, created_at, last_contact_at"
                                       " FROM shops ORDER BY account_id")),
                 (QStringList{QStringLiteral("qlonglong:2|QString:active|QString:|qlonglong:0|qlonglong:20|NULL"),
                              QStringLiteral("qlonglong:3|QString:active|QString:|qlonglong:0|qlonglong:30|NULL")}));
    }
};

QTEST_GUILESS_MAIN(TestMigrations)
#include "tst_migrations.moc"
