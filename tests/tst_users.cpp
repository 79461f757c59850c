#include "store/accountrepository.h"
#include "testserver.h"
#include "users/pinhasher.h"
#include "users/userrepository.h"

#include <QJsonArray>
#include <QTest>

namespace {

const QDateTime kStart(QDate(2025, 3, 14), QTime(4, 30, 0), Qt::UTC); // 10:00 IST

/// The key id inside a "Basic base64(key_id:secret)" header value.
QString keyIdOf(const QByteArray &authorization)
{
    const QByteArray decoded = QByteArray::fromBase64(authorization.mid(6));
    return QString::fromUtf8(decoded.left(decoded.indexOf(':')));
}

} // namespace

/// Users, PIN sign-in, sessions, shop settings and the audit log over real HTTP.
class TestUsers final : public QObject
{
    Q_OBJECT

private:
    /// A JSON request (`path` may carry a query) with the given key and, when not empty, a session token.
    static HttpResult call(TestServer &server, const QByteArray &method, const QString &path, const QByteArray &key,
                           const QJsonObject &body = {}, const QByteArray &session = {})
    {
        QUrl url = server.url(path.section(QLatin1Char('?'), 0, 0));
        url.setQuery(path.section(QLatin1Char('?'), 1));
        return server.http().sendJson(method, url, key, body, session);
    }

    /// Creates a user through the API (admin key); returns its id.
    static qint64 addUser(TestServer &server, const QString &name, const QString &role, const QString &pin,
                          const QByteArray &session = {})
    {
        const HttpResult result = call(
            server, "POST", QStringLiteral("/api/v1/users"), server.liveAdmin(),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("role"), role}, {QStringLiteral("pin"), pin}},
            session);
        if (result.status != 201)
            qWarning("addUser: %d %s", result.status, result.body.constData());
        return result.data().value(QStringLiteral("id")).toInteger();
    }

    static HttpResult signIn(TestServer &server, const QString &name, const QString &pin)
    {
        return call(server, "POST", QStringLiteral("/api/v1/users/sign-in"), server.pos(),
                    QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("pin"), pin}});
    }

    static QByteArray tokenOf(const HttpResult &signInResult)
    {
        return signInResult.data().value(QStringLiteral("session_token")).toString().toLatin1();
    }

    /// A shop object without its sale terms (discount_rates, sandbox_settle_delay_ms).
    static QJsonObject basics(QJsonObject shop)
    {
        shop.remove(QStringLiteral("discount_rates"));
        shop.remove(QStringLiteral("sandbox_settle_delay_ms"));
        return shop;
    }

    /// The discount rate in force for `code` in a shop object, in basis points (-1 if missing).
    static int rateOf(const QJsonObject &shop, const QString &code)
    {
        for (const QJsonValue &value : shop.value(QStringLiteral("discount_rates")).toArray()) {
            if (value.toObject().value(QStringLiteral("operator_code")).toString() == code)
                return value.toObject().value(QStringLiteral("basis_points")).toInt(-1);
        }
        return -1;
    }

    static QJsonArray auditItems(TestServer &server)
    {
        const HttpResult result = call(server, "GET", QStringLiteral("/api/v1/audit-log"), server.liveAdmin());
        return result.data().value(QStringLiteral("items")).toArray();
    }

    static int userCount(TestServer &server)
    {
        return call(server, "GET", QStringLiteral("/api/v1/users"), server.liveAdmin())
            .data()
            .value(QStringLiteral("count"))
            .toInt(-1);
    }

