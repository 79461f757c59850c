// Endpoints 5, 6 and 7 of api-v1.md over real HTTP against the server on port 0 (api-conventions.md): authentication,
// throttling and scopes, and the HTTP-level errors (413 body limit, 415, 405, 404) with a request id on every answer.
// The shared paths, bodies and fixture are in support/salesapitest.h.
#include "salesapitest.h"

class TestSalesApiHttp final : public SalesApiTest
{
    Q_OBJECT

private slots:
    // ---- authentication -----------------------------------------------------------------------------------------

    void authFailures_data()
    {
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<QString>("reason");
        const auto basic = [](const QByteArray &credential) -> QByteArray { return "Basic " + credential.toBase64(); };
        QTest::newRow("no header") << QByteArray() << QStringLiteral("missing_credentials");
        QTest::newRow("bearer scheme") << QByteArray("Bearer abcdef") << QStringLiteral("unsupported_scheme");
        QTest::newRow("basic without credential") << QByteArray("Basic") << QStringLiteral("unsupported_scheme");
        QTest::newRow("lower-case scheme, unknown key")
            << QByteArray(QByteArray("basic ") + QByteArray("a:b").toBase64()) << QStringLiteral("invalid_credentials");
        QTest::newRow("bad base64") << QByteArray("Basic !!!not-base64!!!") << QStringLiteral("malformed_credentials");
        QTest::newRow("no colon") << basic("test_0123456789abcd") << QStringLiteral("malformed_credentials");
        QTest::newRow("empty key id") << basic(":secret") << QStringLiteral("malformed_credentials");
        QTest::newRow("unknown key") << basic("test_AAAAAAAAAAAAAA:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB")
                                     << QStringLiteral("invalid_credentials");
        QTest::newRow("wrong secret") << QByteArray("WRONG_SECRET") << QStringLiteral("invalid_credentials");
        QTest::newRow("empty secret") << QByteArray("EMPTY_SECRET") << QStringLiteral("invalid_credentials");
    }
    void authFailures()
    {
        QFETCH(QByteArray, authorization);
        QFETCH(QString, reason);
        if (authorization == "WRONG_SECRET" || authorization == "EMPTY_SECRET") {
            const QString keyId = keyIdOf(m_server->pos());
            authorization = HttpClient::basic(keyId, authorization == "EMPTY_SECRET"
                                                         ? QString()
                                                         : QStringLiteral("0123456789abcdefghijABCDEFGHIJ01"));
        }
        const Snapshot before = snapshot();
        for (const QString &path : {kMobile, kVoucher, kDth}) {
            const HttpResult r = m_http.postJson(m_server->url(path), mobileBody(), authorization);
            QString why;
            QVERIFY2(
                isError(r, 401, QStringLiteral("AUTHENTICATION_ERROR"), reason, QJsonValue(QJsonValue::Null), &why),
                qPrintable(why));
            QCOMPARE(r.header("WWW-Authenticate"), QByteArray("Basic realm=\"rechargedesk\""));
            QVERIFY(!r.header("X-Request-Id").isEmpty());
        }
        const HttpResult read = get(kTransactions + QStringLiteral("/1"), authorization);
        QCOMPARE(read.status, 401);
        QCOMPARE(get(kWallet, authorization).status, 401);
        QVERIFY(snapshot() == before);
    }

