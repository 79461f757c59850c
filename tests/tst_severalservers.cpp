// Issue 16, first steps: several `rechargedesk serve` processes on one PostgreSQL database. Real server processes
// (support/serverprocess.h) over real HTTP. PostgreSQL only: CTest runs it as pg_severalservers through
// tests/tools/with_postgres.sh, which skips it (exit 77) when no PostgreSQL can be started.
#include "httpclient.h"
#include "salesapitest.h"
#include "serverprocess.h"
#include "store/migrations.h"
#include "teststore.h"

#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <array>

namespace {

/// The search_path schema of a TestStore's postgres:// location (its `options=-csearch_path=...`).
QString schemaOf(const TestStore &store)
{
    const QString options =
        QUrlQuery(QUrl(store.location())).queryItemValue(QStringLiteral("options"), QUrl::FullyDecoded);
    return options.section(QLatin1Char('='), 1);
}

} // namespace

class TestSeveralServers final : public QObject
{
    Q_OBJECT

private:
    /// A superuser connection of the test (libpq takes the PG* variables pg_virtualenv sets) with search_path set to
    /// `schema`; asserts that `sql` works.
    void admin(const QString &sql, const QString &schema = {})
    {
        QSqlDatabase db = QSqlDatabase::database(QStringLiteral("admin"), false);
        if (!db.isValid())
            db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("admin"));
        QVERIFY2(db.isOpen() || db.open(), qPrintable(db.lastError().text()));
        QSqlQuery query(db);
        if (!schema.isEmpty())
            QVERIFY(query.exec(QStringLiteral("SET search_path = ") + schema));
        QVERIFY2(query.exec(sql), qPrintable(sql + QStringLiteral(": ") + query.lastError().text()));
        m_last = query.next() ? query.value(0) : QVariant();
    }
    /// The first column of the first row of the last admin() statement.
    QVariant m_last;
    HttpClient m_http;

