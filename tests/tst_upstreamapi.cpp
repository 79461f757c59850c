#include "support/serverprocess.h"
#include "support/specwebhook.h"
#include "support/testserver.h"
#include "webhooks/webhooksigner.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using Headers = QList<std::pair<QByteArray, QByteArray>>;

/// The upstream settings endpoints and POST /hooks/upstream of issue 11 over real HTTP
/// (upstream-contract.md): who may read and change them, input rules (400 naming the field,
/// nothing stored), secrets never returned, audit entries, and a webhook receiver that changes
/// nothing unless password (and signature) are right and the sale is ours.
class TestUpstreamApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_server;
    QByteArray m_liveAdmin;

    HttpResult call(const QByteArray &method, const QString &path, const QByteArray &key, const QJsonObject &body = {},
                    const Headers &extra = {})
    {
        Headers headers{{"Authorization", key}};
        headers.append(extra);
        QByteArray payload;
        if (method != "GET") {
            headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
            payload = QJsonDocument(body).toJson(QJsonDocument::Compact);
        }
        return m_server->http().send(method, m_server->url(path), payload, headers);
    }

    HttpResult hook(const QByteArray &body, const Headers &extra = {})
    {
        Headers headers{{"Content-Type", "application/json"}};
        headers.append(extra);
        return m_server->http().send("POST", m_server->url(QStringLiteral("/hooks/upstream")), body, headers);
    }

    /// A live sale waiting for its upstream webhook, with the upstream configured to sign webhooks.
    struct SignedSale
    {
        int upstreamStatus = 0; ///< answer to PUT /api/v1/upstream (200 expected)
        QString secret;         ///< the upstream's webhook signing secret
        qint64 id = 0;          ///< our transaction id
        QByteArray payload;     ///< its SUCCESS webhook body
    };
    SignedSale signedUpstreamWithPendingSale()
    {
        SignedSale sale;
        sale.secret = WebhookSigner::newSecret();
        QJsonObject body = validBody();
        body.insert(QStringLiteral("webhook_secret"), sale.secret);
        sale.upstreamStatus = call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, body).status;
        sale.id = pendingLiveSale();
        sale.payload = webhookBody(QStringLiteral("hook-pass"), QStringLiteral("rd-test-%1").arg(sale.id),
                                   QStringLiteral("SUCCESS"));
        return sale;
    }

    static QJsonObject validBody()
    {
        return QJsonObject{{QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1:9/api/v1")},
                           {QStringLiteral("key_id"), QStringLiteral("key_test_distributor")},
                           {QStringLiteral("key_secret"), QStringLiteral("s3cret-value-never-shown")},
                           {QStringLiteral("webhook_password"), QStringLiteral("hook-pass")}};
    }

    /// Runs the CLI while this thread's event loop keeps serving the in-process servers (a
    /// blocking wait would leave `upstream check` without an answer). Exit code, output in *output.
    static int runCli(const QStringList &arguments, QString *output)
    {
        QProcess process;
        QEventLoop loop;
        QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
        process.start(ServerProcess::binary(), arguments);
        QTimer::singleShot(30'000, &loop, &QEventLoop::quit);
        loop.exec();
        *output = QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
        return process.state() == QProcess::NotRunning && process.exitStatus() == QProcess::NormalExit
                   ? process.exitCode()
                   : -1;
    }

    qint64 count(const QString &sql)
    {
        QSqlQuery &q = m_server->db().run(sql);
        return q.next() ? q.value(0).toLongLong() : -1;
    }

    /// A live sale waiting at the upstream (state pending, upstream id 77), written as the dispatcher would.
    qint64 pendingLiveSale()
    {
        QSqlQuery &a = m_server->db().run(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        a.next();
        const qint64 account = a.value(0).toLongLong();
        m_server->db().run(QStringLiteral("INSERT INTO wallets (account_id, mode, balance) VALUES (?, 'live', 0)"
                                          " ON CONFLICT (account_id, mode) DO NOTHING"),
                           {account});
        m_server->db().run(
            QStringLiteral(
                "INSERT INTO transactions (account_id, mode, type, operator_code, number, bill_amount, discount,"
                " paid, status, fingerprint, key_id, created_at, updated_at) VALUES (?, 'live', 'MOBILE', 'AT',"
                " '9876543210', 19900, 0, 19900, 'PENDING', 'f', 'k', 1, 1)"),
            {account});
        QSqlQuery &t = m_server->db().run(QStringLiteral("SELECT MAX(id) FROM transactions"));
        t.next();
        const qint64 id = t.value(0).toLongLong();
        m_server->db().run(
            QStringLiteral("INSERT INTO upstream_sales (transaction_id, reference_id, state, upstream_id,"
                           " next_attempt_at, endpoint, request_body, updated_at) VALUES (?, ?, 'pending',"
                           " 77, ?, '/recharge/mobile/initiate-transaction', '{}', 1)"),
            {id, QStringLiteral("rd-test-%1").arg(id), QDateTime::currentMSecsSinceEpoch() + 3'600'000});
        return id;
    }

    static QByteArray webhookBody(const QString &password, const QString &referenceId, const QString &status)
    {
        return mobileWebhookBody(password, referenceId, status, 77);
    }

    QString statusOf(qint64 id)
    {
        QSqlQuery &q = m_server->db().run(QStringLiteral("SELECT status FROM transactions WHERE id = ?"), {id});
        return q.next() ? q.value(0).toString() : QString();
    }

private slots:
    void init()
    {
        m_server = std::make_unique<TestServer>();
        m_liveAdmin = m_server->createKey(Mode::Live, Scope::Admin);
    }
    void cleanup() { m_server.reset(); }

    void getWithoutUpstreamSaysNotConfigured()
    {
        const HttpResult r = call("GET", QStringLiteral("/api/v1/upstream"), m_server->pos());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("configured")).toBool(), false);
        QCOMPARE(r.data().value(QStringLiteral("state")).toString(), QStringLiteral("not_configured"));
        QCOMPARE(r.data().value(QStringLiteral("webhook_path")).toString(), QStringLiteral("/hooks/upstream"));
    }

    void liveAdminSetsShowsAndClearsWithoutEverShowingSecrets()
    {
        HttpResult r = call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, validBody());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("configured")).toBool(), true);
        QCOMPARE(r.data().value(QStringLiteral("base_url")).toString(), QStringLiteral("http://127.0.0.1:9/api/v1"));
        QCOMPARE(r.data().value(QStringLiteral("key_id")).toString(), QStringLiteral("key_test_distributor"));
        QCOMPARE(r.data().value(QStringLiteral("state")).toString(), QStringLiteral("unknown"));
        QVERIFY(!r.body.contains("s3cret"));
        QVERIFY(!r.body.contains("hook-pass"));
        r = call("GET", QStringLiteral("/api/v1/upstream"), m_server->pos());
        QCOMPARE(r.data().value(QStringLiteral("configured")).toBool(), true);
        QVERIFY(!r.body.contains("s3cret"));
        // Sealed in the database, never in plain text.
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM upstreams WHERE key_secret_sealed LIKE '%s3cret%'"
                                      " OR webhook_password_sealed LIKE '%hook-pass%'")),
                 0);
        // Nor anywhere else in the database (audit log, call log, ...): sealed like Aadhaar numbers (issue 12).
        QVERIFY2(m_server->cellsContaining(QStringLiteral("s3cret-value-never-shown")).isEmpty(),
                 qPrintable(m_server->cellsContaining(QStringLiteral("s3cret-value-never-shown")).join(u' ')));
        QVERIFY(m_server->cellsContaining(QStringLiteral("hook-pass")).isEmpty());
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'upstream.set'")), 1);
        r = call("DELETE", QStringLiteral("/api/v1/upstream"), m_liveAdmin);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("configured")).toBool(), false);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'upstream.clear'")), 1);
    }

    void rolesAndLiveAuthority_data()
    {
        QTest::addColumn<QString>("who");
        QTest::addColumn<int>("status");
        QTest::newRow("test pos") << "test pos" << 403;
        QTest::newRow("test admin (no live authority)") << "test admin" << 403;
        QTest::newRow("live pos") << "live pos" << 403;
        QTest::newRow("no key") << "none" << 401;
    }

    void rolesAndLiveAuthority()
    {
        QFETCH(QString, who);
        QFETCH(int, status);
        QByteArray key;
        if (who == QLatin1String("test pos"))
            key = m_server->pos();
        else if (who == QLatin1String("test admin"))
            key = m_server->admin();
        else if (who == QLatin1String("live pos"))
            key = m_server->createKey(Mode::Live, Scope::Pos);
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), key, validBody()).status, status);
        QCOMPARE(call("DELETE", QStringLiteral("/api/v1/upstream"), key).status, status);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM upstreams WHERE base_url <> ''")), 0);
    }

    void signedInAdminHasLiveAuthorityAClerkHasNot()
    {
        const auto addUser = [this](const QString &name, const QString &role) {
            const HttpResult r = call("POST", QStringLiteral("/api/v1/users"), m_liveAdmin,
                                      QJsonObject{{QStringLiteral("name"), name},
                                                  {QStringLiteral("role"), role},
                                                  {QStringLiteral("pin"), QStringLiteral("482913")}});
            QVERIFY2(r.status == 201, r.body.constData());
        };
        const auto signIn = [this](const QString &name) {
            return call("POST", QStringLiteral("/api/v1/users/sign-in"), m_server->pos(),
                        QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("pin"), QStringLiteral("482913")}})
                .data()
                .value(QStringLiteral("session_token"))
                .toString()
                .toLatin1();
        };
        addUser(QStringLiteral("Meena"), QStringLiteral("admin"));
        addUser(QStringLiteral("Ravi"), QStringLiteral("clerk"));
        const QByteArray admin = signIn(QStringLiteral("Meena"));
        const QByteArray clerk = signIn(QStringLiteral("Ravi"));
        QVERIFY(!admin.isEmpty() && !clerk.isEmpty());
        // The terminal's test admin key: a clerk's session may not, an admin's session may.
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), m_server->admin(), validBody(),
                      {{"X-Session-Token", clerk}})
                     .status,
                 403);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM upstreams WHERE base_url <> ''")), 0);
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), m_server->admin(), validBody(),
                      {{"X-Session-Token", admin}})
                     .status,
                 200);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'upstream.set' AND actor = "
                                      "'user:Meena'")),
                 1);
    }

    void badInputNamesTheFieldAndStoresNothing_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::newRow("base_url not /api/v1") << "base_url" << QJsonValue(QStringLiteral("http://example.com/v2"));
        QTest::newRow("base_url ftp") << "base_url" << QJsonValue(QStringLiteral("ftp://example.com/api/v1"));
        QTest::newRow("base_url missing") << "base_url" << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("base_url number") << "base_url" << QJsonValue(5);
        QTest::newRow("key_id empty") << "key_id" << QJsonValue(QStringLiteral(""));
        QTest::newRow("key_id with space") << "key_id" << QJsonValue(QStringLiteral("a b"));
        QTest::newRow("key_secret missing") << "key_secret" << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("webhook_secret malformed") << "webhook_secret" << QJsonValue(QStringLiteral("nope"));
    }

    void badInputNamesTheFieldAndStoresNothing()
    {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QJsonObject body = validBody();
        if (value.isUndefined())
            body.remove(field);
        else
            body.insert(field, value);
        const HttpResult r = call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, body);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM upstreams WHERE base_url <> ''")), 0);
    }

    void checkSaysInWordsWhenNothingAnswers()
    {
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, validBody()).status, 200);
        const HttpResult r = call("POST", QStringLiteral("/api/v1/upstream/check"), m_server->admin());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("ok")).toBool(), false);
        QVERIFY(r.data().value(QStringLiteral("http_status")).isNull());
        QVERIFY2(r.data().value(QStringLiteral("message")).toString().contains(QStringLiteral("Could not reach")),
                 r.body.constData());
        QCOMPARE(call("POST", QStringLiteral("/api/v1/upstream/check"), m_server->pos()).status, 403);
    }

    void checkAgainstARealServerSaysTheKeyWorks()
    {
        TestServer distributor;
        const CreatedKey key = distributor.createKeyPair(Mode::Test, Scope::Pos);
        QJsonObject body = validBody();
        body.insert(QStringLiteral("base_url"), distributor.url(QStringLiteral("/api/v1")).toString());
        body.insert(QStringLiteral("key_id"), key.keyId);
        body.insert(QStringLiteral("key_secret"), key.secret);
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, body).status, 200);
        HttpResult r = call("POST", QStringLiteral("/api/v1/upstream/check"), m_server->admin());
        QCOMPARE(r.data().value(QStringLiteral("ok")).toBool(), true);
        QCOMPARE(r.data().value(QStringLiteral("http_status")).toInt(), 200);
        QCOMPARE(call("GET", QStringLiteral("/api/v1/upstream"), m_server->pos())
                     .data()
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("online"));
        body.insert(QStringLiteral("key_secret"), QStringLiteral("wrong"));
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, body).status, 200);
        r = call("POST", QStringLiteral("/api/v1/upstream/check"), m_server->admin());
        QCOMPARE(r.data().value(QStringLiteral("ok")).toBool(), false);
        QCOMPARE(r.data().value(QStringLiteral("http_status")).toInt(), 401);
    }

    void hookWithTheRightPasswordSettlesOnceAndRepeatsChangeNothing()
    {
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, validBody()).status, 200);
        const qint64 id = pendingLiveSale();
        const QString reference = QStringLiteral("rd-test-%1").arg(id);
        HttpResult r = hook(webhookBody(QStringLiteral("hook-pass"), reference, QStringLiteral("FAILED")));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("settled")).toBool(), true);
        QCOMPARE(statusOf(id), QStringLiteral("FAILED"));
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'refund'")), 1);
        // The same again, or a contradicting later one: 200, nothing changes.
        r = hook(webhookBody(QStringLiteral("hook-pass"), reference, QStringLiteral("FAILED")));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("settled")).toBool(), false);
        QCOMPARE(hook(webhookBody(QStringLiteral("hook-pass"), reference, QStringLiteral("SUCCESS"))).status, 200);
        QCOMPARE(statusOf(id), QStringLiteral("FAILED"));
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'refund'")), 1);
    }

    void hookRefusalsChangeNothing_data()
    {
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("reference");
        QTest::addColumn<int>("status");
        QTest::newRow("wrong password") << "hook-pasS"
                                        << "" << 401;
        QTest::newRow("empty password") << ""
                                        << "" << 401;
        QTest::newRow("unknown transaction") << "hook-pass"
                                             << "rd-test-999999" << 404;
    }

    void hookRefusalsChangeNothing()
    {
        QFETCH(QString, password);
        QFETCH(QString, reference);
        QFETCH(int, status);
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, validBody()).status, 200);
        const qint64 id = pendingLiveSale();
        if (reference.isEmpty())
            reference = QStringLiteral("rd-test-%1").arg(id);
        // An unknown reference must not fall back to a known upstream id either.
        QByteArray body = webhookBody(password, reference, QStringLiteral("SUCCESS"));
        if (status == 404)
            body.replace("\"transaction_id\":77", "\"transaction_id\":78");
        QCOMPARE(hook(body).status, status);
        QCOMPARE(statusOf(id), QStringLiteral("PENDING"));
    }

    void hookWithoutConfiguredUpstreamIs401()
    {
        const qint64 id = pendingLiveSale();
        QCOMPARE(hook(webhookBody(QString(), QStringLiteral("rd-test-%1").arg(id), QStringLiteral("SUCCESS"))).status,
                 401);
        QCOMPARE(statusOf(id), QStringLiteral("PENDING"));
    }

    void hookSignatureIsCheckedWhenASecretIsConfigured()
    {
        const SignedSale sale = signedUpstreamWithPendingSale();
        QCOMPARE(sale.upstreamStatus, 200);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        // Unsigned, and signed with another secret: refused.
        QCOMPARE(hook(sale.payload).status, 401);
        const QByteArray wrong = WebhookSigner::sign(WebhookSigner::newSecret(), "msg_1", now, sale.payload);
        QCOMPARE(hook(sale.payload, {{"webhook-id", "msg_1"},
                                     {"webhook-timestamp", QByteArray::number(now)},
                                     {"webhook-signature", wrong}})
                     .status,
                 401);
        QCOMPARE(statusOf(sale.id), QStringLiteral("PENDING"));
        const QByteArray right = WebhookSigner::sign(sale.secret, "msg_1", now, sale.payload);
        QCOMPARE(hook(sale.payload, {{"webhook-id", "msg_1"},
                                     {"webhook-timestamp", QByteArray::number(now)},
                                     {"webhook-signature", right}})
                     .status,
                 200);
        QCOMPARE(statusOf(sale.id), QStringLiteral("SUCCESS"));
    }

    void hookTimestampIsPlainUnixSeconds_data()
    {
        QTest::addColumn<QByteArray>("timestamp");
        const QByteArray now = QByteArray::number(QDateTime::currentSecsSinceEpoch());
        // Found while writing the webhook fuzz target (issue 12): toLongLong() took a sign, and the smallest qint64
        // then overflowed "now - timestamp" (undefined behaviour) before any signature was checked.
        QTest::newRow("plus sign") << QByteArray('+' + now);
        QTest::newRow("smallest qint64") << QByteArray("-9223372036854775808");
    }
    void hookTimestampIsPlainUnixSeconds()
    {
        QFETCH(QByteArray, timestamp);
        const SignedSale sale = signedUpstreamWithPendingSale();
        QCOMPARE(sale.upstreamStatus, 200);
        // Signed with the right secret over the number the old reading made of the header.
        const QByteArray signature = WebhookSigner::sign(sale.secret, "msg_ts", timestamp.toLongLong(), sale.payload);
        const HttpResult r =
            hook(sale.payload,
                 {{"webhook-id", "msg_ts"}, {"webhook-timestamp", timestamp}, {"webhook-signature", signature}});
        QCOMPARE(r.status, 401);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("invalid_timestamp"));
        QCOMPARE(statusOf(sale.id), QStringLiteral("PENDING"));
    }

    void oversizeHookIsRefused()
    {
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/upstream"), m_liveAdmin, validBody()).status, 200);
        const qint64 id = pendingLiveSale();
        QByteArray body =
            webhookBody(QStringLiteral("hook-pass"), QStringLiteral("rd-test-%1").arg(id), QStringLiteral("SUCCESS"));
        body.insert(body.size() - 2, ",\"pad\":\"" + QByteArray(70 * 1024, 'x') + "\"");
        QCOMPARE(hook(body).status, 413);
        QCOMPARE(statusOf(id), QStringLiteral("PENDING"));
    }

    void cliSetShowCheckClear()
    {
        TestServer distributor;
        const CreatedKey key = distributor.createKeyPair(Mode::Test, Scope::Pos);
        TestStore store;
        QTemporaryDir secrets;
        QVERIFY(secrets.isValid());
        const QString secretFile = secrets.filePath(QStringLiteral("secret"));
        {
            QFile file(secretFile);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(key.secret.toUtf8() + "\n");
        }
        const QString url = distributor.url(QStringLiteral("/api/v1")).toString();
        QString output;
        // The secret is read from the file only; bad input is a usage error and stores nothing.
        QCOMPARE(runCli(QStringList{QStringLiteral("upstream"), QStringLiteral("set"), QStringLiteral("--url"),
                                    QStringLiteral("http://x/v2"), QStringLiteral("--key-id"), key.keyId,
                                    QStringLiteral("--key-secret-file"), secretFile} +
                            store.arguments(),
                        &output),
                 2);
        QCOMPARE(runCli(QStringList{QStringLiteral("upstream"), QStringLiteral("check")} + store.arguments(), &output),
                 1);
        QCOMPARE(
            runCli(QStringList{QStringLiteral("upstream"), QStringLiteral("set"), QStringLiteral("--url"), url,
                               QStringLiteral("--key-id"), key.keyId, QStringLiteral("--key-secret-file"), secretFile} +
                       store.arguments(),
                   &output),
            0);
        QVERIFY(!output.contains(key.secret));
        QCOMPARE(runCli(QStringList{QStringLiteral("upstream"), QStringLiteral("check")} + store.arguments(), &output),
                 0);
        QVERIFY2(output.contains(QStringLiteral("key accepted")), qPrintable(output));
        QCOMPARE(runCli(QStringList{QStringLiteral("upstream"), QStringLiteral("show")} + store.arguments(), &output),
                 0);
        QVERIFY2(output.contains(url) && output.contains(key.keyId) && output.contains(QStringLiteral("online")),
                 qPrintable(output));
        QVERIFY(!output.contains(key.secret));
        QCOMPARE(runCli(QStringList{QStringLiteral("upstream"), QStringLiteral("clear")} + store.arguments(), &output),
                 0);
        QCOMPARE(runCli(QStringList{QStringLiteral("upstream"), QStringLiteral("show")} + store.arguments(), &output),
                 0);
        QVERIFY(output.contains(QStringLiteral("No upstream is configured")));
    }

    void upstreamCallsNeedAdminAndTheSale()
    {
        const qint64 id = pendingLiveSale();
        QCOMPARE(call("GET", QStringLiteral("/api/v1/transactions/%1/upstream-calls").arg(id), m_liveAdmin).status,
                 200);
        QCOMPARE(
            call("GET", QStringLiteral("/api/v1/transactions/%1/upstream-calls").arg(id), m_server->admin()).status,
            404); // a test key does not see live sales
        QCOMPARE(call("GET", QStringLiteral("/api/v1/transactions/%1/upstream-calls").arg(id),
                      m_server->createKey(Mode::Live, Scope::Pos))
                     .status,
                 403);
    }
};

QTEST_GUILESS_MAIN(TestUpstreamApi)
#include "tst_upstreamapi.moc"
