// Issue 16: everything that is state lives in the database, not in one server's memory. Two API servers share one
// database (an SQLite file here; PostgreSQL as pg_sharedstate), each with its own connection, memory and data
// directory, as two `rechargedesk serve` processes behind a load balancer: what one server learns, the other must
// act on (docs/architecture.md, "Where state lives").
#include "aadhaar/aadhaarmodule.h"
#include "aadhaartestdata.h"
#include "auth/authenticator.h"
#include "catalogues.h"
#include "plans/plancataloguestore.h"
#include "salesapitest.h"
#include "testserver.h"
#include "users/userservice.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTest>

namespace {

QDateTime fixedStart()
{
    return QDateTime(QDate(2025, 1, 15), QTime(10, 0), Qt::UTC);
}

/// A second server on the database of a TestServer: its own connection, services and data directory.
class SecondServer
{
public:
    /// `sameVaultKey` false: the server makes its own vault key, as a server set up without copying it would.
    /// `dataDir` empty: a fresh temporary one.
    SecondServer(const TestServer &first, const Clock &clock, bool sameVaultKey = true, const QString &dataDir = {})
        : m_dataDirPath(dataDir.isEmpty() ? m_dataDir.path() : dataDir), m_catalog(OperatorCatalog::builtIn())
    {
        QString error;
        m_db = Database::open(first.store().location(), &error);
        if (!m_db)
            qFatal("second server's database: %s", qPrintable(error));
        // Every server of one database holds the same vault key (the captcha and OTP hashes, sealed secrets).
        const QString key = AadhaarModule::keyFilePath(m_dataDirPath);
        QDir().mkpath(QFileInfo(key).path());
        QFile::setPermissions(QFileInfo(key).path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (sameVaultKey && !QFile::copy(AadhaarModule::keyFilePath(first.dataDir()), key))
            qFatal("second server: the vault key could not be copied");
        QFile::setPermissions(key, QFile::ReadOwner | QFile::WriteOwner);
        ServerOptions options = TestServer::defaultOptions();
        options.dataDir = m_dataDirPath;
        m_server = std::make_unique<ApiServer>(*m_db, m_catalog, clock, options);
        if (!m_server->listen(&error))
            qFatal("second server: %s", qPrintable(error));
    }
    ~SecondServer()
    {
        m_server.reset();
        m_db.reset();
    }
    Q_DISABLE_COPY_MOVE(SecondServer)

    const QString &dataDir() const { return m_dataDirPath; }
    QUrl url(const QString &path) const
    {
        QUrl url = m_server->url();
        url.setPath(path);
        return url;
    }

private:
    QTemporaryDir m_dataDir;
    QString m_dataDirPath;
    OperatorCatalog m_catalog;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<ApiServer> m_server;
};

/// Either server of a pair, as a base URL a request goes to.
using Target = std::function<QUrl(const QString &path)>;

} // namespace

class TestSharedState final : public QObject
{
    Q_OBJECT

private:
    /// A JSON request to `target` with `key` and, when not empty, a session token.
    HttpResult call(const Target &target, const QByteArray &method, const QString &path, const QByteArray &key,
                    const QJsonObject &body = {}, const QByteArray &session = {})
    {
        return m_http.sendJson(method, target(path), key, body, session);
    }
    /// Adds a user through `server` (its live admin key); answers the HTTP status.
    int addUser(TestServer &server, const QString &name, const QString &role, const QString &pin)
    {
        return call(on(server), "POST", QStringLiteral("/api/v1/users"), server.liveAdmin(),
                    QJsonObject{
                        {QStringLiteral("name"), name}, {QStringLiteral("role"), role}, {QStringLiteral("pin"), pin}})
            .status;
    }
    static Target on(TestServer &server)
    {
        return [&server](const QString &path) { return server.url(path); };
    }
    static Target on(SecondServer &server)
    {
        return [&server](const QString &path) { return server.url(path); };
    }
    HttpResult signIn(const Target &target, const QByteArray &key, const QString &name, const QString &pin)
    {
        return call(target, "POST", QStringLiteral("/api/v1/users/sign-in"), key,
                    QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("pin"), pin}});
    }
    static QString reasonOf(const HttpResult &result)
    {
        return result.error().value(QStringLiteral("reason")).toString();
    }

    HttpClient m_http;
    SystemClock m_systemClock;