private slots:
    void initTestCase()
    {
        if (!TestStore::postgres())
            QSKIP("PostgreSQL only: run as pg_severalservers (tests/tools/with_postgres.sh)");
    }

    void cleanupTestCase() { QSqlDatabase::removeDatabase(QStringLiteral("admin")); }

    /// Three servers start at the same moment on one fresh database: every migration runs once (one server
    /// migrates under the advisory lock, the others wait and find the schema current), none fails, all are ready.
    void threeServersStartTogether()
    {
        TestStore store;
        std::array<QTemporaryDir, 3> dirs;
        std::array<ServerProcess, 3> servers;
        QString error;
        for (std::size_t i = 0; i < servers.size(); ++i) {
            QVERIFY(dirs[i].isValid());
            QVERIFY2(servers[i].launch(
                         {QStringLiteral("--data-dir"), dirs[i].path(), QStringLiteral("--database"), store.location()},
                         &error),
                     qPrintable(error));
        }
        for (ServerProcess &server : servers)
            QVERIFY2(server.waitUntilListening(&error), qPrintable(error));

        const QString schema = schemaOf(store);
        admin(QStringLiteral("SELECT COUNT(*) FROM schema_migrations"), schema);
        QCOMPARE(m_last.toInt(), allMigrations().size());
        admin(QStringLiteral("SELECT COUNT(DISTINCT version) FROM schema_migrations"), schema);
        QCOMPARE(m_last.toInt(), allMigrations().size());
        for (ServerProcess &server : servers) {
            const HttpResult ready = m_http.get(server.url().resolved(QUrl(QStringLiteral("/readyz"))));
            QCOMPARE(ready.status, 200);
            QCOMPARE(ready.json().value(QStringLiteral("schema_version")).toInt(), allMigrations().last().version);
            const QString output = server.readOutput();
            QVERIFY2(!output.contains(QLatin1String("already exists")) && !output.contains(QLatin1String("ERROR")),
                     qPrintable(output));
        }
        for (ServerProcess &server : servers)
            QCOMPARE(server.terminate(), 0);
    }

    /// The database goes away under a running server (its role may no longer log in and its sessions are ended):
    /// sales and /readyz answer 503 with Retry-After and write nothing; once the database is back, the server
    /// reconnects by itself and sells again, and every wallet equals its ledger.
    void lostDatabaseAnswers503UntilItIsBack()
    {
        TestStore store;
        const QString schema = schemaOf(store);
        const QString role = QStringLiteral("rd_outage_%1")
                                 .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
        admin(QStringLiteral("CREATE ROLE %1 LOGIN PASSWORD 'outage'").arg(role));
        admin(QStringLiteral("GRANT ALL ON SCHEMA %1 TO %2").arg(schema, role));
        QUrl location(store.location());
        location.setUserName(role);
        location.setPassword(QStringLiteral("outage"));

        QTemporaryDir dir;
        ServerProcess server;
        QString error;
        QVERIFY2(server.start(dir.path(), {QStringLiteral("--database"), location.toString()}, &error),
                 qPrintable(error));
        const QByteArray key = HttpClient::basic(server.keyId(), server.keySecret());
        const auto url = [&server](const QString &path) { return server.url().resolved(QUrl(path)); };
        const auto sell = [&](const QString &reference) {
            return m_http.postJson(url(kMobile),
                                   mobileBody(QStringLiteral("9876543210"), 199, QStringLiteral("RJ"), reference), key);
        };
        QCOMPARE(sell(QStringLiteral("before")).status, 200);

        // The outage: no new session for the server's role, and its sessions ended.
        admin(QStringLiteral("ALTER ROLE %1 NOLOGIN").arg(role));
        admin(
            QStringLiteral("SELECT COUNT(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity WHERE usename = '%1'")
                .arg(role));
        for (const QString &path : {QStringLiteral("/readyz"), kMobile}) {
            const HttpResult r = path == kMobile ? sell(QStringLiteral("during")) : m_http.get(url(path));
            const QString why = path + QStringLiteral(": %1 %2").arg(r.status).arg(QString::fromUtf8(r.body));
            QVERIFY2(r.status == 503, qPrintable(why));
            QCOMPARE(r.error().value(QStringLiteral("code")).toString(), QStringLiteral("GATEWAY_ERROR"));
            QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("database_unavailable"));
            QVERIFY2(r.header("Retry-After").toInt() >= 1, r.header("Retry-After").constData());
        }
        QCOMPARE(m_http.get(url(QStringLiteral("/healthz"))).status, 503);

        // Back: the server reconnects on its own (backoff 0.5 s doubling up to 10 s), without a restart.
        admin(QStringLiteral("ALTER ROLE %1 LOGIN").arg(role));
        QTRY_COMPARE_WITH_TIMEOUT(m_http.get(url(QStringLiteral("/readyz"))).status, 200, 30'000);
        const HttpResult after = sell(QStringLiteral("during"));
        QCOMPARE(after.status, 200);
        QCOMPARE(after.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));

        // The sale refused during the outage left nothing: its reference_id made exactly one sale, after it.
        admin(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = 'during'"), schema);
        QCOMPARE(m_last.toInt(), 1);
        admin(QStringLiteral("SELECT COUNT(*) FROM transactions"), schema);
        QCOMPARE(m_last.toInt(), 2);
        admin(QStringLiteral("SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT COALESCE(SUM(amount), 0)"
                             " FROM wallet_ledger l WHERE l.account_id = w.account_id AND l.mode = w.mode)"),
              schema);
        QCOMPARE(m_last.toInt(), 0);
        QVERIFY2(server.readOutput().contains(QLatin1String("reconnected to PostgreSQL")), "no reconnection logged");
        QCOMPARE(server.terminate(), 0);
        admin(QStringLiteral("DROP OWNED BY %1").arg(role));
        admin(QStringLiteral("DROP ROLE %1").arg(role));
    }
};

QTEST_GUILESS_MAIN(TestSeveralServers)
#include "tst_severalservers.moc"
