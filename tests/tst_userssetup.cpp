#include "apierror.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "httpclient.h"
#include "serverprocess.h"
#include "store/database.h"
#include "teststore.h"
#include "users/shopsetup.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

const QString kPin = QStringLiteral("90817263");

/// `setup` with every option, then `store` (TestStore::arguments()).
QStringList setupArguments(const QStringList &store = {})
{
    return QStringList{
               QStringLiteral("setup"),          QStringLiteral("--shop-name"),      QStringLiteral("Sharma Mobiles"),
               QStringLiteral("--shop-address"), QStringLiteral("12 MG Road, Pune"), QStringLiteral("--admin-name"),
               QStringLiteral("Asha"),           QStringLiteral("--admin-pin"),      kPin} +
           store;
}

std::unique_ptr<Database> openDb(const TestStore &store)
{
    QString error;
    std::unique_ptr<Database> db = Database::open(store.location(), &error);
    if (!db)
        qWarning("open: %s", qPrintable(error));
    return db;
}

} // namespace

/// First-run setup: `rechargedesk setup` as a child process, and ShopSetup in-process.
class TestUsersSetup final : public QObject
{
    Q_OBJECT

private slots:
    void badFlagsExitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QStringList all = setupArguments().mid(1, 8);
        QTest::newRow("no admin pin") << all.mid(0, 6) << QStringLiteral("--admin-pin");
        QTest::newRow("no shop name") << all.mid(2) << QStringLiteral("--shop-name");
        QTest::newRow("short pin") << QStringList(all.mid(0, 7)) + QStringList{QStringLiteral("123")}
                                   << QStringLiteral("--admin-pin");
        QTest::newRow("4-digit admin pin")
            << QStringList(all.mid(0, 7)) + QStringList{QStringLiteral("1234")} << QStringLiteral("6 to 8 digits");
        QTest::newRow("letters in pin") << QStringList(all.mid(0, 7)) + QStringList{QStringLiteral("12ab")}
                                        << QStringLiteral("--admin-pin");
        QTest::newRow("long shop name") << QStringList{QStringLiteral("--shop-name"), QString(81, QLatin1Char('s'))} +
                                               all.mid(2)
                                        << QStringLiteral("--shop-name");
        QTest::newRow("blank admin name") << QStringList(all.mid(0, 5)) + QStringList{QStringLiteral(" ")} + all.mid(6)
                                          << QStringLiteral("--admin-name");
        QTest::newRow("unknown flag") << all + QStringList{QStringLiteral("--colour")} << QStringLiteral("colour");
    }
    void badFlagsExitTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        TestStore dir;
        QString output;
        const int code =
            ServerProcess::runCli(QStringList{QStringLiteral("setup")} + arguments + dir.arguments(), &output);
        QCOMPARE(code, 2);
        QVERIFY2(output.contains(message), qPrintable(output));
        QVERIFY(!output.contains(kPin));
        QVERIFY(!QFile::exists(dir.filePath(ShopSetup::terminalConfigFileName())));
        std::unique_ptr<Database> db = openDb(dir);
        QVERIFY(db);
        QVERIFY(!ShopSetup::isDone(*db));
    }

    void setupOnceThenRefuse()
    {
        TestStore dir;
        QString output;
        QCOMPARE(ServerProcess::runCli(setupArguments(dir.arguments()), &output), 0);
        QVERIFY2(output.contains(QLatin1String("Sharma Mobiles")), qPrintable(output));
        QVERIFY(!output.contains(kPin));

        const QString iniPath = dir.filePath(ShopSetup::terminalConfigFileName());
        struct stat info
        {};
        QCOMPARE(::stat(QFile::encodeName(iniPath).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
        QSettings ini(iniPath, QSettings::IniFormat);
        const QString keyId = ini.value(QStringLiteral("server/key_id")).toString();
        const QString secret = ini.value(QStringLiteral("server/key_secret")).toString();
        QVERIFY(keyId.startsWith(QLatin1String("test_")));
        QCOMPARE(secret.size(), 32);
        QVERIFY(output.contains(keyId));
        QVERIFY(!output.contains(secret));
        // The terminal on this data directory finds the database setup used: a --database is kept (PostgreSQL runs).
        QCOMPARE(ini.value(QStringLiteral("server/database")).toString(),
                 TestStore::postgres() ? dir.location() : QString());

        // A second setup refuses and changes nothing, the key file included.
        QCOMPARE(ServerProcess::runCli(setupArguments(dir.arguments()), &output), 1);
        QVERIFY2(output.contains(QLatin1String("already set up")), qPrintable(output));
        QSettings again(iniPath, QSettings::IniFormat);
        QCOMPARE(again.value(QStringLiteral("server/key_id")).toString(), keyId);
        {
            std::unique_ptr<Database> db = openDb(dir);
            QVERIFY(db);
            SystemClock clock;
            QCOMPARE(ApiKeyService(*db, clock).list().size(), 1);
        }

        // The key works against a server on that data directory: a pos key, whose back-office power
        // comes from the admin's session (issue 12).
        ServerProcess server;
        QString error;
        QVERIFY2(server.start(dir, {}, &error), qPrintable(error));
        HttpClient http;
        const QByteArray key = HttpClient::basic(keyId, secret);
        QUrl url = server.url();
        url.setPath(QStringLiteral("/api/v1/shop"));
        const HttpResult shop = http.get(url, key);
        QCOMPARE(shop.status, 200);
        QCOMPARE(shop.data().value(QStringLiteral("name")).toString(), QStringLiteral("Sharma Mobiles"));
        QCOMPARE(shop.data().value(QStringLiteral("address")).toString(), QStringLiteral("12 MG Road, Pune"));

        url.setPath(QStringLiteral("/api/v1/users/sign-in"));
        const HttpResult signIn = http.postJson(
            url, QJsonObject{{QStringLiteral("name"), QStringLiteral("Asha")}, {QStringLiteral("pin"), kPin}}, key);
        QCOMPARE(signIn.status, 200);
        QCOMPARE(signIn.data().value(QStringLiteral("user")).toObject().value(QStringLiteral("role")).toString(),
                 QStringLiteral("admin"));

        url.setPath(QStringLiteral("/api/v1/audit-log"));
        const HttpResult withoutSession = http.get(url, key);
        QCOMPARE(withoutSession.status, 403);
        QCOMPARE(withoutSession.error().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("admin_scope_required"));
        const QByteArray session = signIn.data().value(QStringLiteral("session_token")).toString().toLatin1();
        const HttpResult audit = http.send("GET", url, {}, {{"Authorization", key}, {"X-Session-Token", session}});
        QCOMPARE(audit.status, 200);
        QCOMPARE(audit.data().value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(audit.data()
                     .value(QStringLiteral("items"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("action"))
                     .toString(),
                 QStringLiteral("shop.setup"));
        QCOMPARE(server.terminate(), 0);
    }

    void inProcessSetup()
    {
        TestStore dir;
        std::unique_ptr<Database> db = openDb(dir);
        QVERIFY(db);
        SystemClock clock;
        QVERIFY(!ShopSetup::isDone(*db));

        ShopSetupParams params;
        params.shopName = QStringLiteral("Sharma Mobiles");
        params.adminName = QStringLiteral("Asha");
        params.adminPin = QStringLiteral("12");
        try {
            ShopSetup::run(*db, clock, params);
            QFAIL("a 2-digit PIN was accepted");
        } catch (const ApiError &e) {
            QCOMPARE(e.httpStatus(), 400);
            QCOMPARE(e.field(), QStringLiteral("admin_pin"));
        }
        QVERIFY(!ShopSetup::isDone(*db));
        QCOMPARE(ApiKeyService(*db, clock).list().size(), 0);

        // An admin PIN needs 6 digits (issue 12): 4 are refused.
        params.adminPin = QStringLiteral("2468");
        try {
            ShopSetup::run(*db, clock, params);
            QFAIL("a 4-digit admin PIN was accepted");
        } catch (const ApiError &e) {
            QCOMPARE(e.httpStatus(), 400);
            QCOMPARE(e.field(), QStringLiteral("admin_pin"));
            QVERIFY2(e.description().contains(QLatin1String("6 to 8")), qPrintable(e.description()));
        }
        QVERIFY(!ShopSetup::isDone(*db));

        // A key file that cannot be written: nothing is set up and the key is revoked again.
        params.adminPin = QStringLiteral("246802");
        params.terminalConfigDir = dir.filePath(QStringLiteral("missing/dir"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, ShopSetup::run(*db, clock, params));
        QVERIFY(!ShopSetup::isDone(*db));
        QList<ApiKeyRow> keys = ApiKeyService(*db, clock).list();
        QCOMPARE(keys.size(), 1);
        QVERIFY(keys.first().revokedAtMs.has_value());

        params.terminalConfigDir.clear();
        const CreatedKey key = ShopSetup::run(*db, clock, params);
        QVERIFY(ShopSetup::isDone(*db));
        keys = ApiKeyService(*db, clock).list();
        QCOMPARE(keys.size(), 2);
        const auto created =
            std::find_if(keys.cbegin(), keys.cend(), [&](const ApiKeyRow &row) { return row.keyId == key.keyId; });
        QVERIFY(created != keys.cend());
        QVERIFY(!created->revokedAtMs.has_value());
        QCOMPARE(created->name, QStringLiteral("terminal"));
        QCOMPARE(created->scope, Scope::Pos);
        QCOMPARE(created->mode, Mode::Test);
        QCOMPARE(created->accountName, QStringLiteral("shop"));

        try {
            ShopSetup::run(*db, clock, params);
            QFAIL("a second setup was accepted");
        } catch (const ApiError &e) {
            QCOMPARE(e.httpStatus(), 409);
            QCOMPARE(e.reason(), QStringLiteral("already_set_up"));
        }
        QCOMPARE(ApiKeyService(*db, clock).list().size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestUsersSetup)
#include "tst_userssetup.moc"
