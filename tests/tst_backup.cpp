// Issue 15: the server's configuration file, `rechargedesk backup` / `restore`, the nightly backup and its API,
// and the upgrade of a database made by the previous release. Real `rechargedesk` processes (ServerProcess).
#include "aadhaar/aadhaarvault.h"
#include "api/backupcontroller.h"
#include "backup/nightlybackup.h"
#include "httpclient.h"
#include "serverprocess.h"
#include "sqlitefile.h"
#include "store/database.h"
#include "store/migrations.h"
#include "testserver.h"
#include "teststore.h"
#include "upstream/upstreamsettingsrepository.h"
#include "webhooks/webhookendpointrepository.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <memory>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");

/// Runs the binary with `arguments`; exit code, stdout + stderr in *output.
int cli(const QStringList &arguments, QString *output)
{
    return ServerProcess::runCli(arguments, output);
}

QString writeText(const QString &path, const QString &text)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(text.toUtf8());
    return path;
}

/// Every row of every table of the database `db`, as text, per table and sorted: two databases with the same
/// content give the same map.
QMap<QString, QStringList> everyRow(const QSqlDatabase &db)
{
    QMap<QString, QStringList> rows;
    QSqlQuery tables(db);
    tables.exec(
        db.driverName() == QLatin1String("QPSQL")
            ? QStringLiteral("SELECT table_name FROM information_schema.tables WHERE table_schema = "
                             "current_schema() AND table_type = 'BASE TABLE'")
            : QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"));
    QStringList names;
    while (tables.next())
        names.append(tables.value(0).toString());
    for (const QString &table : std::as_const(names)) {
        QSqlQuery q(db);
        q.exec(QStringLiteral("SELECT * FROM ") + table);
        QStringList &list = rows[table];
        while (q.next()) {
            QStringList cells;
            for (int i = 0; i < q.record().count(); ++i)
                cells.append(q.isNull(i) ? QStringLiteral("NULL") : q.value(i).toString());
            list.append(cells.join(QLatin1Char('|')));
        }
        list.sort();
    }
    return rows;
}

/// Wallets whose balance differs from the sum of their ledger, as "account/mode: balance != sum"; empty
/// when the invariant holds.
QStringList walletLedgerMismatches(const QSqlDatabase &db)
{
    QSqlQuery q(db);
    q.exec(QStringLiteral("SELECT w.account_id, w.mode, w.balance, (SELECT COALESCE(SUM(l.amount), 0) FROM "
                          "wallet_ledger l WHERE l.account_id = w.account_id AND l.mode = w.mode) FROM wallets w"));
    QStringList mismatches;
    while (q.next()) {
        if (q.value(2).toLongLong() != q.value(3).toLongLong())
            mismatches.append(
                QStringLiteral("%1/%2: %3 != %4")
                    .arg(q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString()));
    }
    return mismatches;
}

qint64 scalar(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery q(db);
    return q.exec(sql) && q.next() ? q.value(0).toLongLong() : -1;
}

/// The long options `serve --help` lists, with whether each takes a value.
QMap<QString, bool> serveHelpOptions()
{
    QString help;
    cli({QStringLiteral("serve"), QStringLiteral("--help")}, &help);
    static const QRegularExpression option(QStringLiteral("^ {2}(?:-\\w, )?--([a-z0-9-]+)( <[^>]+>)?"),
                                           QRegularExpression::MultilineOption);
    QMap<QString, bool> options;
    for (auto it = option.globalMatch(help); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        options.insert(match.captured(1), !match.captured(2).isEmpty());
    }
    return options;
}

/// Makes a test admin key with the CLI; the Authorization header value.
QByteArray createAdminKey(const TestStore &store)
{
    QString output;
    cli(QStringList{QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("t"),
                    QStringLiteral("--mode"), QStringLiteral("test"), QStringLiteral("--scope"),
                    QStringLiteral("admin")} +
            store.arguments(),
        &output);
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("key_id: (\\S+)\\s+key_secret: (\\S+)")).match(output);
    return match.hasMatch() ? HttpClient::basic(match.captured(1), match.captured(2)) : QByteArray();
}

