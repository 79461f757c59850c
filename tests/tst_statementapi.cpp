// The statement routes of issue 26 ("By the upstream's statement") over real HTTP: POST /api/v1/upstreams/{name}/
// statements (live admin) reconciles an upstream's CSV statement with the sales sent to it and answers the stored run;
// GET …/statements and …/statements/{id} (admin) read the runs back. Who may call them, 404 for an unknown upstream,
// 400 naming the problem with nothing changed, 413 over the route's own body limit (and a body over 64 KiB granted to
// a live admin only), and one statement that settles, reverses, reports mismatches and lists what is not ours, taken
// over once however often it is imported. Real live sales through the stand-in aggregator of the spec
// (support/specaggregator.h); the shop's wallet stays equal to its ledger.
#include "entities/collection.h"
#include "entities/statementrun.h"
#include "ledgercheck.h"
#include "specaggregator.h"
#include "support/testserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace {

const QString kCredential = QStringLiteral("ak_live_statement_tests_0001");
const QString kWebhookPassword = QStringLiteral("statement-hook-password");
const QString kStatements = QStringLiteral("/api/v1/upstreams/default/statements");
constexpr qint64 kStatementLimit = 3 * 1024 * 1024; ///< ServerOptions::maxStatementBytes of these tests

using Headers = QList<std::pair<QByteArray, QByteArray>>;

QJsonObject statementBody(const QString &csv, const QJsonObject &columns = {})
{
    QJsonObject body{{QStringLiteral("file_name"), QStringLiteral("april.csv")}, {QStringLiteral("csv"), csv}};
    if (!columns.isEmpty())
        body.insert(QStringLiteral("columns"), columns);
    return body;
}

QString statusOf(const QJsonObject &record)
{
    return record.value(QStringLiteral("transaction_status")).toString();
}

} // namespace