private slots:
    /// A session opened on A works on B, and signing out on B ends it on A.
    void sessionOpenedOnOneServerWorksOnTheOther()
    {
        TestServer a;
        SecondServer b(a, m_systemClock);
        QCOMPARE(addUser(a, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802")), 201);
        const HttpResult opened = signIn(on(a), a.pos(), QStringLiteral("Asha"), QStringLiteral("246802"));
        QCOMPARE(opened.status, 200);
        const QByteArray token = opened.data().value(QStringLiteral("session_token")).toString().toLatin1();
        // The audit log needs admin authority: a pos key has it only with an admin's session.
        QCOMPARE(call(on(b), "GET", QStringLiteral("/api/v1/audit-log"), a.pos()).status, 403);
        QCOMPARE(call(on(b), "GET", QStringLiteral("/api/v1/audit-log"), a.pos(), {}, token).status, 200);
        QCOMPARE(call(on(b), "POST", QStringLiteral("/api/v1/users/sign-out"), a.pos(), {}, token).status, 200);
        QCOMPARE(call(on(a), "GET", QStringLiteral("/api/v1/audit-log"), a.pos(), {}, token).status, 401);
    }

    /// Wrong PINs split across the servers add up: five lock the user (a real one, and a name that matches
    /// nobody, which must answer exactly alike) on both servers.
    void wrongPinsSplitAcrossServersLock_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("user") << QStringLiteral("Ravi");
        QTest::newRow("unknown name") << QStringLiteral("Nobody");
    }
    void wrongPinsSplitAcrossServersLock()
    {
        QFETCH(QString, name);
        TestServer a;
        SecondServer b(a, m_systemClock);
        QCOMPARE(addUser(a, QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1357")), 201);
        for (int attempt = 1; attempt <= UserService::kMaxFailures; ++attempt) {
            const HttpResult wrong = signIn(attempt % 2 ? on(a) : on(b), a.pos(), name, QStringLiteral("0000"));
            QCOMPARE(wrong.status, 401);
            const int left = UserService::kMaxFailures - attempt;
            const QString said = wrong.error().value(QStringLiteral("description")).toString();
            QVERIFY2(left ? said.contains(QStringLiteral("%1 attempt").arg(left)) : said.contains(u"no attempts left"),
                     qPrintable(QStringLiteral("attempt %1: %2").arg(attempt).arg(said)));
        }
        for (const Target &target : {on(a), on(b)}) {
            const HttpResult locked = signIn(target, a.pos(), name, QStringLiteral("1357"));
            QCOMPARE(locked.status, 429);
            QCOMPARE(reasonOf(locked), QStringLiteral("user_locked"));
        }
    }

    /// A key revoked through A is refused by B within Authenticator::kVersionPollMs, although B had just
    /// verified (and cached) it.
    void keyRevokedOnOneServerIsRefusedByTheOther()
    {
        ManualClock clock(fixedStart());
        TestServer a(TestServer::defaultOptions(), &clock);
        SecondServer b(a, clock);
        const CreatedKey key = a.createKeyPair(Mode::Test, Scope::Pos);
        const QByteArray header = HttpClient::basic(key.keyId, key.secret);
        QCOMPARE(call(on(b), "GET", kWallet, header).status, 200); // cached by B from now on

        QCOMPARE(call(on(a), "POST", QStringLiteral("/api/v1/keys/%1/revoke").arg(key.keyId), a.admin()).status, 200);
        QCOMPARE(call(on(a), "GET", kWallet, header).status, 403);
        clock.advanceMs(Authenticator::kVersionPollMs);
        const HttpResult refused = call(on(b), "GET", kWallet, header);
        QCOMPARE(refused.status, 403);
        QCOMPARE(reasonOf(refused), QStringLiteral("key_revoked"));
        QCOMPARE(call(on(b), "GET", kWallet, a.pos()).status, 200); // other keys are unaffected
    }

    /// Wrong secrets for one key id split across the servers add up to the throttle (kMaxFailures), and the
    /// block holds on both; the right secret still works.
    void keyFailuresSplitAcrossServersThrottle()
    {
        ManualClock clock(fixedStart());
        TestServer a(TestServer::defaultOptions(), &clock);
        SecondServer b(a, clock);
        const CreatedKey key = a.createKeyPair(Mode::Test, Scope::Pos);
        const QByteArray wrong = HttpClient::basic(key.keyId, QStringLiteral("not-the-secret"));
        for (int attempt = 1; attempt <= Authenticator::kMaxFailures; ++attempt)
            QCOMPARE(call(attempt % 2 ? on(a) : on(b), "GET", kWallet, wrong).status, 401);
        for (const Target &target : {on(a), on(b)}) {
            const HttpResult blocked = call(target, "GET", kWallet, wrong);
            QCOMPARE(blocked.status, 429);
            QCOMPARE(reasonOf(blocked), QStringLiteral("too_many_failed_logins"));
        }
        QCOMPARE(call(on(b), "GET", kWallet, HttpClient::basic(key.keyId, key.secret)).status, 200);
        clock.advanceMs(Authenticator::kBlockMs);
        QCOMPARE(call(on(b), "GET", kWallet, wrong).status, 401);
    }

    /// A captcha drawn by A is shown by B and answered on B; OTP sends to one Aadhaar number are throttled
    /// across the servers (kResendGapMs apart).
    void aadhaarFlowSpansServers()
    {
        TestServer a;
        SecondServer b(a, m_systemClock);
        const QString base = QStringLiteral("/api/v1/uidai/aadhaar-authentication");
        const HttpResult initiated = call(on(a), "GET", base + QStringLiteral("/initiate-transaction"), a.pos());
        QCOMPARE(initiated.status, 200);
        const qint64 id = initiated.data().value(QStringLiteral("transaction_id")).toInteger();
        const QUrl captchaUrl(initiated.data().value(QStringLiteral("captcha")).toString());
        const HttpResult image = m_http.get(b.url(captchaUrl.path()));
        QCOMPARE(image.status, 200);
        QVERIFY(image.body.startsWith("\x89PNG"));
        const QString captcha = call(on(b), "GET", QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(id), a.admin())
                                    .data()
                                    .value(QStringLiteral("captcha_value"))
                                    .toString();
        QCOMPARE(captcha.size(), 6);
        const QString number = AadhaarTestData::aadhaarWith(QStringLiteral("23456789012"));
        const auto requestOtp = [&](const Target &target, qint64 transaction, const QString &answer) {
            return call(target, "POST", base + QStringLiteral("/request-otp"), a.pos(),
                        QJsonObject{{QStringLiteral("transaction_id"), transaction},
                                    {QStringLiteral("aadhaar_number"), number},
                                    {QStringLiteral("captcha_value"), answer}});
        };
        const HttpResult sent = requestOtp(on(b), id, captcha);
        QVERIFY2(sent.status == 200, sent.body.constData());

        // A second flow for the same number on A, at once: the send B just made counts.
        const qint64 second = call(on(a), "GET", base + QStringLiteral("/initiate-transaction"), a.pos())
                                  .data()
                                  .value(QStringLiteral("transaction_id"))
                                  .toInteger();
        const QString secondCaptcha =
            call(on(a), "GET", QStringLiteral("/api/v1/sandbox/aadhaar/%1").arg(second), a.admin())
                .data()
                .value(QStringLiteral("captcha_value"))
                .toString();
        const HttpResult throttled = requestOtp(on(a), second, secondCaptcha);
        QCOMPARE(throttled.status, 429);
        QCOMPARE(reasonOf(throttled), QStringLiteral("otp_throttled"));
    }

    /// A server whose vault key differs from the one the database's servers use could check none of their
    /// captchas or OTPs: its Aadhaar flow answers 503 saying so, instead of failing every answer.
    void serverWithAnotherVaultKeyRefusesAadhaar()
    {
        TestServer a;
        SecondServer b(a, m_systemClock, false);
        const QString initiate = QStringLiteral("/api/v1/uidai/aadhaar-authentication/initiate-transaction");
        QCOMPARE(call(on(a), "GET", initiate, a.pos()).status, 200);
        QCOMPARE(call(on(b), "GET", initiate, a.pos()).status, 503);
    }

    /// A catalogue imported through A is served by B within seconds, and by a server started later.
    void catalogueImportedOnOneServerIsServedByAll()
    {
        TestServer a;
        SecondServer b(a, m_systemClock);
        const QString path = QStringLiteral("/api/v1/plans/catalogue");
        const auto versionOn = [&](const Target &target) {
            return call(target, "GET", path, a.pos()).data().value(QStringLiteral("catalogue_version")).toString();
        };
        const QString before = versionOn(on(b));
        QVERIFY(!before.isEmpty());
        const HttpResult put =
            m_http.send("PUT", a.url(path), TestCatalogues::changedCatalogue(QStringLiteral("2099.5"), 111),
                        {{"Authorization", a.liveAdmin()}, {"Content-Type", "application/json"}});
        QCOMPARE(put.status, 200);
        QCOMPARE(versionOn(on(a)), QStringLiteral("2099.5"));
        QTRY_COMPARE_WITH_TIMEOUT(versionOn(on(b)), QStringLiteral("2099.5"), 3 * PlanCatalogueStore::kPollMs);
        const HttpResult plans = call(on(b), "POST", QStringLiteral("/api/v1/plans/mobile/prepaid-plans"), a.pos(),
                                      QJsonObject{{QStringLiteral("operator_code"), QStringLiteral("AT")},
                                                  {QStringLiteral("circle_code"), QStringLiteral("DL")}});
        QCOMPARE(plans.status, 200);
        QVERIFY2(plans.body.contains("\"amount\":111") || plans.body.contains("\"amount\": 111"),
                 plans.body.left(300).constData());

        SecondServer later(a, m_systemClock); // its data directory has no catalogue file
        QCOMPARE(versionOn(on(later)), QStringLiteral("2099.5"));

        // The offline import (`rechargedesk plans import`) into one server's data directory reaches the others.
        QString error;
        QVERIFY2(PlanCatalogueStore::importFile(b.dataDir(),
                                                TestCatalogues::changedCatalogue(QStringLiteral("2099.6"), 112),
                                                OperatorCatalog::builtIn(), &error),
                 qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(versionOn(on(a)), QStringLiteral("2099.6"), 3 * PlanCatalogueStore::kPollMs);
        QTRY_COMPARE_WITH_TIMEOUT(versionOn(on(later)), QStringLiteral("2099.6"), 3 * PlanCatalogueStore::kPollMs);
    }

    /// At start a server serves the published catalogue, unless its own catalogue file is newer (an offline
    /// import while it was stopped): that one it serves and publishes to the others.
    void newerCatalogueFileWinsAtStart()
    {
        TestServer a;
        const QString path = QStringLiteral("/api/v1/plans/catalogue");
        const auto versionOn = [&](const Target &target) {
            return call(target, "GET", path, a.pos()).data().value(QStringLiteral("catalogue_version")).toString();
        };
        const auto importInto = [](const QString &dataDir, const QString &version) {
            QString error;
            return PlanCatalogueStore::importFile(dataDir, TestCatalogues::changedCatalogue(version, 101),
                                                  OperatorCatalog::builtIn(), &error) != nullptr;
        };
        QCOMPARE(m_http
                     .send("PUT", a.url(path), TestCatalogues::changedCatalogue(QStringLiteral("2099.2"), 102),
                           {{"Authorization", a.liveAdmin()}, {"Content-Type", "application/json"}})
                     .status,
                 200);

        QTemporaryDir older;
        QVERIFY(importInto(older.path(), QStringLiteral("2099.1")));
        QFile file(PlanCatalogueStore::catalogueFile(older.path()));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTimeUtc().addDays(-1), QFileDevice::FileModificationTime));
        file.close();
        SecondServer b(a, m_systemClock, true, older.path());
        QCOMPARE(versionOn(on(b)), QStringLiteral("2099.2"));

        QTemporaryDir newer;
        QVERIFY(importInto(newer.path(), QStringLiteral("2099.3")));
        SecondServer c(a, m_systemClock, true, newer.path());
        QCOMPARE(versionOn(on(c)), QStringLiteral("2099.3"));
        QTRY_COMPARE_WITH_TIMEOUT(versionOn(on(a)), QStringLiteral("2099.3"), 3 * PlanCatalogueStore::kPollMs);
        QTRY_COMPARE_WITH_TIMEOUT(versionOn(on(b)), QStringLiteral("2099.3"), 3 * PlanCatalogueStore::kPollMs);
    }

    /// Shop settings and sale terms changed through A apply on B at once: B's next sale uses the new rate.
    void shopSettingsChangedOnOneServerApplyOnTheOther()
    {
        TestServer a;
        SecondServer b(a, m_systemClock);
        QCOMPARE(call(on(b), "POST", kMobile, a.pos(), mobileBody()).data().value(QStringLiteral("discount")),
                 QStringLiteral("₹3.74")); // RJ's default 1.5 %
        const HttpResult changed =
            call(on(a), "PUT", QStringLiteral("/api/v1/shop"), a.liveAdmin(),
                 QJsonObject{{QStringLiteral("name"), QStringLiteral("Sharma Telecom")},
                             {QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("RJ"), 0}}}});
        QCOMPARE(changed.status, 200);
        const QJsonObject shop = call(on(b), "GET", QStringLiteral("/api/v1/shop"), a.pos()).data();
        QCOMPARE(shop.value(QStringLiteral("name")).toString(), QStringLiteral("Sharma Telecom"));
        QCOMPARE(call(on(b), "POST", kMobile, a.pos(), mobileBody()).data().value(QStringLiteral("discount")),
                 QStringLiteral("₹0.00"));
    }
};

QTEST_MAIN(TestSharedState)
#include "tst_sharedstate.moc"