private slots:
    void pinRules_data()
    {
        QTest::addColumn<QString>("pin");
        QTest::addColumn<bool>("valid");
        QTest::newRow("4 digits") << QStringLiteral("1234") << true;
        QTest::newRow("8 digits") << QStringLiteral("12345678") << true;
        QTest::newRow("leading zero") << QStringLiteral("0007") << true;
        QTest::newRow("3 digits") << QStringLiteral("123") << false;
        QTest::newRow("9 digits") << QStringLiteral("123456789") << false;
        QTest::newRow("letter") << QStringLiteral("12a4") << false;
        QTest::newRow("blank inside") << QStringLiteral("12 34") << false;
        QTest::newRow("sign") << QStringLiteral("-1234") << false;
        QTest::newRow("devanagari digits") << QStringLiteral("१२३४") << false;
        QTest::newRow("empty") << QString() << false;
    }
    void pinRules()
    {
        QFETCH(QString, pin);
        QFETCH(bool, valid);
        QCOMPARE(PinHasher::isValidPin(pin), valid);
    }

    void pinHashing()
    {
        const QString hash = PinHasher::hash(QStringLiteral("0420"));
        QVERIFY(hash.startsWith(QLatin1String("$argon2id$")));
        QVERIFY(!hash.contains(QLatin1String("0420")));
        QVERIFY(PinHasher::verify(hash, QStringLiteral("0420")));
        QVERIFY(!PinHasher::verify(hash, QStringLiteral("420")));
        QVERIFY(!PinHasher::verify(hash, QStringLiteral("0421")));
        QVERIFY(!PinHasher::verify(QStringLiteral("not a hash"), QStringLiteral("0420")));
        QVERIFY(PinHasher::hash(QStringLiteral("0420")) != hash); // salted
    }

    void signInOpensSession()
    {
        ManualClock clock(kStart);
        TestServer server(TestServer::defaultOptions(), &clock);
        const qint64 id = addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        QVERIFY(id > 0);

        const HttpResult result = signIn(server, QStringLiteral("  asha "), QStringLiteral("246802"));
        QCOMPARE(result.status, 200);
        const QJsonObject data = result.data();
        QCOMPARE(data.value(QStringLiteral("entity")).toString(), QStringLiteral("session"));
        QCOMPARE(QByteArray::fromBase64(data.value(QStringLiteral("session_token")).toString().toLatin1(),
                                        QByteArray::Base64UrlEncoding)
                     .size(),
                 32);
        QCOMPARE(data.value(QStringLiteral("expires_at")).toString(), QStringLiteral("2025-03-14 22:00:00"));
        const QJsonObject user = data.value(QStringLiteral("user")).toObject();
        QCOMPARE(user, (QJsonObject{{QStringLiteral("entity"), QStringLiteral("user")},
                                    {QStringLiteral("id"), id},
                                    {QStringLiteral("name"), QStringLiteral("Asha")},
                                    {QStringLiteral("role"), QStringLiteral("admin")},
                                    {QStringLiteral("active"), true}}));
        // Two sign-ins give two different sessions.
        QVERIFY(tokenOf(signIn(server, QStringLiteral("Asha"), QStringLiteral("246802"))) != tokenOf(result));
    }

    void wrongPinSaysAttemptsLeft()
    {
        TestServer server;
        addUser(server, QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1357"));
        const HttpResult result = signIn(server, QStringLiteral("Ravi"), QStringLiteral("1358"));
        QCOMPARE(result.status, 401);
        QCOMPARE(result.error().value(QStringLiteral("code")).toString(), QStringLiteral("AUTHENTICATION_ERROR"));
        QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), QStringLiteral("wrong_pin"));
        QVERIFY2(
            result.error().value(QStringLiteral("description")).toString().contains(QLatin1String("4 attempts left")),
            result.body.constData());
        // A right PIN afterwards works and resets the count.
        QCOMPARE(signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357")).status, 200);
        QVERIFY(signIn(server, QStringLiteral("Ravi"), QStringLiteral("0000"))
                    .error()
                    .value(QStringLiteral("description"))
                    .toString()
                    .contains(QLatin1String("4 attempts left")));
    }

    void badSignInBody_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("no name") << QJsonObject{{QStringLiteral("pin"), QStringLiteral("1234")}}
                                 << QStringLiteral("name");
        QTest::newRow("no pin") << QJsonObject{{QStringLiteral("name"), QStringLiteral("Ravi")}}
                                << QStringLiteral("pin");
        QTest::newRow("pin as number") << QJsonObject{{QStringLiteral("name"), QStringLiteral("Ravi")},
                                                      {QStringLiteral("pin"), 1357}}
                                       << QStringLiteral("pin");
    }
    void badSignInBody()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        TestServer server;
        const HttpResult result = call(server, "POST", QStringLiteral("/api/v1/users/sign-in"), server.pos(), body);
        QCOMPARE(result.status, 400);
        QCOMPARE(result.error().value(QStringLiteral("field")).toString(), field);
    }

    void lockoutAfterFiveWrongPins()
    {
        ManualClock clock(kStart);
        TestServer server(TestServer::defaultOptions(), &clock);
        addUser(server, QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1357"));
        for (int attempt = 1; attempt <= 5; ++attempt) {
            const HttpResult result = signIn(server, QStringLiteral("Ravi"), QStringLiteral("9999"));
            QCOMPARE(result.status, 401);
            QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), QStringLiteral("wrong_pin"));
        }
        // Locked: even the right PIN is refused, with the time to wait.
        HttpResult locked = signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357"));
        QCOMPARE(locked.status, 429);
        QCOMPARE(locked.error().value(QStringLiteral("code")).toString(), QStringLiteral("RATE_LIMIT_ERROR"));
        QCOMPARE(locked.error().value(QStringLiteral("reason")).toString(), QStringLiteral("user_locked"));
        QCOMPARE(locked.header("Retry-After"), QByteArray("300"));

        clock.advanceMs(4 * 60'000);
        locked = signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357"));
        QCOMPARE(locked.status, 429);
        QCOMPARE(locked.header("Retry-After"), QByteArray("60"));

        clock.advanceMs(60'000);
        QCOMPARE(signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357")).status, 200);

        const QJsonArray audit = auditItems(server);
        QVERIFY(!audit.isEmpty());
        const QJsonObject entry = audit.first().toObject();
        QCOMPARE(entry.value(QStringLiteral("action")).toString(), QStringLiteral("user.locked"));
        QCOMPARE(entry.value(QStringLiteral("actor")).toString(), QStringLiteral("key:") + keyIdOf(server.pos()));
        QCOMPARE(entry.value(QStringLiteral("datetime")).toString(), QStringLiteral("2025-03-14 10:00:00"));
    }

    void lockEscalatesAndIsAudited()
    {
        ManualClock clock(kStart);
        TestServer server(TestServer::defaultOptions(), &clock);
        addUser(server, QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1357"));
        // Each further round of five wrong PINs locks longer: 5 min, 15 min, 1 h, then 4 h each time.
        const QList<int> lockSeconds{300, 900, 3600, 14400, 14400};
        const QStringList lockWords{QStringLiteral("5 minutes"), QStringLiteral("15 minutes"), QStringLiteral("1 hour"),
                                    QStringLiteral("4 hours"), QStringLiteral("4 hours")};
        for (qsizetype round = 0; round < lockSeconds.size(); ++round) {
            for (int attempt = 1; attempt <= 5; ++attempt) {
                const HttpResult wrong = signIn(server, QStringLiteral("Ravi"), QStringLiteral("9999"));
                QCOMPARE(wrong.status, 401);
                if (attempt == 1 && round > 0)
                    QVERIFY2(
                        wrong.error().value(QStringLiteral("description")).toString().contains(lockWords.at(round)),
                        wrong.body.constData());
            }
            const HttpResult locked = signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357"));
            QCOMPARE(locked.status, 429);
            QCOMPARE(locked.header("Retry-After"), QByteArray::number(lockSeconds.at(round)));
            // Every lock is in the audit log, with its length.
            const QJsonObject entry = auditItems(server).first().toObject();
            QCOMPARE(entry.value(QStringLiteral("action")).toString(), QStringLiteral("user.locked"));
            QCOMPARE(entry.value(QStringLiteral("detail")).toString(),
                     QStringLiteral("Ravi locked for %1 after %2 wrong PINs in a row")
                         .arg(lockWords.at(round))
                         .arg((round + 1) * 5));
            clock.advanceMs(lockSeconds.at(round) * 1000LL);
        }
        int locks = 0;
        for (const QJsonValue &item : auditItems(server))
            locks += item.toObject().value(QStringLiteral("action")).toString() == QLatin1String("user.locked");
        QCOMPARE(locks, 5);

        // The right PIN ends the escalation: the next lock is 5 minutes again.
        QCOMPARE(signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357")).status, 200);
        for (int attempt = 1; attempt <= 5; ++attempt)
            QCOMPARE(signIn(server, QStringLiteral("Ravi"), QStringLiteral("9999")).status, 401);
        QCOMPARE(signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357")).header("Retry-After"),
                 QByteArray("300"));

        // A name that is nobody escalates alike, so the answers do not tell names apart.
        for (int round = 0; round < 2; ++round) {
            for (int attempt = 1; attempt <= 5; ++attempt)
                QCOMPARE(signIn(server, QStringLiteral("Nobody"), QStringLiteral("9999")).status, 401);
            const HttpResult locked = signIn(server, QStringLiteral("Nobody"), QStringLiteral("9999"));
            QCOMPARE(locked.status, 429);
            QCOMPARE(locked.header("Retry-After"), QByteArray::number(lockSeconds.at(round)));
            clock.advanceMs(lockSeconds.at(round) * 1000LL);
        }
    }

    void adminPinsNeedSixDigits()
    {
        TestServer server;
        const auto create = [&server](const QString &name, const QString &role, const QString &pin) {
            return call(server, "POST", QStringLiteral("/api/v1/users"), server.liveAdmin(),
                        QJsonObject{{QStringLiteral("name"), name},
                                    {QStringLiteral("role"), role},
                                    {QStringLiteral("pin"), pin}});
        };
        HttpResult r = create(QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("2468"));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("pin"));
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("invalid_pin"));
        QVERIFY2(r.error().value(QStringLiteral("description")).toString().contains(QLatin1String("6 to 8")),
                 r.body.constData());
        QCOMPARE(create(QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("24680")).status, 400);
        QCOMPARE(userCount(server), 0);
        r = create(QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        QCOMPARE(r.status, 201);
        const qint64 asha = r.data().value(QStringLiteral("id")).toInteger();
        r = create(QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1357")); // clerks stay 4-8
        QCOMPARE(r.status, 201);
        const qint64 ravi = r.data().value(QStringLiteral("id")).toInteger();

        const QString reset = QStringLiteral("/api/v1/users/%1/reset-pin");
        r = call(server, "POST", reset.arg(asha), server.liveAdmin(),
                 QJsonObject{{QStringLiteral("pin"), QStringLiteral("4321")}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("invalid_pin"));
        QCOMPARE(signIn(server, QStringLiteral("Asha"), QStringLiteral("246802")).status, 200);
        QCOMPARE(call(server, "POST", reset.arg(asha), server.liveAdmin(),
                      QJsonObject{{QStringLiteral("pin"), QStringLiteral("654321")}})
                     .status,
                 200);
        QCOMPARE(call(server, "POST", reset.arg(ravi), server.liveAdmin(),
                      QJsonObject{{QStringLiteral("pin"), QStringLiteral("4321")}})
                     .status,
                 200);

        // An admin given a 4-digit PIN before this rule still signs in with it, until it is changed.
        {
            SystemClock clock;
            UserRepository users(server.db());
            WriteTransaction transaction(server.db());
            const qint64 account = AccountRepository(server.db()).findAccount(QStringLiteral("shop")).value_or(0);
            users.insert(account, QStringLiteral("Old"), UserRole::Admin, PinHasher::hash(QStringLiteral("2468")),
                         clock.nowMs());
            transaction.commit();
        }
        QCOMPARE(signIn(server, QStringLiteral("Old"), QStringLiteral("2468")).status, 200);
    }

    void unknownAndDeactivatedNamesLookLikeWrongPins()
    {
        TestServer server;
        addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        const qint64 ravi = addUser(server, QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1357"));
        QCOMPARE(
            call(server, "POST", QStringLiteral("/api/v1/users/%1/deactivate").arg(ravi), server.liveAdmin()).status,
            200);

        const HttpResult known = signIn(server, QStringLiteral("Asha"), QStringLiteral("1111"));
        const HttpResult unknown = signIn(server, QStringLiteral("Nobody"), QStringLiteral("1111"));
        const HttpResult deactivated = signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357"));
        QCOMPARE(unknown.status, 401);
        QCOMPARE(deactivated.status, 401);
        QCOMPARE(unknown.error(), known.error());
        QCOMPARE(deactivated.error(), known.error());

        // An unknown name also locks after five tries, like a real one.
        for (int attempt = 2; attempt <= 5; ++attempt)
            QCOMPARE(signIn(server, QStringLiteral("Nobody"), QStringLiteral("1111")).status, 401);
        const HttpResult locked = signIn(server, QStringLiteral("Nobody"), QStringLiteral("1111"));
        QCOMPARE(locked.status, 429);
        QCOMPARE(locked.error().value(QStringLiteral("reason")).toString(), QStringLiteral("user_locked"));
    }

    void adminEndpointsRefusePosKeys_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::newRow("list users") << QByteArray("GET") << QStringLiteral("/api/v1/users");
        QTest::newRow("create user") << QByteArray("POST") << QStringLiteral("/api/v1/users");
        QTest::newRow("reset pin") << QByteArray("POST") << QStringLiteral("/api/v1/users/1/reset-pin");
        QTest::newRow("deactivate") << QByteArray("POST") << QStringLiteral("/api/v1/users/1/deactivate");
        QTest::newRow("put shop") << QByteArray("PUT") << QStringLiteral("/api/v1/shop");
        QTest::newRow("audit log") << QByteArray("GET") << QStringLiteral("/api/v1/audit-log");
    }
    void adminEndpointsRefusePosKeys()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        TestServer server;
        const qint64 id = addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        QCOMPARE(id, qint64(1));
        const HttpResult result = call(server, method, path, server.pos(),
                                       QJsonObject{{QStringLiteral("name"), QStringLiteral("Mallory")},
                                                   {QStringLiteral("role"), QStringLiteral("admin")},
                                                   {QStringLiteral("pin"), QStringLiteral("1234")}});
        QCOMPARE(result.status, 403);
        QCOMPARE(result.error().value(QStringLiteral("code")).toString(), QStringLiteral("PERMISSION_ERROR"));
        // Nothing changed.
        QCOMPARE(userCount(server), 1);
        QCOMPARE(signIn(server, QStringLiteral("Asha"), QStringLiteral("246802")).status, 200);
        QCOMPARE(auditItems(server).size(), 1); // only the creation of Asha
    }

    void createListResetDeactivate()
    {
        TestServer server;
        const qint64 asha = addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        HttpResult created = call(server, "POST", QStringLiteral("/api/v1/users"), server.liveAdmin(),
                                  QJsonObject{{QStringLiteral("name"), QStringLiteral(" Ravi ")},
                                              {QStringLiteral("role"), QStringLiteral("clerk")},
                                              {QStringLiteral("pin"), QStringLiteral("0135")}});
        QCOMPARE(created.status, 201);
        const qint64 ravi = created.data().value(QStringLiteral("id")).toInteger();
        QCOMPARE(created.data(), (QJsonObject{{QStringLiteral("entity"), QStringLiteral("user")},
                                              {QStringLiteral("id"), ravi},
                                              {QStringLiteral("name"), QStringLiteral("Ravi")},
                                              {QStringLiteral("role"), QStringLiteral("clerk")},
                                              {QStringLiteral("active"), true}}));

        const HttpResult list = call(server, "GET", QStringLiteral("/api/v1/users"), server.liveAdmin());
        QCOMPARE(list.status, 200);
        QCOMPARE(list.data().value(QStringLiteral("entity")).toString(), QStringLiteral("collection"));
        QCOMPARE(list.data().value(QStringLiteral("count")).toInt(), 2);
        const QJsonArray items = list.data().value(QStringLiteral("items")).toArray();
        QCOMPARE(items.at(0).toObject().value(QStringLiteral("id")).toInteger(), asha);
        QCOMPARE(items.at(1).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Ravi"));

        // Reset: the old PIN stops working, the new one works.
        const HttpResult reset =
            call(server, "POST", QStringLiteral("/api/v1/users/%1/reset-pin").arg(ravi), server.liveAdmin(),
                 QJsonObject{{QStringLiteral("pin"), QStringLiteral("97531")}});
        QCOMPARE(reset.status, 200);
        QCOMPARE(reset.data().value(QStringLiteral("id")).toInteger(), ravi);
        QCOMPARE(signIn(server, QStringLiteral("Ravi"), QStringLiteral("0135")).status, 401);
        const HttpResult session = signIn(server, QStringLiteral("Ravi"), QStringLiteral("97531"));
        QCOMPARE(session.status, 200);

        // Deactivate: inactive in the list, cannot sign in, and its session no longer counts.
        const HttpResult gone =
            call(server, "POST", QStringLiteral("/api/v1/users/%1/deactivate").arg(ravi), server.liveAdmin());
        QCOMPARE(gone.status, 200);
        QCOMPARE(gone.data().value(QStringLiteral("active")).toBool(true), false);
        QCOMPARE(signIn(server, QStringLiteral("Ravi"), QStringLiteral("97531")).status, 401);
        // The session of a deactivated user is refused outright (issue 12): 401, nothing changes.
        const HttpResult refused = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                                        QJsonObject{{QStringLiteral("idle_lock_seconds"), 300}}, tokenOf(session));
        QCOMPARE(refused.status, 401);
        QCOMPARE(refused.error().value(QStringLiteral("reason")).toString(), QStringLiteral("session_invalid"));
        const HttpResult write = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                                      QJsonObject{{QStringLiteral("idle_lock_seconds"), 300}});
        QCOMPARE(write.status, 200);
        QCOMPARE(auditItems(server).first().toObject().value(QStringLiteral("actor")).toString(),
                 QStringLiteral("key:") + keyIdOf(server.liveAdmin()));
    }

    void invalidUserInputChangesNothing_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");
        const auto user = [](const QJsonValue &name, const QJsonValue &role, const QJsonValue &pin) {
            return QJsonObject{
                {QStringLiteral("name"), name}, {QStringLiteral("role"), role}, {QStringLiteral("pin"), pin}};
        };
        QTest::newRow("taken name, other case")
            << user(QStringLiteral("ASHA"), QStringLiteral("clerk"), QStringLiteral("1234")) << 409
            << QStringLiteral("name_taken");
        QTest::newRow("blank name") << user(QStringLiteral("  "), QStringLiteral("clerk"), QStringLiteral("1234"))
                                    << 400 << QStringLiteral("missing_field");
        QTest::newRow("long name") << user(QString(41, QLatin1Char('x')), QStringLiteral("clerk"),
                                           QStringLiteral("1234"))
                                   << 400 << QStringLiteral("invalid_name");
        QTest::newRow("control character")
            << user(QStringLiteral("Ra\tvi"), QStringLiteral("clerk"), QStringLiteral("1234")) << 400
            << QStringLiteral("control_characters"); // JsonFields refuses it for every field (issue 12)
        QTest::newRow("bad role") << user(QStringLiteral("Ravi"), QStringLiteral("owner"), QStringLiteral("1234"))
                                  << 400 << QStringLiteral("invalid_role");
        QTest::newRow("short pin") << user(QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("123"))
                                   << 400 << QStringLiteral("invalid_pin");
        QTest::newRow("pin with letter") << user(QStringLiteral("Ravi"), QStringLiteral("clerk"),
                                                 QStringLiteral("12a4"))
                                         << 400 << QStringLiteral("invalid_pin");
    }
    void invalidUserInputChangesNothing()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, reason);
        TestServer server;
        addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        const HttpResult result = call(server, "POST", QStringLiteral("/api/v1/users"), server.liveAdmin(), body);
        QCOMPARE(result.status, status);
        QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), reason);
        QCOMPARE(userCount(server), 1);
        QCOMPARE(auditItems(server).size(), 1);
    }

    void resetPinValidation()
    {
        TestServer server;
        const qint64 asha = addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        const QString path = QStringLiteral("/api/v1/users/%1/reset-pin");
        HttpResult result = call(server, "POST", path.arg(asha), server.liveAdmin(),
                                 QJsonObject{{QStringLiteral("pin"), QStringLiteral("12")}});
        QCOMPARE(result.status, 400);
        QCOMPARE(result.error().value(QStringLiteral("field")).toString(), QStringLiteral("pin"));
        QCOMPARE(call(server, "POST", path.arg(999), server.liveAdmin(),
                      QJsonObject{{QStringLiteral("pin"), QStringLiteral("1234")}})
                     .status,
                 404);
        QCOMPARE(call(server, "POST", QStringLiteral("/api/v1/users/abc/deactivate"), server.liveAdmin()).status, 404);
        // Another shop's admin key cannot see or touch this shop's users.
        const QByteArray otherShop = server.createKey(Mode::Live, Scope::Admin, QStringLiteral("other shop"));
        QCOMPARE(call(server, "POST", path.arg(asha), otherShop,
                      QJsonObject{{QStringLiteral("pin"), QStringLiteral("1234")}})
                     .status,
                 404);
        QCOMPARE(call(server, "GET", QStringLiteral("/api/v1/users"), otherShop)
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(-1),
                 0);
        QCOMPARE(signIn(server, QStringLiteral("Asha"), QStringLiteral("246802")).status, 200);
    }

    void lastActiveAdminCannotBeDeactivated()
    {
        TestServer server;
        const qint64 asha = addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        const QString path = QStringLiteral("/api/v1/users/%1/deactivate");
        HttpResult result = call(server, "POST", path.arg(asha), server.liveAdmin());
        QCOMPARE(result.status, 409);
        QCOMPARE(result.error().value(QStringLiteral("code")).toString(), QStringLiteral("CONFLICT_ERROR"));
        QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), QStringLiteral("last_admin"));
        QCOMPARE(signIn(server, QStringLiteral("Asha"), QStringLiteral("246802")).status, 200);

        const qint64 vikram =
            addUser(server, QStringLiteral("Vikram"), QStringLiteral("admin"), QStringLiteral("864200"));
        QCOMPARE(call(server, "POST", path.arg(asha), server.liveAdmin()).status, 200);
        result = call(server, "POST", path.arg(vikram), server.liveAdmin());
        QCOMPARE(result.status, 409);
        QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), QStringLiteral("last_admin"));
    }

    void clerkSessionCannotDoAdminWrites()
    {
        TestServer server;
        addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        addUser(server, QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1357"));
        const QByteArray clerk = tokenOf(signIn(server, QStringLiteral("Ravi"), QStringLiteral("1357")));
        const HttpResult result = call(server, "POST", QStringLiteral("/api/v1/users"), server.liveAdmin(),
                                       QJsonObject{{QStringLiteral("name"), QStringLiteral("Mallory")},
                                                   {QStringLiteral("role"), QStringLiteral("admin")},
                                                   {QStringLiteral("pin"), QStringLiteral("1234")}},
                                       clerk);
        QCOMPARE(result.status, 403);
        QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), QStringLiteral("admin_role_required"));
        QCOMPARE(userCount(server), 2);
    }

    void auditNamesTheSignedInUser()
    {
        ManualClock clock(kStart);
        TestServer server(TestServer::defaultOptions(), &clock);
        addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        const QByteArray asha = tokenOf(signIn(server, QStringLiteral("Asha"), QStringLiteral("246802")));
        QVERIFY(!asha.isEmpty());
        clock.advanceMs(60'000);
        const qint64 ravi =
            addUser(server, QStringLiteral("Ravi"), QStringLiteral("clerk"), QStringLiteral("1357"), asha);
        QVERIFY(ravi > 0);
        QCOMPARE(call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                      QJsonObject{{QStringLiteral("name"), QStringLiteral("Sharma Mobiles")}}, asha)
                     .status,
                 200);

        const QJsonArray items = auditItems(server);
        QCOMPARE(items.size(), 3);
        const QJsonObject shop = items.at(0).toObject();
        QCOMPARE(shop.value(QStringLiteral("entity")).toString(), QStringLiteral("audit_entry"));
        QCOMPARE(shop.value(QStringLiteral("actor")).toString(), QStringLiteral("user:Asha"));
        QCOMPARE(shop.value(QStringLiteral("action")).toString(), QStringLiteral("shop.update"));
        QVERIFY(shop.value(QStringLiteral("detail")).toString().contains(QLatin1String("Sharma Mobiles")));
        const QJsonObject create = items.at(1).toObject();
        QCOMPARE(create.value(QStringLiteral("actor")).toString(), QStringLiteral("user:Asha"));
        QCOMPARE(create.value(QStringLiteral("action")).toString(), QStringLiteral("user.create"));
        QCOMPARE(create.value(QStringLiteral("datetime")).toString(), QStringLiteral("2025-03-14 10:01:00"));
        QVERIFY(create.value(QStringLiteral("detail")).toString().contains(QLatin1String("Ravi")));
        QVERIFY(!create.value(QStringLiteral("detail")).toString().contains(QLatin1String("1357")));
        const QJsonObject first = items.at(2).toObject();
        QCOMPARE(first.value(QStringLiteral("actor")).toString(), QStringLiteral("key:") + keyIdOf(server.liveAdmin()));

        // After sign-out the token names nobody: a request carrying it is refused (401), nothing changes.
        const HttpResult out = call(server, "POST", QStringLiteral("/api/v1/users/sign-out"), server.pos(), {}, asha);
        QCOMPARE(out.status, 200);
        QCOMPARE(out.data(), (QJsonObject{{QStringLiteral("entity"), QStringLiteral("session")},
                                          {QStringLiteral("signed_out"), true}}));
        const HttpResult stale = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                                      QJsonObject{{QStringLiteral("address"), QStringLiteral("MG Road")}}, asha);
        QCOMPARE(stale.status, 401);
        QCOMPARE(stale.error().value(QStringLiteral("reason")).toString(), QStringLiteral("session_invalid"));
        QCOMPARE(auditItems(server).size(), 3);
    }

    void sessionExpiresAfterTwelveHours()
    {
        ManualClock clock(kStart);
        TestServer server(TestServer::defaultOptions(), &clock);
        addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        const QByteArray asha = tokenOf(signIn(server, QStringLiteral("Asha"), QStringLiteral("246802")));
        clock.advanceMs(12 * 3600 * 1000 - 1000);
        call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
             QJsonObject{{QStringLiteral("idle_lock_seconds"), 60}}, asha);
        QCOMPARE(auditItems(server).first().toObject().value(QStringLiteral("actor")).toString(),
                 QStringLiteral("user:Asha"));
        clock.advanceMs(1000);
        const HttpResult expired = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                                        QJsonObject{{QStringLiteral("idle_lock_seconds"), 90}}, asha);
        QCOMPARE(expired.status, 401);
        QCOMPARE(expired.error().value(QStringLiteral("reason")).toString(), QStringLiteral("session_invalid"));
        QCOMPARE(call(server, "GET", QStringLiteral("/api/v1/shop"), server.pos())
                     .data()
                     .value(QStringLiteral("idle_lock_seconds"))
                     .toInt(),
                 60);
    }

    void auditLogPages()
    {
        TestServer server;
        for (int i = 30; i <= 34; ++i)
            call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                 QJsonObject{{QStringLiteral("idle_lock_seconds"), i}});
        HttpResult page = call(server, "GET", QStringLiteral("/api/v1/audit-log?limit=2"), server.liveAdmin());
        QCOMPARE(page.status, 200);
        QCOMPARE(page.data().value(QStringLiteral("count")).toInt(), 2);
        QStringList details;
        QString cursor = page.data().value(QStringLiteral("next_cursor")).toString();
        for (const QJsonValue &item : page.data().value(QStringLiteral("items")).toArray())
            details.append(item.toObject().value(QStringLiteral("detail")).toString());
        while (!cursor.isEmpty()) {
            page =
                call(server, "GET", QStringLiteral("/api/v1/audit-log?limit=2&cursor=") + cursor, server.liveAdmin());
            QCOMPARE(page.status, 200);
            for (const QJsonValue &item : page.data().value(QStringLiteral("items")).toArray())
                details.append(item.toObject().value(QStringLiteral("detail")).toString());
            cursor = page.data().value(QStringLiteral("next_cursor")).toString();
        }
        QCOMPARE(details.size(), 5); // 120 -> 30 is a change too
        QVERIFY(details.first().contains(QLatin1String("33 s -> 34 s")));
        QVERIFY(details.last().contains(QLatin1String("120 s -> 30 s")));

        for (const QString &query : {QStringLiteral("limit=0"), QStringLiteral("limit=201"), QStringLiteral("limit=x"),
                                     QStringLiteral("cursor=-1")}) {
            const HttpResult bad =
                call(server, "GET", QStringLiteral("/api/v1/audit-log?") + query, server.liveAdmin());
            QCOMPARE(bad.status, 400);
            QCOMPARE(bad.error().value(QStringLiteral("reason")).toString(), QStringLiteral("invalid_query_parameter"));
        }
    }

    void shopDefaultsAndUpdate()
    {
        TestServer server;
        HttpResult shop = call(server, "GET", QStringLiteral("/api/v1/shop"), server.pos());
        QCOMPARE(shop.status, 200);
        QCOMPARE(basics(shop.data()), (QJsonObject{{QStringLiteral("entity"), QStringLiteral("shop")},
                                                   {QStringLiteral("name"), QString()},
                                                   {QStringLiteral("address"), QString()},
                                                   {QStringLiteral("low_balance_threshold"), QStringLiteral("₹500.00")},
                                                   {QStringLiteral("idle_lock_seconds"), 120},
                                                   {QStringLiteral("circle_code"), QString()},
                                                   // issue 28: nothing changes until an admin turns shifts on
                                                   {QStringLiteral("shifts_enabled"), false},
                                                   {QStringLiteral("blind_count"), false},
                                                   {QStringLiteral("upi_vpa"), QString()},
                                                   {QStringLiteral("upi_payee_name"), QString()},
                                                   // issue 29: complaints are due 48 hours after they are raised
                                                   {QStringLiteral("complaint_deadline_hours"), 48}}));
        const QJsonObject expected{{QStringLiteral("entity"), QStringLiteral("shop")},
                                   {QStringLiteral("name"), QStringLiteral("Sharma Mobiles")},
                                   {QStringLiteral("address"), QStringLiteral("12 MG Road\nPune")},
                                   {QStringLiteral("low_balance_threshold"), QStringLiteral("₹1500.00")},
                                   {QStringLiteral("idle_lock_seconds"), 300},
                                   {QStringLiteral("circle_code"), QString()},
                                   {QStringLiteral("shifts_enabled"), false},
                                   {QStringLiteral("blind_count"), false},
                                   {QStringLiteral("upi_vpa"), QString()},
                                   {QStringLiteral("upi_payee_name"), QString()},
                                   {QStringLiteral("complaint_deadline_hours"), 48}};
        shop = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                    QJsonObject{{QStringLiteral("name"), QStringLiteral(" Sharma Mobiles ")},
                                {QStringLiteral("address"), QStringLiteral("12 MG Road\nPune")},
                                {QStringLiteral("low_balance_threshold_rupees"), QStringLiteral("1500")},
                                {QStringLiteral("idle_lock_seconds"), 300},
                                {QStringLiteral("unknown"), true}});
        QCOMPARE(shop.status, 200);
        QCOMPARE(basics(shop.data()), expected);
        QCOMPARE(basics(call(server, "GET", QStringLiteral("/api/v1/shop"), server.pos()).data()), expected);

        // Partial update; an empty address clears it.
        shop = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                    QJsonObject{{QStringLiteral("address"), QString()}});
        QCOMPARE(shop.status, 200);
        QCOMPARE(shop.data().value(QStringLiteral("address")).toString(), QString());
        QCOMPARE(shop.data().value(QStringLiteral("name")).toString(), QStringLiteral("Sharma Mobiles"));

        // The shop's circle (the Plans screen opens on it): none at first, a code of the table, "" unsets it.
        QCOMPARE(shop.data().value(QStringLiteral("circle_code")).toString(QStringLiteral("absent")), QString());
        shop = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                    QJsonObject{{QStringLiteral("circle_code"), QStringLiteral("RJ")}});
        QCOMPARE(shop.status, 200);
        QCOMPARE(call(server, "GET", QStringLiteral("/api/v1/shop"), server.pos())
                     .data()
                     .value(QStringLiteral("circle_code"))
                     .toString(),
                 QStringLiteral("RJ"));
        shop = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                    QJsonObject{{QStringLiteral("circle_code"), QString()}});
        QCOMPARE(shop.data().value(QStringLiteral("circle_code")).toString(QStringLiteral("absent")), QString());
    }

    void shopSaleTerms()
    {
        TestServer server;
        HttpResult shop = call(server, "GET", QStringLiteral("/api/v1/shop"), server.pos());
        const QJsonArray rates = shop.data().value(QStringLiteral("discount_rates")).toArray();
        QCOMPARE(rates.size(), 11); // 4 mobile, 6 DTH, 1 voucher
        QCOMPARE(rates.first().toObject(), (QJsonObject{{QStringLiteral("operator_code"), QStringLiteral("AT")},
                                                        {QStringLiteral("basis_points"), 200},
                                                        {QStringLiteral("default_basis_points"), 200}}));
        QCOMPARE(rateOf(shop.data(), QStringLiteral("GP")), 100);
        QCOMPARE(shop.data().value(QStringLiteral("sandbox_settle_delay_ms")).toInteger(),
                 TestServer::defaultOptions().settleDelayMs);

        shop = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                    QJsonObject{{QStringLiteral("discount_basis_points"),
                                 QJsonObject{{QStringLiteral("VI"), 400}, {QStringLiteral("TS"), QStringLiteral("0")}}},
                                {QStringLiteral("sandbox_settle_delay_ms"), 2500}});
        QCOMPARE(shop.status, 200);
        QCOMPARE(rateOf(shop.data(), QStringLiteral("VI")), 400);
        QCOMPARE(rateOf(shop.data(), QStringLiteral("TS")), 0);
        QCOMPARE(rateOf(shop.data(), QStringLiteral("AT")), 200);
        QCOMPARE(shop.data().value(QStringLiteral("sandbox_settle_delay_ms")).toInteger(), 2500);
        for (const QJsonValue &value : shop.data().value(QStringLiteral("discount_rates")).toArray()) {
            if (value.toObject().value(QStringLiteral("operator_code")).toString() == QLatin1String("VI"))
                QCOMPARE(value.toObject().value(QStringLiteral("default_basis_points")).toInt(), 350);
        }
        QCOMPARE(call(server, "GET", QStringLiteral("/api/v1/shop"), server.pos()).data(), shop.data());

        // One audit entry in words; a repeat that changes nothing writes none.
        QJsonArray audit = auditItems(server);
        QCOMPARE(audit.size(), 1);
        const QString detail = audit.first().toObject().value(QStringLiteral("detail")).toString();
        QVERIFY2(detail.contains(QLatin1String("discount VI 3.5 % -> 4.0 %")), qPrintable(detail));
        QVERIFY2(detail.contains(QLatin1String("discount TS 3.0 % -> 0.0 %")), qPrintable(detail));
        QVERIFY2(detail.contains(QLatin1String("sandbox settle delay 50 ms -> 2500 ms")), qPrintable(detail));
        QCOMPARE(call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(),
                      QJsonObject{{QStringLiteral("sandbox_settle_delay_ms"), 2500}})
                     .status,
                 200);
        QCOMPARE(auditItems(server).size(), 1);

        // A clerk's pos key reads the rates but cannot change them.
        QCOMPARE(call(server, "PUT", QStringLiteral("/api/v1/shop"), server.pos(),
                      QJsonObject{{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("VI"), 0}}}})
                     .status,
                 403);
    }

    // Issue 12: free text a clerk or an API client types ends up on receipts, in the audit log, in the terminal's
    // lists and in CSV exports; a control character, an escape sequence or a bidi override would make them read
    // otherwise than they are stored. Every such field is refused with 400, the field named.
    void freeTextRefusesControlCharacters_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("status");
        const QString bell = QStringLiteral("Ravi\u0007");
        const QString escape = QStringLiteral("Ra\u001b[2Jvi");
        const QString nextLine = QStringLiteral("Ra\u0085vi");
        const QString override = QStringLiteral("Ravi\u202egnp.exe");
        const QString separator = QStringLiteral("Ra\u2028vi");
        const QString user = QStringLiteral("/api/v1/users");
        QTest::newRow("user name") << QByteArray("POST") << user
                                   << QJsonObject{{QStringLiteral("name"), escape},
                                                  {QStringLiteral("role"), QStringLiteral("clerk")},
                                                  {QStringLiteral("pin"), QStringLiteral("1357")}}
                                   << QStringLiteral("name") << 400;
        QTest::newRow("sign-in name") << QByteArray("POST") << QStringLiteral("/api/v1/users/sign-in")
                                      << QJsonObject{{QStringLiteral("name"), bell},
                                                     {QStringLiteral("pin"), QStringLiteral("246802")}}
                                      << QStringLiteral("name") << 400;
        QTest::newRow("key name") << QByteArray("POST") << QStringLiteral("/api/v1/keys")
                                  << QJsonObject{{QStringLiteral("name"), override},
                                                 {QStringLiteral("mode"), QStringLiteral("test")},
                                                 {QStringLiteral("scope"), QStringLiteral("pos")}}
                                  << QStringLiteral("name") << 400;
        QTest::newRow("top-up note") << QByteArray("POST") << QStringLiteral("/api/v1/wallet/topups")
                                     << QJsonObject{{QStringLiteral("amount"), 100}, {QStringLiteral("note"), nextLine}}
                                     << QStringLiteral("note") << 400;
        QTest::newRow("shop name") << QByteArray("PUT") << QStringLiteral("/api/v1/shop")
                                   << QJsonObject{{QStringLiteral("name"), separator}} << QStringLiteral("name") << 400;
        QTest::newRow("shop address") << QByteArray("PUT") << QStringLiteral("/api/v1/shop")
                                      << QJsonObject{{QStringLiteral("address"), QStringLiteral("12 MG Road\u0000")}}
                                      << QStringLiteral("address") << 400;
        QTest::newRow("shop address bidi")
            << QByteArray("PUT") << QStringLiteral("/api/v1/shop") << QJsonObject{{QStringLiteral("address"), override}}
            << QStringLiteral("address") << 400;
        QTest::newRow("shop address on two lines is fine")
            << QByteArray("PUT") << QStringLiteral("/api/v1/shop")
            << QJsonObject{{QStringLiteral("address"), QStringLiteral("12 MG Road\nPune")}} << QString() << 200;
        QTest::newRow("Hindi name with joiners is fine")
            << QByteArray("PUT") << QStringLiteral("/api/v1/shop")
            << QJsonObject{{QStringLiteral("name"),
                            QStringLiteral("\u0936\u094d\u200d\u0930\u0940 \u0938\u094d\u091f\u094b\u0930")}}
            << QString() << 200;
        QTest::newRow("webhook password")
            << QByteArray("PUT") << QStringLiteral("/api/v1/webhook-endpoint")
            << QJsonObject{{QStringLiteral("url"), QStringLiteral("http://127.0.0.1:9/h")},
                           {QStringLiteral("webhook_password"), bell}}
            << QStringLiteral("webhook_password") << 400;
        QTest::newRow("upstream key id") << QByteArray("PUT") << QStringLiteral("/api/v1/upstream")
                                         << QJsonObject{{QStringLiteral("base_url"),
                                                         QStringLiteral("https://up.example/api/v1")},
                                                        {QStringLiteral("key_id"), escape},
                                                        {QStringLiteral("key_secret"), QStringLiteral("s3cret")}}
                                         << QStringLiteral("key_id") << 400;
    }
    void freeTextRefusesControlCharacters()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        QFETCH(int, status);
        TestServer server;
        addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        // Users, the shop's details and the upstream are live money: only live admin authority may change them.
        const bool live = path.startsWith(QLatin1String("/api/v1/users")) || path == QLatin1String("/api/v1/shop") ||
                          path == QLatin1String("/api/v1/upstream");
        const QByteArray key = live ? server.liveAdmin() : server.admin();
        const HttpResult result = call(server, method, path, key, body);
        QVERIFY2(result.status == status, result.body.constData());
        if (status == 400) {
            QCOMPARE(result.error().value(QStringLiteral("field")).toString(), field);
            QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), QStringLiteral("control_characters"));
        }
    }

    // Issue 12: an answer carrying a key secret, a session token, a webhook secret or an Aadhaar number must not be
    // kept by a browser or proxy cache: every API answer says `Cache-Control: no-store` unless its route chose a
    // policy of its own (the plan catalogue: private, max-age=300, see tst_plans).
    void answersWithSecretsAreNotCached_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::newRow("sign-in (session token)") << QByteArray("POST") << QStringLiteral("/api/v1/users/sign-in")
                                                 << QJsonObject{{QStringLiteral("name"), QStringLiteral("Asha")},
                                                                {QStringLiteral("pin"), QStringLiteral("246802")}}
                                                 << 200;
        QTest::newRow("key creation (key secret)") << QByteArray("POST") << QStringLiteral("/api/v1/keys")
                                                   << QJsonObject{{QStringLiteral("name"), QStringLiteral("counter 2")},
                                                                  {QStringLiteral("mode"), QStringLiteral("test")},
                                                                  {QStringLiteral("scope"), QStringLiteral("pos")}}
                                                   << 201;
        QTest::newRow("webhook endpoint (secret shown at creation)")
            << QByteArray("GET") << QStringLiteral("/api/v1/webhook-endpoint") << QJsonObject() << 200;
        QTest::newRow("webhook secret rotation")
            << QByteArray("POST") << QStringLiteral("/api/v1/webhook-endpoint/rotate-secret") << QJsonObject() << 200;
        QTest::newRow("webhook inbox (redeem codes)")
            << QByteArray("GET") << QStringLiteral("/api/v1/webhook-inbox") << QJsonObject() << 200;
        QTest::newRow("upstream configuration")
            << QByteArray("GET") << QStringLiteral("/api/v1/upstream") << QJsonObject() << 200;
        QTest::newRow("sandbox SMS (OTPs)")
            << QByteArray("GET") << QStringLiteral("/api/v1/sandbox/sms") << QJsonObject() << 200;
        QTest::newRow("an error answer") << QByteArray("POST") << QStringLiteral("/api/v1/users/sign-in")
                                         << QJsonObject{{QStringLiteral("name"), QStringLiteral("Asha")},
                                                        {QStringLiteral("pin"), QStringLiteral("1111")}}
                                         << 401;
    }
    void answersWithSecretsAreNotCached()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        TestServer server;
        addUser(server, QStringLiteral("Asha"), QStringLiteral("admin"), QStringLiteral("246802"));
        const HttpResult result = call(server, method, path, server.admin(), body);
        QVERIFY2(result.status == status, result.body.constData());
        QCOMPARE(result.header("cache-control"), QByteArray("no-store"));
    }

    void shopValidation_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("nothing") << QJsonObject{{QStringLiteral("other"), 1}} << QString()
                                 << QStringLiteral("nothing_to_update");
        QTest::newRow("empty name") << QJsonObject{{QStringLiteral("name"), QStringLiteral(" ")}}
                                    << QStringLiteral("name") << QStringLiteral("invalid_name");
        QTest::newRow("long name") << QJsonObject{{QStringLiteral("name"), QString(81, QLatin1Char('n'))}}
                                   << QStringLiteral("name") << QStringLiteral("invalid_name");
        QTest::newRow("name not string") << QJsonObject{{QStringLiteral("name"), 5}} << QStringLiteral("name")
                                         << QStringLiteral("invalid_type");
        QTest::newRow("long address") << QJsonObject{{QStringLiteral("address"), QString(301, QLatin1Char('a'))}}
                                      << QStringLiteral("address") << QStringLiteral("invalid_address");
        QTest::newRow("threshold decimal")
            << QJsonObject{{QStringLiteral("low_balance_threshold_rupees"), 10.5}}
            << QStringLiteral("low_balance_threshold_rupees") << QStringLiteral("not_an_integer");
        QTest::newRow("threshold negative")
            << QJsonObject{{QStringLiteral("low_balance_threshold_rupees"), -1}}
            << QStringLiteral("low_balance_threshold_rupees") << QStringLiteral("not_an_integer");
        QTest::newRow("threshold huge") << QJsonObject{{QStringLiteral("low_balance_threshold_rupees"), 1000001}}
                                        << QStringLiteral("low_balance_threshold_rupees")
                                        << QStringLiteral("out_of_range");
        QTest::newRow("idle 29") << QJsonObject{{QStringLiteral("idle_lock_seconds"), 29}}
                                 << QStringLiteral("idle_lock_seconds") << QStringLiteral("out_of_range");
        QTest::newRow("unknown circle") << QJsonObject{{QStringLiteral("circle_code"), QStringLiteral("XX")}}
                                        << QStringLiteral("circle_code") << QStringLiteral("invalid_circle_code");
        QTest::newRow("idle 3601") << QJsonObject{{QStringLiteral("idle_lock_seconds"), 3601}}
                                   << QStringLiteral("idle_lock_seconds") << QStringLiteral("out_of_range");
        QTest::newRow("rates not object") << QJsonObject{{QStringLiteral("discount_basis_points"), 250}}
                                          << QStringLiteral("discount_basis_points") << QStringLiteral("invalid_type");
        QTest::newRow("rates empty") << QJsonObject{{QStringLiteral("discount_basis_points"), QJsonObject{}}}
                                     << QStringLiteral("discount_basis_points") << QStringLiteral("empty");
        QTest::newRow("rate unknown operator")
            << QJsonObject{{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("XX"), 100}}}}
            << QStringLiteral("discount_basis_points.XX") << QStringLiteral("unknown_operator");
        QTest::newRow("rate decimal") << QJsonObject{{QStringLiteral("discount_basis_points"),
                                                      QJsonObject{{QStringLiteral("AT"), 2.5}}}}
                                      << QStringLiteral("discount_basis_points.AT") << QStringLiteral("not_an_integer");
        QTest::newRow("rate above 20 %") << QJsonObject{{QStringLiteral("discount_basis_points"),
                                                         QJsonObject{{QStringLiteral("AT"), 2001}}}}
                                         << QStringLiteral("discount_basis_points.AT")
                                         << QStringLiteral("out_of_range");
        QTest::newRow("one good rate, one bad")
            << QJsonObject{{QStringLiteral("discount_basis_points"),
                            QJsonObject{{QStringLiteral("AT"), 300}, {QStringLiteral("VI"), -1}}}}
            << QStringLiteral("discount_basis_points.VI") << QStringLiteral("not_an_integer");
        QTest::newRow("settle delay above a day")
            << QJsonObject{{QStringLiteral("sandbox_settle_delay_ms"), 86400001}}
            << QStringLiteral("sandbox_settle_delay_ms") << QStringLiteral("out_of_range");
        QTest::newRow("good rate, bad delay")
            << QJsonObject{{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("AT"), 300}}},
                           {QStringLiteral("sandbox_settle_delay_ms"), QStringLiteral("soon")}}
            << QStringLiteral("sandbox_settle_delay_ms") << QStringLiteral("not_an_integer");
        QTest::newRow("valid name, bad idle")
            << QJsonObject{{QStringLiteral("name"), QStringLiteral("New")}, {QStringLiteral("idle_lock_seconds"), 5}}
            << QStringLiteral("idle_lock_seconds") << QStringLiteral("out_of_range");
    }
    void shopValidation()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        TestServer server;
        const QJsonObject before = call(server, "GET", QStringLiteral("/api/v1/shop"), server.pos()).data();
        const HttpResult result = call(server, "PUT", QStringLiteral("/api/v1/shop"), server.liveAdmin(), body);
        QCOMPARE(result.status, 400);
        QCOMPARE(result.error().value(QStringLiteral("reason")).toString(), reason);
        QCOMPARE(result.error().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(call(server, "GET", QStringLiteral("/api/v1/shop"), server.pos()).data(), before);
        QCOMPARE(auditItems(server).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestUsers)
#include "tst_users.moc"