class TestStatementApi final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<SpecAggregator> m_aggregator;
    std::unique_ptr<TestServer> m_server;
    QByteArray m_livePos;

    HttpResult call(const QByteArray &method, const QString &path, const QByteArray &key, const QJsonObject &body = {})
    {
        return m_server->http().sendJson(method, m_server->url(path), key, body);
    }
    HttpResult import(const QJsonObject &body, const QByteArray &key) { return call("POST", kStatements, key, body); }

    qint64 count(const QString &sql) const { return m_server->store().scalar(sql); }
    qint64 runs() const { return count(QStringLiteral("SELECT COUNT(*) FROM statement_runs")); }
    qint64 refunds(qint64 id) const
    {
        return count(
            QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = %1 AND kind = 'refund'").arg(id));
    }

    /// The shop's record of a sale (live pos key).
    QJsonObject sale(qint64 id)
    {
        return call("GET", QStringLiteral("/api/v1/transactions/%1").arg(id), m_livePos).data();
    }
    QString referenceOf(qint64 id)
    {
        return sale(id).value(QStringLiteral("upstream")).toObject().value(QStringLiteral("reference_id")).toString();
    }

    /// A live mobile sale of ₹249 through the aggregator (its outcome by the number's last digits); its id.
    qint64 sell(const QString &number)
    {
        const HttpResult r = call("POST", QStringLiteral("/api/v1/recharge/mobile/initiate-transaction"), m_livePos,
                                  QJsonObject{{QStringLiteral("phone_number"), number},
                                              {QStringLiteral("amount"), 249},
                                              {QStringLiteral("operator_code"), QStringLiteral("AT")}});
        if (r.status != 200)
            qWarning("sale refused: %d %s", r.status, r.body.constData());
        return r.data().value(QStringLiteral("transaction_id")).toInteger();
    }

    /// Points the shop at the aggregator (its dashboard credential) and funds the live wallet.
    void configureUpstream()
    {
        HttpResult r = call("PUT", QStringLiteral("/api/v1/upstream"), m_server->liveAdmin(),
                            QJsonObject{{QStringLiteral("base_url"), m_aggregator->baseUrl().toString()},
                                        {QStringLiteral("credential"), kCredential},
                                        {QStringLiteral("webhook_password"), kWebhookPassword}});
        QVERIFY2(r.status == 200, r.body.constData());
        r = call("POST", QStringLiteral("/api/v1/wallet/topups"), m_server->liveAdmin(),
                 QJsonObject{{QStringLiteral("amount"), 100000}, {QStringLiteral("note"), QStringLiteral("float")}});
        QVERIFY2(r.status == 200 || r.status == 201, r.body.constData());
        m_aggregator->setWebhook(m_server->url(QStringLiteral("/hooks/upstream")), kWebhookPassword);
    }

    /// What the bad input tests check after each refusal: no run stored, the pending sale untouched, money kept.
    void expectNothingChanged(qint64 pending)
    {
        QCOMPARE(runs(), 0);
        QCOMPARE(statusOf(sale(pending)), QStringLiteral("PENDING"));
        QCOMPARE(refunds(pending), 0);
    }

private slots:
    void initTestCase()
    {
        m_aggregator = std::make_unique<SpecAggregator>(kCredential);
        QString error;
        QVERIFY2(m_aggregator->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
    }

    void init()
    {
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamTimeoutMs = 3000;
        options.upstreamRetryScale = 0.01;
        options.maxStatementBytes = kStatementLimit;
        m_server = std::make_unique<TestServer>(options);
        m_livePos = m_server->createKey(Mode::Live, Scope::Pos);
        m_aggregator->setOutcome(std::nullopt);
        m_aggregator->setAutomaticWebhooks(false); // PENDING sales stay PENDING until a statement ends them
    }

    void cleanup()
    {
        if (m_server) {
            const QString problems = ledgerProblems(m_server->store(), QStringLiteral("shop"));
            QVERIFY2(problems.isEmpty(), qPrintable(problems));
        }
        m_server.reset();
    }

    void cleanupTestCase() { m_aggregator.reset(); }

    // POST: live admin only (a test admin key changes only test-mode things); the GETs: admin.
    void roles_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("who");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");
        const QString one = kStatements + QStringLiteral("/1");
        QTest::newRow("POST, test pos") << QByteArray("POST") << kStatements << "test pos" << 403
                                        << "admin_scope_required";
        QTest::newRow("POST, live pos") << QByteArray("POST") << kStatements << "live pos" << 403
                                        << "admin_scope_required";
        QTest::newRow("POST, test admin")
            << QByteArray("POST") << kStatements << "test admin" << 403 << "live_authority_required";
        QTest::newRow("POST, no key") << QByteArray("POST") << kStatements << "none" << 401 << "";
        QTest::newRow("POST, live admin") << QByteArray("POST") << kStatements << "live admin" << 200 << "";
        QTest::newRow("list, test pos") << QByteArray("GET") << kStatements << "test pos" << 403
                                        << "admin_scope_required";
        QTest::newRow("list, live pos") << QByteArray("GET") << kStatements << "live pos" << 403
                                        << "admin_scope_required";
        QTest::newRow("list, test admin") << QByteArray("GET") << kStatements << "test admin" << 200 << "";
        QTest::newRow("list, live admin") << QByteArray("GET") << kStatements << "live admin" << 200 << "";
        QTest::newRow("one, test pos") << QByteArray("GET") << one << "test pos" << 403 << "admin_scope_required";
        QTest::newRow("one, no key") << QByteArray("GET") << one << "none" << 401 << "";
    }
    void roles()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QString, who);
        QFETCH(int, status);
        QFETCH(QString, reason);
        configureUpstream();
        const QByteArray key = who == QLatin1String("test pos")     ? m_server->pos()
                               : who == QLatin1String("live pos")   ? m_livePos
                               : who == QLatin1String("test admin") ? m_server->admin()
                               : who == QLatin1String("live admin") ? m_server->liveAdmin()
                                                                    : QByteArray();
        const HttpResult r = call(method, path, key, statementBody(QStringLiteral("Reference ID,Status\r\n")));
        QVERIFY2(r.status == status, r.body.constData());
        if (!reason.isEmpty())
            QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), reason);
        QCOMPARE(runs(), method == "POST" && status == 200 ? 1 : 0);
    }

    // An upstream of another name, or none at all: 404 on every route; an unknown run: 404.
    void unknownUpstreamOrRun()
    {
        const QByteArray admin = m_server->liveAdmin();
        HttpResult r = import(statementBody(QStringLiteral("Reference ID,Status\r\n")), admin);
        QCOMPARE(r.status, 404); // nothing configured yet
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("unknown_upstream"));
        configureUpstream();
        for (const QByteArray &method : {QByteArray("POST"), QByteArray("GET")}) {
            r = call(method, QStringLiteral("/api/v1/upstreams/other/statements"), admin,
                     statementBody(QStringLiteral("Reference ID,Status\r\n")));
            QVERIFY2(r.status == 404, r.body.constData());
            QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("unknown_upstream"));
        }
        r = call("GET", QStringLiteral("/api/v1/upstreams/other/statements/1"), admin);
        QCOMPARE(r.status, 404);
        r = call("GET", kStatements + QStringLiteral("/999999"), admin);
        QCOMPARE(r.status, 404);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("unknown_statement_run"));
        r = call("GET", kStatements + QStringLiteral("/not-a-number"), admin);
        QCOMPARE(r.status, 404);
        QCOMPARE(runs(), 0);
        r = call("GET", kStatements, admin);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("count")).toInt(), 0);
    }

    // Each refusal names its problem (field and reason); the statement's good rows are not taken over either.
    void badInput_data()
    {
        QTest::addColumn<QJsonObject>("body"); // "%REF%" in csv: the pending sale's reference
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        const QString good =
            QStringLiteral("Reference ID,Status,Amount\r\n%REF%,SUCCESS,249.00\r\nrd-nobody-1,FAILED,10\r\n");
        const auto without = [&](const char *field) {
            QJsonObject body = statementBody(good);
            body.remove(QLatin1String(field));
            return body;
        };
        const auto with = [&](const char *field, const QJsonValue &value) {
            QJsonObject body = statementBody(good);
            body.insert(QLatin1String(field), value);
            return body;
        };
        QTest::newRow("no file_name") << without("file_name") << "file_name"
                                      << "missing_field";
        QTest::newRow("file_name too long") << with("file_name", QString(256, QLatin1Char('a'))) << "file_name"
                                            << "file_name_too_long";
        QTest::newRow("file_name not a string") << with("file_name", 7) << "file_name"
                                                << "invalid_type";
        QTest::newRow("no csv") << without("csv") << "csv"
                                << "missing_field";
        QTest::newRow("csv not a string") << with("csv", QJsonArray{1, 2}) << "csv"
                                          << "invalid_type";
        QTest::newRow("empty csv") << with("csv", QString()) << "csv"
                                   << "no_header";
        QTest::newRow("columns not an object") << with("columns", QStringLiteral("reference_id=Ref")) << "columns"
                                               << "invalid_type";
        QTest::newRow("a column name not a string")
            << with("columns", QJsonObject{{QStringLiteral("status"), 5}}) << "columns.status"
            << "invalid_type";
        QTest::newRow("an empty column name")
            << with("columns", QJsonObject{{QStringLiteral("status"), QString()}}) << "columns.status"
            << "invalid_column_name";
        QTest::newRow("an unknown field mapped")
            << with("columns", QJsonObject{{QStringLiteral("operator"), QStringLiteral("Op")}}) << "columns"
            << "unknown_column_field";
        QTest::newRow("a mapped header missing")
            << with("columns", QJsonObject{{QStringLiteral("status"), QStringLiteral("State")}}) << "columns.status"
            << "column_not_found";
        QTest::newRow("no reference column")
            << statementBody(QStringLiteral("Status,Amount\r\nSUCCESS,249\r\n")) << "csv"
            << "no_reference_column";
        QTest::newRow("no status column")
            << statementBody(QStringLiteral("Reference ID,Amount\r\n%REF%,249\r\n")) << "csv"
            << "no_status_column";
        QTest::newRow("a row with more fields")
            << statementBody(QStringLiteral("Reference ID,Status\r\n%REF%,SUCCESS\r\nrd-x-2,SUCCESS,late\r\n")) << "csv"
            << "field_count";
        QTest::newRow("a row with fewer fields")
            << statementBody(QStringLiteral("Reference ID,Status,Amount\r\n%REF%,SUCCESS,249\r\nrd-x-2,FAILED\r\n"))
            << "csv"
            << "field_count";
        QString many = QStringLiteral("Reference ID,Status\r\n%REF%,SUCCESS\r\n");
        for (int i = 0; i < 100'000; ++i)
            many += QStringLiteral("x%1,FAILED\r\n").arg(i);
        QTest::newRow("over 100,000 rows") << statementBody(many) << "csv"
                                           << "too_many_rows";
    }
    void badInput()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        configureUpstream();
        const qint64 pending = sell(QStringLiteral("9876541111"));
        QVERIFY(pending > 0);
        QCOMPARE(statusOf(sale(pending)), QStringLiteral("PENDING"));
        if (body.value(QStringLiteral("csv")).isString())
            body.insert(
                QStringLiteral("csv"),
                body.value(QStringLiteral("csv")).toString().replace(QStringLiteral("%REF%"), referenceOf(pending)));
        const HttpResult r = import(body, m_server->liveAdmin());
        QVERIFY2(r.status == 400, r.body.left(500).constData());
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), reason);
        QVERIFY(!r.error().value(QStringLiteral("description")).toString().isEmpty());
        expectNothingChanged(pending);
        // The same statement without its problem settles the sale: the refusal was about the input only.
        const HttpResult fine =
            import(statementBody(QStringLiteral("Reference ID,Status\r\n%1,SUCCESS\r\n").arg(referenceOf(pending))),
                   m_server->liveAdmin());
        QVERIFY2(fine.status == 200, fine.body.constData());
        QCOMPARE(statusOf(sale(pending)), QStringLiteral("SUCCESS"));
    }

    // The route has a body limit of its own (ServerOptions::maxStatementBytes): a live admin may send more than the
    // usual 64 KiB; anyone else is refused at the request head; over the limit is 413 for everyone.
    void bodyLimits()
    {
        configureUpstream();
        QString csv = QStringLiteral("Reference ID,Status\r\n");
        while (csv.size() < 200 * 1024)
            csv += QStringLiteral("rd-nobody-%1,FAILED\r\n").arg(csv.size());
        HttpResult r = import(statementBody(csv), m_server->admin());
        QCOMPARE(r.status, 403); // over 64 KiB: the head is refused as the route would refuse it
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("live_authority_required"));
        r = import(statementBody(csv), m_server->liveAdmin());
        QVERIFY2(r.status == 200, r.body.left(500).constData());
        QCOMPARE(r.data().value(QStringLiteral("counts")).toObject().value(QStringLiteral("unknown")).toInt(),
                 r.data().value(QStringLiteral("counts")).toObject().value(QStringLiteral("rows")).toInt());
        QCOMPARE(runs(), 1);

        while (csv.size() < kStatementLimit + 1024)
            csv += QStringLiteral("rd-nobody-%1,FAILED\r\n").arg(csv.size());
        r = import(statementBody(csv), m_server->liveAdmin());
        QCOMPARE(r.status, 413);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("body_too_large"));
        QCOMPARE(runs(), 1);
        // Another route keeps the usual limit.
        r = call("POST", QStringLiteral("/api/v1/transactions/1/resolve"), m_server->liveAdmin(),
                 QJsonObject{{QStringLiteral("note"), QString(70 * 1024, QLatin1Char('x'))}});
        QCOMPARE(r.status, 413);
    }

    // One statement: the lost webhook's sale settles, a SUCCESS the statement calls FAILED is reversed, a FAILED sale
    // it calls SUCCESS is a mismatch (no money moves), another amount is a mismatch, rows of no sale and unreadable
    // rows are listed. The run is stored and read back; importing it again changes nothing.
    void importSettlesReversesAndReports()
    {
        configureUpstream();
        const qint64 pending = sell(QStringLiteral("9876541111"));     // SUCCESS at the aggregator, never said
        const qint64 sold = sell(QStringLiteral("9876543210"));        // SUCCESS now, FAILED in the statement
        const qint64 failed = sell(QStringLiteral("9876540000"));      // FAILED now, SUCCESS in the statement
        const qint64 otherAmount = sell(QStringLiteral("9876531111")); // PENDING, another amount in the statement
        QVERIFY(pending > 0 && sold > 0 && failed > 0 && otherAmount > 0);
        QCOMPARE(statusOf(sale(sold)), QStringLiteral("SUCCESS"));
        QCOMPARE(statusOf(sale(failed)), QStringLiteral("FAILED"));
        const QString csv =
            QString(QChar(0xFEFF)) + // a byte order mark, as Excel writes it
            QStringLiteral("\"Txn ID\",\"Client Ref\",\"Amount (Rs)\",\"Txn Status\",\"Date\"\r\n"
                           "1001,%1,249.00,Completed,\"01-04-2024, 10:00\"\r\n"
                           "1002,%2,249.00,Reversed,01-04-2024\r\n"
                           "1003,%3,249.00,Success,01-04-2024\r\n"
                           "1004,%4,199.00,Success,01-04-2024\r\n"
                           "1005,rd-nobody-77,10.00,Success,01-04-2024\r\n"
                           "1006,%1,249.00,On hold,01-04-2024\r\n"
                           "\r\n")
                .arg(referenceOf(pending), referenceOf(sold), referenceOf(failed), referenceOf(otherAmount));
        const qint64 audits =
            count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'upstream.statement'"));

        HttpResult r = import(statementBody(csv), m_server->liveAdmin());
        QVERIFY2(r.status == 200, r.body.constData());
        QString error;
        const std::optional<StatementRun> run = StatementRun::fromJson(r.data(), &error);
        QVERIFY2(run, qPrintable(error));
        QCOMPARE(run->upstream, QStringLiteral("default"));
        QCOMPARE(run->fileName, QStringLiteral("april.csv"));
        QVERIFY(run->actor.startsWith(QLatin1String("key:live_")));
        QVERIFY(run->withLines);
        StatementCounts expected;
        expected.rows = 6;
        expected.matched = 4;
        expected.settled = 1;
        expected.reversed = 1;
        expected.mismatched = 2;
        expected.unknown = 1;
        expected.unreadable = 1;
        QCOMPARE(run->counts.toJson(), expected.toJson());
        QCOMPARE(run->linesTotal, qint64(4));
        QCOMPARE(run->lines.size(), qsizetype(4));
        QStringList reasons;
        for (const StatementLine &line : run->lines)
            reasons.append(
                QStringLiteral("%1 %2 %3").arg(line.row).arg(StatementLine::kindName(line.kind), line.reason));
        QCOMPARE(
            reasons,
            QStringList({QStringLiteral("4 mismatch status_differs"), QStringLiteral("5 mismatch amount_differs"),
                         QStringLiteral("6 unknown no_such_sale"), QStringLiteral("7 unreadable unreadable_row")}));
        const StatementLine &mismatch = run->lines.at(0);
        QCOMPARE(mismatch.transactionId, failed);
        QCOMPARE(mismatch.held, QStringLiteral("FAILED ₹249.00"));
        QVERIFY2(mismatch.statement.contains(QLatin1String("Success")), qPrintable(mismatch.statement));
        QVERIFY(run->lines.at(1).description.contains(QStringLiteral("₹199.00")));
        QVERIFY(run->lines.at(2).held.isEmpty());
        QVERIFY(run->lines.at(3).description.contains(QLatin1String("\"On hold\"")));
        // The terminal's reading of the answer is strict: a field missing is an error naming it, never a zero.
        for (const char *field : {"counts", "lines_total", "datetime"}) {
            QJsonObject broken = r.data();
            broken.remove(QLatin1String(field));
            QVERIFY(!StatementRun::fromJson(broken, &error));
            QVERIFY2(error.contains(QLatin1String(field)), qPrintable(error));
        }
        QJsonObject badCounts = r.data();
        QJsonObject counts = badCounts.value(QStringLiteral("counts")).toObject();
        counts.insert(QStringLiteral("settled"), 7);
        badCounts.insert(QStringLiteral("counts"), counts);
        QVERIFY(!StatementRun::fromJson(badCounts, &error));

        QCOMPARE(statusOf(sale(pending)), QStringLiteral("SUCCESS"));
        QCOMPARE(statusOf(sale(sold)), QStringLiteral("FAILED"));
        QCOMPARE(refunds(sold), 1);
        QCOMPARE(statusOf(sale(failed)), QStringLiteral("FAILED"));
        QCOMPARE(refunds(failed), 1);
        QCOMPARE(statusOf(sale(otherAmount)), QStringLiteral("PENDING"));
        QCOMPARE(refunds(otherAmount), 0);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'upstream.statement'")),
                 audits + 1);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'transaction.reversal'")), 1);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'transaction.mismatch'")), 1);

        // Read back: the list (without lines), then the run with its lines, as answered.
        r = call("GET", kStatements, m_server->admin());
        QCOMPARE(r.status, 200);
        const std::optional<Collection<StatementRun>> list = Collection<StatementRun>::fromJson(r.data(), &error);
        QVERIFY2(list, qPrintable(error));
        QCOMPARE(list->items.size(), qsizetype(1));
        QVERIFY(!list->items.at(0).withLines);
        QVERIFY(!r.data().value(QStringLiteral("items")).toArray().at(0).toObject().contains(QStringLiteral("lines")));
        r = call("GET", kStatements + QStringLiteral("/%1").arg(run->id), m_server->admin());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data(), run->toJson());

        // Again: nothing moves; the mismatches are still there for a person.
        r = import(statementBody(csv), m_server->liveAdmin());
        QVERIFY2(r.status == 200, r.body.constData());
        const std::optional<StatementRun> again = StatementRun::fromJson(r.data(), &error);
        QVERIFY2(again, qPrintable(error));
        expected.settled = 0;
        expected.reversed = 0;
        expected.unchanged = 2;
        QCOMPARE(again->counts.toJson(), expected.toJson());
        QCOMPARE(again->linesTotal, qint64(4));
        QCOMPARE(refunds(sold), 1);
        QCOMPARE(refunds(failed), 1);
        QCOMPARE(refunds(pending), 0);
        QCOMPARE(statusOf(sale(otherAmount)), QStringLiteral("PENDING"));
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'transaction.reversal'")), 1);

        r = call("GET", kStatements, m_server->admin());
        const QJsonArray items = r.data().value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), qsizetype(2));
        QCOMPARE(items.at(0).toObject().value(QStringLiteral("id")).toInteger(), again->id); // newest first
        QCOMPARE(items.at(1).toObject().value(QStringLiteral("id")).toInteger(), run->id);
    }

    // --columns over the API, and the lines for a person kept to 1,000 (all counted).
    void columnsAndLineCap()
    {
        configureUpstream();
        const qint64 pending = sell(QStringLiteral("9876521111"));
        QVERIFY(pending > 0);
        QString csv = QStringLiteral("Our Ref;,State,Paid\r\n%1,credited,249\r\n").arg(referenceOf(pending));
        for (int i = 0; i < 1500; ++i)
            csv += QStringLiteral("rd-nobody-%1,FAILED,10\r\n").arg(i);
        const HttpResult r =
            import(statementBody(csv, QJsonObject{{QStringLiteral("reference_id"), QStringLiteral("our ref")},
                                                  {QStringLiteral("status"), QStringLiteral("STATE")},
                                                  {QStringLiteral("amount"), QStringLiteral("Paid")}}),
                   m_server->liveAdmin());
        QVERIFY2(r.status == 200, r.body.left(500).constData());
        QString error;
        const std::optional<StatementRun> run = StatementRun::fromJson(r.data(), &error);
        QVERIFY2(run, qPrintable(error));
        QCOMPARE(run->counts.rows, qint64(1501));
        QCOMPARE(run->counts.settled, qint64(1));
        QCOMPARE(run->counts.unknown, qint64(1500));
        QCOMPARE(run->linesTotal, qint64(1500));
        QCOMPARE(run->lines.size(), qsizetype(StatementRun::kMaxLines));
        QCOMPARE(statusOf(sale(pending)), QStringLiteral("SUCCESS"));
        const HttpResult stored = call("GET", kStatements + QStringLiteral("/%1").arg(run->id), m_server->admin());
        QCOMPARE(stored.data().value(QStringLiteral("lines")).toArray().size(), qsizetype(StatementRun::kMaxLines));
        QCOMPARE(stored.data().value(QStringLiteral("lines_total")).toInt(), 1500);
    }
};

QTEST_GUILESS_MAIN(TestStatementApi)
#include "tst_statementapi.moc"