    void revokedKey()
    {
        // A key in use (its verification cached): revoke, clear the cache as a revocation through this process does.
        QCOMPARE(post(kMobile, mobileBody()).status, 200);
        const Snapshot before = snapshot();
        QVERIFY(ApiKeyService(m_server->db(), SystemClock()).revoke(keyIdOf(m_server->pos())));
        m_server->server().authenticator().clearCache();
        HttpResult r = post(kMobile, mobileBody());
        QString why;
        QVERIFY2(isError(r, 403, QStringLiteral("PERMISSION_ERROR"), QStringLiteral("key_revoked"),
                         QJsonValue(QJsonValue::Null), &why),
                 qPrintable(why));
        QCOMPARE(get(kWallet).status, 403);
        QVERIFY(snapshot() == before);

        // A fresh key revoked before its first use.
        const QByteArray fresh = m_server->createKey(Mode::Test, Scope::Pos);
        QCOMPARE(get(kWallet, fresh).status, 200);
        m_server->server().authenticator().clearCache();
        QVERIFY(ApiKeyService(m_server->db(), SystemClock()).revoke(keyIdOf(fresh)));
        m_server->server().authenticator().clearCache();
        r = post(kVoucher, voucherBody(100), fresh);
        QCOMPARE(r.status, 403);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("key_revoked"));
        QVERIFY(snapshot() == before);
        // The admin key is unaffected.
        QCOMPARE(get(kWallet, m_server->admin()).status, 200);
    }

    void throttling()
    {
        // A dedicated server (init() made a fresh one): failures from 127.0.0.1 count only here.
        const QByteArray wrong = HttpClient::basic(keyIdOf(m_server->pos()), QStringLiteral("not-the-secret"));
        int unauthorized = 0;
        HttpResult r;
        for (int i = 0; i < 30 && r.status != 429; ++i) {
            r = get(kWallet, wrong);
            if (r.status == 401)
                ++unauthorized;
        }
        QCOMPARE(r.status, 429);
        QCOMPARE(unauthorized, Authenticator::kMaxFailures);
        QCOMPARE(r.error().value(QStringLiteral("code")).toString(), QStringLiteral("RATE_LIMIT_ERROR"));
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("too_many_failed_logins"));
        bool ok = false;
        const int retryAfter = r.header("Retry-After").toInt(&ok);
        QVERIFY2(ok && retryAfter > 0 && retryAfter <= 3600, r.header("Retry-After").constData());
        QVERIFY(!r.header("X-Request-Id").isEmpty());
        // While that key id is blocked for wrong secrets, its correct secret still sells (a correct key
        // is never locked out, issue 12), and the wrong one stays refused without selling.
        const Snapshot before = snapshot();
        r = post(kMobile, mobileBody(), wrong);
        QCOMPARE(r.status, 429);
        QVERIFY(!r.header("Retry-After").isEmpty());
        QVERIFY(snapshot() == before);
        QCOMPARE(post(kMobile, mobileBody()).status, 200);
        // The public health check is not behind authentication.
        QCOMPARE(m_http.get(m_server->url(QStringLiteral("/healthz"))).status, 200);
    }

    void schemeIsCaseInsensitive()
    {
        const QByteArray credential = m_server->pos().mid(6);
        for (const QByteArray &scheme : {QByteArray("basic "), QByteArray("BASIC "), QByteArray("Basic ")})
            QCOMPARE(get(kWallet, scheme + credential).status, 200);
    }

    void scopes()
    {
        const QByteArray pos = m_server->pos();
        HttpResult r = get(QStringLiteral("/api/v1/wallet/ledger"), pos);
        QString why;
        QVERIFY2(isError(r, 403, QStringLiteral("PERMISSION_ERROR"), QStringLiteral("admin_scope_required"),
                         QJsonValue(QJsonValue::Null), &why),
                 qPrintable(why));
        const Snapshot before = snapshot();
        r = post(QStringLiteral("/api/v1/wallet/topups"), QJsonObject{{QStringLiteral("amount"), 100}}, pos);
        QCOMPARE(r.status, 403);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("admin_scope_required"));
        QVERIFY(snapshot() == before);
        // Admin keys may do what pos keys do.
        QCOMPARE(post(kMobile, mobileBody(), m_server->admin()).status, 200);
    }

    // ---- HTTP-level errors ---------------------------------------------------------------------------------------

    void bodyLimit()
    {
        const auto padded = [](qsizetype size) {
            QByteArray body =
                "{\"phone_number\": \"9876543210\", \"amount\": 249, \"operator_code\": \"RJ\", \"pad\": \"";
            const QByteArray tail = "\"}";
            body += QByteArray(size - body.size() - tail.size(), 'x') + tail;
            Q_ASSERT(body.size() == size);
            return body;
        };
        // Exactly 64 KiB is accepted (unknown fields are ignored).
        const Snapshot start = snapshot();
        const HttpResult atLimit = postRaw(kMobile, padded(64 * 1024), "application/json");
        QCOMPARE(atLimit.status, 200);
        const Snapshot before = snapshot();
        QCOMPARE(before.transactions, start.transactions + 1);

        // One byte more is 413, answered on a raw connection from the headers alone.
        const QByteArray over = padded(64 * 1024 + 1);
        const QByteArray request =
            "POST " + kMobile.toLatin1() + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + m_server->pos() +
            "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(over.size()) + "\r\n\r\n" +
            over;
        const RawHttpResponse r = rawExchange(m_server->server().port(), request);
        QCOMPARE(r.status, 413);
        const QJsonObject error = QJsonDocument::fromJson(r.body).object().value(QStringLiteral("error")).toObject();
        QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("PAYLOAD_TOO_LARGE"));
        QCOMPARE(error.value(QStringLiteral("field")), QJsonValue(QJsonValue::Null));
        QVERIFY(!error.value(QStringLiteral("reason")).toString().isEmpty());
        QVERIFY2(!r.header("X-Request-Id").isEmpty(), "413 without X-Request-Id");
        // A declared megabyte is refused without sending (or buffering) it.
        const RawHttpResponse huge = rawExchange(
            m_server->server().port(), "POST " + kVoucher.toLatin1() +
                                           " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + m_server->pos() +
                                           "\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{");
        QCOMPARE(huge.status, 413);
        QVERIFY(snapshot() == before);
        // The server still serves.
        QCOMPARE(post(kVoucher, voucherBody(100)).status, 200);
    }

    void contentType_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<int>("status");
        QTest::newRow("none") << QByteArray() << 415;
        QTest::newRow("text/plain") << QByteArray("text/plain") << 415;
        QTest::newRow("form") << QByteArray("application/x-www-form-urlencoded") << 415;
        QTest::newRow("json-ish") << QByteArray("application/jsonp") << 415;
        QTest::newRow("json") << QByteArray("application/json") << 200;
        QTest::newRow("json with charset") << QByteArray("application/json; charset=utf-8") << 200;
        QTest::newRow("json upper case") << QByteArray("Application/JSON") << 200;
    }
    void contentType()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(int, status);
        const Snapshot before = snapshot();
        const HttpResult r = postRaw(kMobile, QJsonDocument(mobileBody()).toJson(), contentType);
        if (status == 200) {
            QCOMPARE(r.status, 200);
            return;
        }
        QString why;
        QVERIFY2(isError(r, 415, QStringLiteral("UNSUPPORTED_MEDIA_TYPE"), QStringLiteral("unsupported_media_type"),
                         QJsonValue(QJsonValue::Null), &why),
                 qPrintable(why));
        QVERIFY(snapshot() == before);
    }

    void methodNotAllowed_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("allow");
        QTest::newRow("GET mobile") << QByteArray("GET") << kMobile << QByteArray("POST");
        QTest::newRow("PUT voucher") << QByteArray("PUT") << kVoucher << QByteArray("POST");
        QTest::newRow("DELETE dth") << QByteArray("DELETE") << kDth << QByteArray("POST");
        QTest::newRow("POST transactions") << QByteArray("POST") << kTransactions << QByteArray("GET");
        QTest::newRow("DELETE transaction")
            << QByteArray("DELETE") << QStringLiteral("/api/v1/transactions/1") << QByteArray("GET");
        QTest::newRow("POST wallet") << QByteArray("POST") << kWallet << QByteArray("GET");
        QTest::newRow("GET topups") << QByteArray("GET") << QStringLiteral("/api/v1/wallet/topups")
                                    << QByteArray("POST");
        QTest::newRow("POST healthz") << QByteArray("POST") << QStringLiteral("/healthz") << QByteArray("GET");
    }
    void methodNotAllowed()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QByteArray, allow);
        const Snapshot before = snapshot();
        const HttpResult r = m_http.send(method, m_server->url(path), QJsonDocument(mobileBody()).toJson(),
                                         {{"Authorization", m_server->pos()}, {"Content-Type", "application/json"}});
        QString why;
        QVERIFY2(isError(r, 405, QStringLiteral("METHOD_NOT_ALLOWED"), QStringLiteral("method_not_allowed"),
                         QJsonValue(QJsonValue::Null), &why),
                 qPrintable(why));
        QCOMPARE(r.header("Allow"), allow);
        QVERIFY(!r.header("X-Request-Id").isEmpty());
        QVERIFY(snapshot() == before);
    }

    void notFound_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown path") << QStringLiteral("/api/v1/nothing-here") << QStringLiteral("unknown_path");
        QTest::newRow("other version") << QStringLiteral("/api/v2/recharge/mobile/initiate-transaction")
                                       << QStringLiteral("unknown_path");
        QTest::newRow("root") << QStringLiteral("/") << QStringLiteral("unknown_path");
        QTest::newRow("deeper") << QStringLiteral("/api/v1/transactions/1/extra") << QStringLiteral("unknown_path");
        QTest::newRow("id not a number") << QStringLiteral("/api/v1/transactions/abc") << QStringLiteral("not_found");
        QTest::newRow("id zero") << QStringLiteral("/api/v1/transactions/0") << QStringLiteral("not_found");
        QTest::newRow("id negative") << QStringLiteral("/api/v1/transactions/-1") << QStringLiteral("not_found");
        QTest::newRow("id huge") << QStringLiteral("/api/v1/transactions/99999999999999999999")
                                 << QStringLiteral("not_found");
        QTest::newRow("id that does not exist")
            << QStringLiteral("/api/v1/transactions/424242") << QStringLiteral("transaction_not_found");
    }
    void notFound()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        const HttpResult r = get(path);
        QString why;
        QVERIFY2(isError(r, 404, QStringLiteral("NOT_FOUND_ERROR"), reason, QJsonValue(QJsonValue::Null), &why),
                 qPrintable(why));
        QVERIFY(!r.header("X-Request-Id").isEmpty());
    }

    void requestIdOnEveryResponse()
    {
        QSet<QByteArray> ids;
        const auto check = [&ids](const QByteArray &id, const char *what) {
            QVERIFY2(kRequestId.match(QString::fromLatin1(id)).hasMatch(), what);
            QVERIFY2(!ids.contains(id), what);
            ids.insert(id);
        };
        check(post(kMobile, mobileBody()).header("X-Request-Id"), "200 sale");
        check(post(kMobile, mobileBody(QStringLiteral("123"))).header("X-Request-Id"), "400");
        check(get(kWallet, QByteArray()).header("X-Request-Id"), "401");
        check(get(QStringLiteral("/api/v1/wallet/ledger")).header("X-Request-Id"), "403");
        check(get(QStringLiteral("/nope")).header("X-Request-Id"), "404");
        check(get(kMobile).header("X-Request-Id"), "405");
        check(postRaw(kMobile, "{}", "text/plain").header("X-Request-Id"), "415");
        check(m_http.get(m_server->url(QStringLiteral("/healthz"))).header("X-Request-Id"), "healthz");
        check(post(kMobile, mobileBody(), m_server->createKey(Mode::Live, Scope::Pos)).header("X-Request-Id"), "503");
        QCOMPARE(ids.size(), 9);
    }
};

QTEST_GUILESS_MAIN(TestSalesApiHttp)
#include "tst_salesapi_http.moc"