/// Gives the store's test account a webhook endpoint, so the database holds a sealed secret.
bool setWebhook(const TestStore &store)
{
    QString output;
    return cli(QStringList{QStringLiteral("webhook"), QStringLiteral("set"), QStringLiteral("--mode"),
                           QStringLiteral("test"), QStringLiteral("--url"),
                           QStringLiteral("https://hooks.example.com/x"), QStringLiteral("--password"),
                           QStringLiteral("pw")} +
                   store.arguments(),
               &output) == 0;
}

/// Rewrites one file inside a backup archive with the system's tar (a foreign tool reads and writes it).
bool rewriteInArchive(const QString &archive, const QString &name, const std::function<void(const QString &)> &edit)
{
    QTemporaryDir dir;
    if (QProcess::execute(QStringLiteral("tar"), {QStringLiteral("-xzf"), archive, QStringLiteral("-C"), dir.path()}) !=
        0)
        return false;
    edit(dir.filePath(name));
    QFile::remove(archive);
    return QProcess::execute(QStringLiteral("tar"), {QStringLiteral("-czf"), archive, QStringLiteral("-C"), dir.path(),
                                                     QStringLiteral(".")}) == 0;
}

} // namespace

class TestBackup final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;

    /// Makes a store with a key, a webhook (sealed secret) and `sales` sales over HTTP, stops its server and backs
    /// it up; the archive path, or empty on failure.
    QString backupOfSellingServer(TestStore &store, QTemporaryDir &out, int sales)
    {
        const QByteArray auth = createAdminKey(store);
        if (auth.isEmpty() || !setWebhook(store))
            return {};
        ServerProcess server;
        QString error;
        if (!server.start(store, {QStringLiteral("--settle-delay-ms"), QStringLiteral("0")}, &error))
            return {};
        HttpClient http;
        for (int i = 0; i < sales; ++i) {
            QUrl url = server.url();
            url.setPath(kMobile);
            http.postJson(url,
                          QJsonObject{{QStringLiteral("phone_number"), QStringLiteral("98765%1").arg(10000 + i)},
                                      {QStringLiteral("amount"), QStringLiteral("149")},
                                      {QStringLiteral("operator_code"), QStringLiteral("AT")}},
                          auth);
        }
        server.terminate(); // at rest, so the archive equals the database (backupUnderLoad... covers a busy one)
        const QString archive = out.filePath(QStringLiteral("b.tar.gz"));
        QString output;
        const int code =
            cli(QStringList{QStringLiteral("backup"), QStringLiteral("--to"), archive} + store.arguments(), &output);
        return code == 0 ? archive : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("RECHARGEDESK_DATA_DIR", m_home.path().toUtf8());
    }

    // Every serve option is a config key, and a value in the file behaves as the same flag does (the same
    // answer from --check-config), with the file's line named when it is refused.
    void everyServeOptionIsAConfigKey()
    {
        const QMap<QString, bool> options = serveHelpOptions();
        QVERIFY2(options.size() > 15, qPrintable(QStringList(options.keys()).join(QLatin1Char(' '))));
        QVERIFY(options.contains(QStringLiteral("listen")) && options.contains(QStringLiteral("backup-keep")));
        QTemporaryDir dir;
        for (auto it = options.cbegin(); it != options.cend(); ++it) {
            const QString &name = it.key();
            if (name == QLatin1String("help") || name == QLatin1String("help-all") ||
                name == QLatin1String("version") || name == QLatin1String("config") ||
                name == QLatin1String("check-config"))
                continue;
            for (const QString &value : {QStringLiteral("7"), QStringLiteral("nonsense")}) {
                const bool takesValue = it.value();
                if (!takesValue && value != QLatin1String("7"))
                    continue;
                const QString conf = writeText(
                    dir.filePath(QStringLiteral("s.conf")),
                    QStringLiteral("# comment\n%1 = %2\n").arg(name, takesValue ? value : QStringLiteral("true")));
                QString viaFile;
                const int fileCode =
                    cli({QStringLiteral("serve"), QStringLiteral("--check-config"), QStringLiteral("--config"), conf},
                        &viaFile);
                QString viaFlag;
                const int flagCode =
                    cli({QStringLiteral("serve"), QStringLiteral("--check-config"),
                         takesValue ? QStringLiteral("--%1=%2").arg(name, value) : QStringLiteral("--") + name},
                        &viaFlag);
                QVERIFY2(!viaFile.contains(QLatin1String("unknown key")),
                         qPrintable(name + QStringLiteral(": ") + viaFile));
                QVERIFY2(fileCode == flagCode, qPrintable(name + QStringLiteral(": ") + viaFile.left(200) +
                                                          QStringLiteral(" / ") + viaFlag.left(200)));
                if (fileCode != 0)
                    QVERIFY2(viaFile.contains(conf + QStringLiteral(":2: ")) || !viaFile.contains(QLatin1String("--")),
                             qPrintable(name + QStringLiteral(": ") + viaFile));
                QCOMPARE(viaFile.remove(conf + QStringLiteral(":2: ")), viaFlag);
            }
        }
    }

    // The server runs from a config file alone (data directory, delays, nightly backup), and a flag on the
    // command line beats the file (ServerProcess adds --listen 127.0.0.1:0 over the file's unusable port).
    void serverRunsFromConfigAndFlagsOverride()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath(QStringLiteral("var/lib/rechargedesk"));
        const QString conf =
            writeText(dir.filePath(QStringLiteral("server.conf")), QStringLiteral("# RechargeDesk server\n"
                                                                                  "listen = 127.0.0.1:1\n\n"
                                                                                  "data-dir = %1\n"
                                                                                  "settle-delay-ms = 0\n"
                                                                                  "backup-at = \"03:15\"\n"
                                                                                  "backup-keep = 3\n"
                                                                                  "tls = false\n")
                                                                       .arg(data));
        ServerProcess server;
        QString error;
        QVERIFY2(server.startWithConfig(conf, {}, &error), qPrintable(error));
        QVERIFY(server.url().port() != 1);
        QVERIFY(QFileInfo::exists(data + QStringLiteral("/rechargedesk.db")));
        QVERIFY(QFileInfo::exists(server.keyFile()));
        QVERIFY(server.keyFile().startsWith(data));
        HttpClient http;
        QUrl url = server.url();
        url.setPath(QStringLiteral("/api/v1/server/backup"));
        const HttpResult state = http.get(url, HttpClient::basic(server.keyId(), server.keySecret()));
        QCOMPARE(state.status, 200);
        QCOMPARE(state.data().value(QStringLiteral("at")).toString(), QStringLiteral("03:15"));
        QCOMPARE(state.data().value(QStringLiteral("keep")).toInt(), 3);
        QCOMPARE(state.data().value(QStringLiteral("folder")).toString(), data + QStringLiteral("/backups"));
        QCOMPARE(server.terminate(), 0);
    }

    void configErrorsNameFileAndLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown key") << QStringLiteral("listen = 127.0.0.1:0\n# x\nlisen = 1\n")
                                     << QStringLiteral(":3: unknown key \"lisen\"");
        QTest::newRow("bad value") << QStringLiteral("\nsettle-delay-ms = soon\n")
                                   << QStringLiteral(":2: --settle-delay-ms must be a whole number");
        QTest::newRow("bad switch") << QStringLiteral("tls = maybe\n") << QStringLiteral(":1: tls = maybe: a switch");
        QTest::newRow("no equals") << QStringLiteral("listen 127.0.0.1:0\n")
                                   << QStringLiteral(":1: expected \"key = value\"");
        QTest::newRow("twice") << QStringLiteral("backup-keep = 2\nbackup-keep = 3\n")
                               << QStringLiteral(":2: \"backup-keep\" is set twice (first on line 1)");
        QTest::newRow("bad backup time") << QStringLiteral("backup-at = 25:00\n")
                                         << QStringLiteral(":1: --backup-at must be HH:MM (IST) or off");
    }
    void configErrorsNameFileAndLine()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString conf = writeText(dir.filePath(QStringLiteral("server.conf")), text);
        QString output;
        QCOMPARE(
            cli({QStringLiteral("serve"), QStringLiteral("--config"), conf, QStringLiteral("--data-dir"), dir.path()},
                &output),
            2);
        QVERIFY2(output.contains(conf + expected), qPrintable(output));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("rechargedesk.db")))); // refused before starting
    }

    // A writer sells over HTTP while `rechargedesk backup` runs: the archive (0600) restores into a fresh
    // directory with wallet = ledger; a second backup of the quiet server restores row for row.
    void backupUnderLoadRestoresEveryRow()
    {
        TestStore store;
        const QByteArray auth = createAdminKey(store);
        QVERIFY(!auth.isEmpty());
        QVERIFY(setWebhook(store));
        QString topup;
        QCOMPARE(cli(QStringList{QStringLiteral("wallet"), QStringLiteral("topup"), QStringLiteral("--mode"),
                                 QStringLiteral("test"), QStringLiteral("--amount"), QStringLiteral("100000"),
                                 QStringLiteral("--note"), QStringLiteral("load")} +
                         store.arguments(),
                     &topup),
                 0);
        ServerProcess server;
        QString error;
        QVERIFY2(server.start(store, {QStringLiteral("--settle-delay-ms"), QStringLiteral("0")}, &error),
                 qPrintable(error));
        QTemporaryDir out;
        const QString underLoad = out.filePath(QStringLiteral("under-load.tar.gz"));
        QProcess backup;
        HttpClient http;
        QUrl sale = server.url();
        sale.setPath(kMobile);
        int sold = 0;
        int soldDuringBackup = 0;
        for (int i = 0; i < 400 && (i < 30 || backup.state() != QProcess::NotRunning || soldDuringBackup == 0); ++i) {
            if (i == 20)
                backup.start(ServerProcess::binary(),
                             QStringList{QStringLiteral("backup"), QStringLiteral("--to"), underLoad} +
                                 store.arguments());
            const HttpResult result =
                http.postJson(sale,
                              QJsonObject{{QStringLiteral("phone_number"), QStringLiteral("98765%1").arg(10000 + i)},
                                          {QStringLiteral("amount"), QStringLiteral("149")},
                                          {QStringLiteral("operator_code"), QStringLiteral("AT")}},
                              auth);
            QCOMPARE(result.status, 200);
            ++sold;
            if (backup.state() == QProcess::Running)
                ++soldDuringBackup;
        }
        QVERIFY(backup.state() == QProcess::NotRunning || backup.waitForFinished(60'000));
        QVERIFY2(backup.exitCode() == 0, backup.readAllStandardError().constData());
        QVERIFY2(soldDuringBackup > 0, "the writer never overlapped the backup");
        QCOMPARE(QFileInfo(underLoad).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther |
                                                       QFileDevice::WriteGroup | QFileDevice::WriteOther),
                 QFileDevice::Permissions());

        // Stopped now (nothing moves: the outbox and settlements rest): a second backup must equal the
        // database row for row after a restore.
        QCOMPARE(server.terminate(), 0);
        const QString quiet = out.filePath(QStringLiteral("quiet.tar.gz"));
        QString output;
        QCOMPARE(cli(QStringList{QStringLiteral("backup"), QStringLiteral("--to"), quiet} + store.arguments(), &output),
                 0);
        QVERIFY2(output.contains(QLatin1String("Backup written")), qPrintable(output));

        QMap<QString, QStringList> live;
        {
            const QSqlDatabase db = store.openReadOnly(QStringLiteral("live"));
            QVERIFY(db.isOpen());
            live = everyRow(db);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("live"));
        QCOMPARE(live.value(QStringLiteral("transactions")).size(), sold);

        if (TestStore::postgres())
            QSKIP("PostgreSQL restores into a fresh database: restoreIntoFreshPostgres");
        for (const QString &archive : {underLoad, quiet}) {
            QTemporaryDir fresh;
            const QString target = fresh.filePath(QStringLiteral("restored"));
            QCOMPARE(cli({QStringLiteral("restore"), QStringLiteral("--from"), archive, QStringLiteral("--data-dir"),
                          target},
                         &output),
                     0);
            QVERIFY2(output.contains(QLatin1String("integrity_check: ok")), qPrintable(output));
            QVERIFY2(output.contains(QLatin1String("vault key: opens all")), qPrintable(output));
            const SqliteFile restored(target + QStringLiteral("/rechargedesk.db"));
            QVERIFY(restored.db().isOpen());
            QCOMPARE(walletLedgerMismatches(restored.db()), QStringList());
            QVERIFY(QFileInfo::exists(target + QStringLiteral("/keys/aadhaar.key")));
            const QMap<QString, QStringList> rows = everyRow(restored.db());
            if (archive == quiet) {
                QCOMPARE(rows.keys(), live.keys());
                for (auto it = live.cbegin(); it != live.cend(); ++it)
                    QCOMPARE(rows.value(it.key()), it.value());
            } else {
                // A moment of the running server: some sales, every one of them complete.
                const qint64 count = rows.value(QStringLiteral("transactions")).size();
                QVERIFY(count >= 20 && count <= sold);
                QCOMPARE(scalar(restored.db(),
                                QStringLiteral("SELECT COUNT(*) FROM transactions t WHERE NOT EXISTS "
                                               "(SELECT 1 FROM wallet_ledger l WHERE l.transaction_id = t.id)")),
                         0);
            }
        }
    }

    // Restore refuses, before it changes anything: a directory with a running server, a backup of a newer
    // schema, a vault key that does not open the sealed rows, a damaged database, an existing database.
    void restoreChecksBeforeReplacing()
    {
        if (TestStore::postgres())
            QSKIP("SQLite archives");
        TestStore store;
        QTemporaryDir out;
        const QString archive = backupOfSellingServer(store, out, 3);
        QVERIFY(!archive.isEmpty());
        QString output;

        // A live server's directory.
        {
            ServerProcess server;
            QString error;
            QVERIFY2(server.start(store, {}, &error), qPrintable(error));
            QCOMPARE(cli({QStringLiteral("restore"), QStringLiteral("--from"), archive, QStringLiteral("--data-dir"),
                          store.path(), QStringLiteral("--replace")},
                         &output),
                     1);
            QVERIFY2(output.contains(QLatin1String("server is running")), qPrintable(output));
            QCOMPARE(server.terminate(), 0);
        }
        // An existing database without --replace.
        QCOMPARE(cli({QStringLiteral("restore"), QStringLiteral("--from"), archive, QStringLiteral("--data-dir"),
                      store.path()},
                     &output),
                 1);
        QVERIFY2(output.contains(QLatin1String("holds a database already")), qPrintable(output));

        const auto refused = [&](const QString &name, const std::function<void(const QString &)> &edit,
                                 const QString &expected) {
            const QString copy = out.filePath(QStringLiteral("edited.tar.gz"));
            QFile::remove(copy);
            QVERIFY(QFile::copy(archive, copy));
            QVERIFY(rewriteInArchive(copy, name, edit));
            QTemporaryDir fresh;
            QCOMPARE(cli({QStringLiteral("restore"), QStringLiteral("--from"), copy, QStringLiteral("--data-dir"),
                          fresh.filePath(QStringLiteral("d"))},
                         &output),
                     1);
            QVERIFY2(output.contains(expected), qPrintable(output));
            QVERIFY(!QFileInfo::exists(fresh.filePath(QStringLiteral("d/rechargedesk.db"))));
            QVERIFY(!QFileInfo::exists(fresh.filePath(QStringLiteral("d/keys/aadhaar.key"))));
        };
        refused(
            QStringLiteral("manifest.json"),
            [](const QString &path) {
                QFile file(path);
                QVERIFY(file.open(QIODevice::ReadOnly));
                QJsonObject manifest = QJsonDocument::fromJson(file.readAll()).object();
                file.close();
                manifest[QStringLiteral("schema_version")] = allMigrations().constLast().version + 1;
                writeText(path, QString::fromUtf8(QJsonDocument(manifest).toJson()));
            },
            QStringLiteral("made by a newer RechargeDesk"));
        refused(
            QStringLiteral("database/rechargedesk.db"),
            [](const QString &path) {
                const SqliteFile db(path);
                QSqlQuery q(db.db());
                QVERIFY(q.exec(QStringLiteral("INSERT INTO schema_migrations (version, applied_at) VALUES (%1, 0)")
                                   .arg(allMigrations().constLast().version + 1)));
            },
            QStringLiteral("this RechargeDesk knows up to"));
        refused(
            QStringLiteral("data/keys/aadhaar.key"),
            [](const QString &path) { writeText(path, QStringLiteral("0123456789abcdef0123456789abcdef")); },
            QStringLiteral("vault key does not open"));
        refused(
            QStringLiteral("database/rechargedesk.db"),
            [](const QString &path) {
                QFile file(path);
                QVERIFY(file.open(QIODevice::ReadWrite));
                for (qint64 at = 8192; at < file.size(); at += 4096) { // every page but the first two
                    file.seek(at + 100);
                    file.write(QByteArray(200, '\xa5'));
                }
            },
            QStringLiteral("damaged"));
        // The untouched archive, --replace: the old database is kept beside.
        QCOMPARE(cli({QStringLiteral("restore"), QStringLiteral("--from"), archive, QStringLiteral("--data-dir"),
                      store.path(), QStringLiteral("--replace")},
                     &output),
                 0);
        QVERIFY(!QDir(store.path()).entryList({QStringLiteral("rechargedesk.db.before-restore-*")}).isEmpty());
    }

    // The nightly backup: at its IST time (a ManualClock one second before it) the server writes an archive into
    // the folder and keeps the last N; GET /api/v1/server/backup shows the newest, stale once 2 days pass.
    void nightlyBackupRunsKeepsAndReports()
    {
        if (TestStore::postgres())
            QSKIP("the SQLite archive; pg_dump is covered by restoreIntoFreshPostgres");
        const QDateTime start(QDate(2026, 11, 24), QTime(2, 29, 59), QTimeZone(IstTime::kOffsetSeconds));
        ManualClock clock(start);
        QTemporaryDir folder;
        ServerOptions options = TestServer::defaultOptions();
        options.backup.at = QTime(2, 30);
        options.backup.keep = 2;
        options.backup.dir = folder.filePath(QStringLiteral("nightly"));
        TestServer server(options, &clock);
        const QUrl stateUrl = server.url(QStringLiteral("/api/v1/server/backup"));
        HttpResult state = server.http().get(stateUrl, server.admin());
        QCOMPARE(state.status, 200);
        QCOMPARE(state.data().value(QStringLiteral("last_backup")).type(), QJsonValue::Null);
        QCOMPARE(state.data().value(QStringLiteral("stale")).toBool(), true);
        QCOMPARE(state.data().value(QStringLiteral("next_run_at")).toString(), QStringLiteral("2026-11-24 02:30:00"));
        QCOMPARE(server.http().get(stateUrl, server.pos()).status, 403);

        const BackupFolder backups(options.backup.dir);
        NightlyBackup *nightly = server.server().nightlyBackup();
        QVERIFY(nightly);
        QSignalSpy finished(nightly, &NightlyBackup::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15'000); // the timer, one second after start
        QCOMPARE(finished.at(0).at(1).toString(), QString());
        QCOMPARE(backups.backups().size(), 1);
        QCOMPARE(backups.backups().constFirst().fileName(), QStringLiteral("rechargedesk-20261124-022959.tar.gz"));
        for (int run = 2; run <= 3; ++run) {
            clock.advanceMs(24LL * 3600 * 1000);
            QVERIFY(nightly->runNow());
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), run, 15'000);
        }
        QCOMPARE(backups.backups().size(), 2); // keep = 2: the first one is gone
        QCOMPARE(backups.backups().constFirst().fileName(), QStringLiteral("rechargedesk-20261126-022959.tar.gz"));
        QCOMPARE(QFileInfo(backups.backups().constFirst()).permissions() & QFileDevice::ReadOther,
                 QFileDevice::Permissions());

        state = server.http().get(stateUrl, server.admin());
        QCOMPARE(state.data().value(QStringLiteral("enabled")).toBool(), true);
        const QJsonObject last = state.data().value(QStringLiteral("last_backup")).toObject();
        QCOMPARE(last.value(QStringLiteral("file")).toString(), QStringLiteral("rechargedesk-20261126-022959.tar.gz"));
        QCOMPARE(last.value(QStringLiteral("created_at")).toString(), QStringLiteral("2026-11-26 02:29:59"));
        QVERIFY(last.value(QStringLiteral("bytes")).toInteger() > 1000);
        QCOMPARE(state.data().value(QStringLiteral("stale")).toBool(), false);
        clock.advanceMs(BackupController::kStaleMs + 1000);
        state = server.http().get(stateUrl, server.admin());
        QCOMPARE(state.data().value(QStringLiteral("stale")).toBool(), true);
    }

    // PostgreSQL: pg_dump's archive of a running server loads into a fresh database (pg_restore, one
    // transaction), row for row, wallet = ledger, and a second restore into the now full database is refused.
    void restoreIntoFreshPostgres()
    {
        if (!TestStore::postgres())
            QSKIP("PostgreSQL only (pg_backup)");
        TestStore store;
        QTemporaryDir out;
        const QString archive = backupOfSellingServer(store, out, 5);
        QVERIFY(!archive.isEmpty());
        const QString name = QStringLiteral("restore_%1").arg(QCoreApplication::applicationPid());
        QCOMPARE(QProcess::execute(QStringLiteral("createdb"), {name}), 0);
        const auto dropAtEnd = qScopeGuard([&name] { QProcess::execute(QStringLiteral("dropdb"), {name}); });
        QUrl target(store.location());
        target.setPath(QLatin1Char('/') + name);
        QTemporaryDir fresh;
        QString output;
        const QStringList restore{QStringLiteral("restore"),
                                  QStringLiteral("--from"),
                                  archive,
                                  QStringLiteral("--data-dir"),
                                  fresh.filePath(QStringLiteral("d")),
                                  QStringLiteral("--database"),
                                  target.toString()};
        QCOMPARE(cli(restore, &output), 0);
        QVERIFY2(output.contains(QLatin1String("vault key: opens all")), qPrintable(output));
        QStringList again = restore;
        again[4] = fresh.filePath(QStringLiteral("d2"));
        QCOMPARE(cli(again, &output), 1); // the tables exist now: pg_restore fails, its transaction rolls back
        QVERIFY2(output.contains(QLatin1String("left as it was")), qPrintable(output));

        QMap<QString, QStringList> live;
        QMap<QString, QStringList> restored;
        {
            const QSqlDatabase db = store.openReadOnly(QStringLiteral("live"));
            QVERIFY(db.isOpen());
            live = everyRow(db);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("live"));
        {
            QString error;
            std::unique_ptr<Database> db = Database::open(target.toString(), &error);
            QVERIFY2(db, qPrintable(error));
            restored = everyRow(db->connection());
            QCOMPARE(walletLedgerMismatches(db->connection()), QStringList());
        }
        QCOMPARE(restored.keys(), live.keys());
        for (auto it = live.cbegin(); it != live.cend(); ++it)
            QCOMPARE(restored.value(it.key()), it.value());
    }

    // Upgrades: the database of the previous release (made by main at c58a3b5 with
    // tests/fixtures/make-release-fixture.sh: a shop, users, keys, a top-up, five sales, a webhook endpoint and an
    // upstream with sealed secrets) opens with this release, migrates, keeps every row, wallet = ledger, and
    // its sealed secrets open with the fixture's vault key.
    void upgradesThePreviousReleasesDatabase()
    {
        if (TestStore::postgres())
            QSKIP("the fixture is an SQLite file");
        const QString fixture = QStringLiteral(RECHARGEDESK_FIXTURES "/release-c58a3b5");
        QTemporaryDir dir;
        QVERIFY(
            QFile::copy(fixture + QStringLiteral("/rechargedesk.db"), dir.filePath(QStringLiteral("rechargedesk.db"))));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("keys")));
        const QString keyFile = dir.filePath(QStringLiteral("keys/aadhaar.key"));
        QVERIFY(QFile::copy(fixture + QStringLiteral("/keys/aadhaar.key"), keyFile));
        // A checkout does not keep modes; the vault insists on an owner-only key file.
        QVERIFY(QFile::setPermissions(keyFile, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(QFile::setPermissions(dir.filePath(QStringLiteral("rechargedesk.db")),
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QMap<QString, QStringList> before;
        {
            const SqliteFile old(dir.filePath(QStringLiteral("rechargedesk.db")));
            before = everyRow(old.db());
        }
        QCOMPARE(before.value(QStringLiteral("transactions")).size(), 5);

        QString error;
        std::unique_ptr<Database> db = Database::open(dir.filePath(QStringLiteral("rechargedesk.db")), &error);
        QVERIFY2(db, qPrintable(error));
        QCOMPARE(db->schemaVersion(), allMigrations().constLast().version);
        const QMap<QString, QStringList> after = everyRow(db->connection());
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            if (it.key() != QLatin1String("schema_migrations"))
                QCOMPARE(after.value(it.key()).size(), it.value().size());
        }
        QCOMPARE(walletLedgerMismatches(db->connection()), QStringList());
        QCOMPARE(scalar(db->connection(), QStringLiteral("SELECT COUNT(*) FROM users")), 1);
        QVERIFY(scalar(db->connection(), QStringLiteral("SELECT COUNT(*) FROM api_keys")) >= 2);
        QCOMPARE(scalar(db->connection(), QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'topup'")),
                 1);

        std::optional<AadhaarVault> vault = AadhaarVault::openOrCreate(keyFile, &error);
        QVERIFY2(vault, qPrintable(error));
        const QList<WebhookEndpoint> endpoints = WebhookEndpointRepository(*db, &*vault).all();
        QCOMPARE(endpoints.size(), 1);
        QVERIFY(endpoints.constFirst().secret.startsWith(QLatin1String("whsec_")));
        QCOMPARE(endpoints.constFirst().password, QStringLiteral("fixture-pw"));
        const std::optional<UpstreamSettings> upstream = UpstreamSettingsRepository(*db, &*vault).load();
        QVERIFY(upstream);
        QCOMPARE(upstream->keySecret, QStringLiteral("fixture-upstream-secret"));
    }
};

QTEST_GUILESS_MAIN(TestBackup)
#include "tst_backup.moc"
