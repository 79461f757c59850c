// POST /api/v1/setup (issue 14): the terminal's first run goes through the API, offered only to the terminal
// that started the server (its setup token) from a loopback address, and only while the shop is not set up.
#include "testserver.h"
#include "users/shopsetup.h"

#include <QJsonDocument>
#include <QSettings>
#include <QTest>

namespace {

using Headers = QList<std::pair<QByteArray, QByteArray>>;

QByteArray setupBody(const QString &pin = QStringLiteral("482193"))
{
    return QJsonDocument(QJsonObject{{QStringLiteral("shop_name"), QStringLiteral("Sharma Mobile Point")},
                                     {QStringLiteral("shop_address"), QStringLiteral("Shop 4, MG Road, Pune")},
                                     {QStringLiteral("admin_name"), QStringLiteral("Asha")},
                                     {QStringLiteral("admin_pin"), pin}})
        .toJson(QJsonDocument::Compact);
}

HttpResult postSetup(TestServer &server, const QByteArray &token, const QByteArray &body = setupBody())
{
    Headers headers{{"Content-Type", "application/json"}};
    if (!token.isNull())
        headers.append({"X-Setup-Token", token});
    return server.http().send("POST", server.url(QStringLiteral("/api/v1/setup")), body, headers);
}

QString reasonOf(const HttpResult &r)
{
    return r.error().value(QStringLiteral("reason")).toString();
}

} // namespace

class TestSetupApi final : public QObject
{
    Q_OBJECT

private slots:
    void theTerminalsTokenSetsTheShopUpOnce()
    {
        TestServer server;
        const QByteArray token = TestServer::defaultOptions().setupToken;
        QVERIFY(!ShopSetup::isDone(server.db()));

        const HttpResult created = postSetup(server, token);
        QCOMPARE(created.status, 201);
        QCOMPARE(created.data().value(QStringLiteral("entity")).toString(), QStringLiteral("shop_setup"));
        const QString keyId = created.data().value(QStringLiteral("key_id")).toString();
        const QString secret = created.data().value(QStringLiteral("key_secret")).toString();
        QVERIFY(keyId.startsWith(QLatin1String("test_")));
        QVERIFY(ShopSetup::isDone(server.db()));
        // The new key works, and the server wrote it to the terminal.ini of its data directory.
        QCOMPARE(
            server.http().get(server.url(QStringLiteral("/api/v1/wallet")), HttpClient::basic(keyId, secret)).status,
            200);
        QSettings ini(server.dataDir() + QStringLiteral("/terminal.ini"), QSettings::IniFormat);
        QCOMPARE(ini.value(QStringLiteral("server/key_id")).toString(), keyId);

        // Once set up, never again, with the token or without.
        const HttpResult again = postSetup(server, token);
        QCOMPARE(again.status, 409);
        QCOMPARE(reasonOf(again), QStringLiteral("already_set_up"));
    }

    void fieldErrorsNameTheField()
    {
        TestServer server;
        const HttpResult r =
            postSetup(server, TestServer::defaultOptions().setupToken, setupBody(QStringLiteral("12")));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("admin_pin"));
        QVERIFY(!ShopSetup::isDone(server.db()));
    }

    // The body is read like every other request body (JsonFields): a field of the wrong JSON type is named as
    // such, never read as an empty text (issue 14).
    void mistypedFieldsAreNamed()
    {
        TestServer server;
        const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("shop_name"), 42},
                                                          {QStringLiteral("admin_name"), QStringLiteral("Asha")},
                                                          {QStringLiteral("admin_pin"), QStringLiteral("482193")}})
                                    .toJson(QJsonDocument::Compact);
        const HttpResult r = postSetup(server, TestServer::defaultOptions().setupToken, body);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("shop_name"));
        QCOMPARE(reasonOf(r), QStringLiteral("invalid_type"));
        QVERIFY(!ShopSetup::isDone(server.db()));
    }

    void refusedWithoutTheToken_data()
    {
        QTest::addColumn<QByteArray>("serverToken");
        QTest::addColumn<QByteArray>("sentToken");
        QTest::newRow("no token sent") << QByteArray("terminal-token") << QByteArray();
        QTest::newRow("wrong token") << QByteArray("terminal-token") << QByteArray("terminal-tokem");
        QTest::newRow("empty token sent") << QByteArray("terminal-token") << QByteArray("");
        QTest::newRow("server without a token (serve)") << QByteArray() << QByteArray();
        QTest::newRow("server without a token, empty sent") << QByteArray() << QByteArray("");
    }
    void refusedWithoutTheToken()
    {
        QFETCH(QByteArray, serverToken);
        QFETCH(QByteArray, sentToken);
        ServerOptions options = TestServer::defaultOptions();
        options.setupToken = serverToken;
        TestServer server(options);
        const HttpResult r = postSetup(server, sentToken);
        QCOMPARE(r.status, 403);
        QCOMPARE(reasonOf(r), QStringLiteral("setup_not_allowed"));
        QVERIFY(!ShopSetup::isDone(server.db()));
    }
};

QTEST_GUILESS_MAIN(TestSetupApi)
#include "tst_setupapi.moc"
