// Endpoints 5, 6 and 7 of api-v1.md and the beyond-the-spec reads (transactions, wallet, healthz), over real HTTP
// against the server on port 0, with the rules of api-conventions.md: validation, limits, auth, error envelope,
// idempotency, wallet, sandbox outcomes and settlement.
#include "auth/apikeyservice.h"
#include "auth/authenticator.h"
#include "money.h"
#include "operatorcatalog.h"
#include "rawhttpclient.h"
#include "store/transactionrepository.h"
#include "testserver.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSet>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <QUrlQuery>

#include <memory>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
const QString kVoucher = QStringLiteral("/api/v1/voucher/appstore/initiate-transaction");
const QString kDth = QStringLiteral("/api/v1/recharge/dth/initiate-transaction");
const QString kTransactions = QStringLiteral("/api/v1/transactions");
const QString kWallet = QStringLiteral("/api/v1/wallet");

QString pathFor(const QString &endpoint)
{
    if (endpoint == QLatin1String("mobile"))
        return kMobile;
    if (endpoint == QLatin1String("voucher"))
        return kVoucher;
    return kDth;
}

QJsonObject mobileBody(const QString &phone = QStringLiteral("9876543210"), const QJsonValue &amount = 249,
                       const QString &op = QStringLiteral("RJ"), const QString &reference = {})
{
    QJsonObject body{{QStringLiteral("phone_number"), phone},
                     {QStringLiteral("amount"), amount},
                     {QStringLiteral("operator_code"), op}};
    if (!reference.isEmpty())
        body.insert(QStringLiteral("reference_id"), reference);
    return body;
}

QJsonObject dthBody(const QString &number, const QJsonValue &amount, const QString &op, const QString &reference = {})
{
    QJsonObject body{
        {QStringLiteral("number"), number}, {QStringLiteral("amount"), amount}, {QStringLiteral("operator_code"), op}};
    if (!reference.isEmpty())
        body.insert(QStringLiteral("reference_id"), reference);
    return body;
}

QJsonObject voucherBody(const QJsonValue &amount, const QString &email = {}, const QString &reference = {})
{
    QJsonObject body{{QStringLiteral("amount"), amount}};
    if (!email.isEmpty())
        body.insert(QStringLiteral("customer_email"), email);
    if (!reference.isEmpty())
        body.insert(QStringLiteral("reference_id"), reference);
    return body;
}

QString keyIdOf(const QByteArray &authorization)
{
    const QByteArray decoded = QByteArray::fromBase64(authorization.mid(6));
    return QString::fromLatin1(decoded.left(decoded.indexOf(':')));
}

const QRegularExpression kRequestId(QStringLiteral("^req_[0-9a-f]{16}$"));
const QRegularExpression kRedeemCode(QStringLiteral("^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$"));
const QRegularExpression kDatetime(QStringLiteral("^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$"));

/// Sends `request` on a fresh connection and reads one response (for requests QNetworkAccessManager will not send
/// as needed); status 0 when none came. Waits spin the event loop, since the server under test runs on this thread.
RawHttpResponse rawExchange(quint16 port, const QByteArray &request)
{
    RawHttpClient client(port, QHostAddress(), 15'000);
    RawHttpResponse response;
    if (client.waitForConnected()) {
        client.send(request);
        [[maybe_unused]] const bool answered = client.waitForResponse(response);
    }
    return response;
}

} // namespace

class TestSalesApi final : public QObject
{
    Q_OBJECT

private:
    /// Counts of everything a request could write, across all accounts.
    struct Snapshot
    {
        qint64 transactions = 0;
        qint64 ledgerRows = 0;
        qint64 settlements = 0;
        qint64 balances = 0;
        bool operator==(const Snapshot &) const = default;
    };

    std::unique_ptr<ManualClock> m_manualClock; ///< outlives m_server when a test uses it
    std::unique_ptr<TestServer> m_server;
    HttpClient m_http;
    const OperatorCatalog m_catalog = OperatorCatalog::builtIn();

    qint64 scalar(const QString &sql, const QVariantList &values = {})
    {
        QSqlQuery &q = m_server->db().run(sql, values);
        const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return value;
    }
    Snapshot snapshot()
    {
        return Snapshot{scalar(QStringLiteral("SELECT COUNT(*) FROM transactions")),
                        scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger")),
                        scalar(QStringLiteral("SELECT COUNT(*) FROM settlements")),
                        scalar(QStringLiteral("SELECT COALESCE(SUM(balance), 0) FROM wallets"))};
    }
    HttpResult post(const QString &path, const QJsonObject &body, const QByteArray &auth)
    {
        return m_http.postJson(m_server->url(path), body, auth);
    }
    HttpResult post(const QString &path, const QJsonObject &body) { return post(path, body, m_server->pos()); }
    HttpResult postRaw(const QString &path, const QByteArray &body, const QByteArray &contentType,
                       const QByteArray &auth = {})
    {
        QList<std::pair<QByteArray, QByteArray>> headers{{"Authorization", auth.isEmpty() ? m_server->pos() : auth}};
        if (!contentType.isEmpty())
            headers.append({"Content-Type", contentType});
        return m_http.send("POST", m_server->url(path), body, headers);
    }
    HttpResult get(const QString &path, const QByteArray &auth) { return m_http.get(m_server->url(path), auth); }
    HttpResult get(const QString &path) { return get(path, m_server->pos()); }
    HttpResult list(const QUrlQuery &query, const QByteArray &auth = {})
    {
        QUrl url = m_server->url(kTransactions);
        url.setQuery(query);
        return m_http.get(url, auth.isEmpty() ? m_server->pos() : auth);
    }
    HttpResult transaction(qint64 id, const QByteArray &auth = {})
    {
        return get(kTransactions + QLatin1Char('/') + QString::number(id), auth.isEmpty() ? m_server->pos() : auth);
    }
    QString statusOf(qint64 id)
    {
        return transaction(id).data().value(QStringLiteral("transaction_status")).toString();
    }
    qint64 balance(const QByteArray &auth = {})
    {
        const HttpResult r = get(kWallet, auth.isEmpty() ? m_server->pos() : auth);
        return r.status == 200 ? r.data().value(QStringLiteral("balance_paise")).toInteger(-1) : -1;
    }
    void topup(qint64 rupees)
    {
        const HttpResult r =
            post(QStringLiteral("/api/v1/wallet/topups"),
                 QJsonObject{{QStringLiteral("amount"), rupees}, {QStringLiteral("note"), QStringLiteral("tests")}},
                 m_server->admin());
        QCOMPARE(r.status, 201);
    }
    /// Every ledger row of the caller's wallet, through the admin endpoint's pages.
    QList<QJsonObject> ledger(int pageSize)
    {
        QList<QJsonObject> rows;
        QString cursor;
        for (int page = 0; page < 1000; ++page) {
            QUrl url = m_server->url(QStringLiteral("/api/v1/wallet/ledger"));
            QUrlQuery query;
            query.addQueryItem(QStringLiteral("limit"), QString::number(pageSize));
            if (!cursor.isEmpty())
                query.addQueryItem(QStringLiteral("cursor"), cursor);
            url.setQuery(query);
            const HttpResult r = m_http.get(url, m_server->admin());
            if (r.status != 200)
                return {};
            for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
                rows.append(item.toObject());
            const QJsonValue next = r.data().value(QStringLiteral("next_cursor"));
            if (next.isNull())
                break;
            cursor = next.toString();
        }
        return rows;
    }
    /// Checks the error envelope of api-conventions.md.
    static bool isError(const HttpResult &r, int status, const QString &code, const QString &reason,
                        const QJsonValue &field, QString *why)
    {
        const QJsonObject e = r.error();
        *why = QStringLiteral("%1 %2").arg(r.status).arg(QString::fromUtf8(r.body));
        return r.status == status && e.value(QStringLiteral("code")).toString() == code &&
               e.value(QStringLiteral("reason")).toString() == reason && e.value(QStringLiteral("field")) == field &&
               !e.value(QStringLiteral("description")).toString().isEmpty() &&
               r.json().keys() == QStringList{QStringLiteral("error")} &&
               r.header("Content-Type").startsWith("application/json");
    }
    /// Fires all requests before waiting for any, over several connections at once.
    QList<HttpResult> concurrently(const QList<std::pair<QString, QJsonObject>> &requests, const QByteArray &auth)
    {
        std::vector<std::unique_ptr<QNetworkAccessManager>> managers;
        for (int i = 0; i < 4; ++i)
            managers.push_back(std::make_unique<QNetworkAccessManager>());
        QList<QNetworkReply *> replies;
        for (qsizetype i = 0; i < requests.size(); ++i) {
            QNetworkRequest request(m_server->url(requests.at(i).first));
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            request.setRawHeader("Authorization", auth);
            replies.append(managers.at(size_t(i) % managers.size())
                               ->post(request, QJsonDocument(requests.at(i).second).toJson(QJsonDocument::Compact)));
        }
        QEventLoop loop;
        int pending = int(replies.size());
        for (QNetworkReply *reply : std::as_const(replies)) {
            QObject::connect(reply, &QNetworkReply::finished, &loop, [&pending, &loop] {
                if (--pending == 0)
                    loop.quit();
            });
        }
        QTimer::singleShot(60'000, &loop, &QEventLoop::quit);
        if (pending > 0)
            loop.exec();
        QList<HttpResult> results;
        for (QNetworkReply *reply : std::as_const(replies)) {
            HttpResult r;
            r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            r.body = reply->readAll();
            r.headers = reply->rawHeaderPairs();
            results.append(r);
            reply->deleteLater();
        }
        return results;
    }

private slots:
    void init() { m_server = std::make_unique<TestServer>(); }
    void cleanup()
    {
        m_server.reset();
        m_manualClock.reset();
    }

    // ---- endpoints 5, 6, 7 and the status check -------------------------------------------------------------

    void mobileSale_data()
    {
        QTest::addColumn<QJsonValue>("amount");
        QTest::newRow("amount as JSON string (client samples)") << QJsonValue(QStringLiteral("249"));
        QTest::newRow("amount as JSON integer") << QJsonValue(249);
    }
    void mobileSale()
    {
        QFETCH(QJsonValue, amount);
        const qint64 before = balance();
        QCOMPARE(before, ApiKeyService::kOpeningTestCredit);
        const HttpResult r = post(
            kMobile, mobileBody(QStringLiteral("9876543210"), amount, QStringLiteral("RJ"), QStringLiteral("ORD-1")));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().keys(), QStringList{QStringLiteral("data")});
        const QJsonObject d = r.data();
        QStringList keys = d.keys();
        keys.sort();
        QCOMPARE(keys,
                 (QStringList{QStringLiteral("bill_amount"), QStringLiteral("datetime"), QStringLiteral("discount"),
                              QStringLiteral("entity"), QStringLiteral("number"), QStringLiteral("operator"),
                              QStringLiteral("paid"), QStringLiteral("reference_id"), QStringLiteral("transaction_id"),
                              QStringLiteral("transaction_status"), QStringLiteral("type")}));
        QCOMPARE(d.value(QStringLiteral("entity")).toString(), QStringLiteral("mobile_recharge"));
        QCOMPARE(d.value(QStringLiteral("type")).toString(), QStringLiteral("MOBILE"));
        QCOMPARE(d.value(QStringLiteral("operator")).toString(), QStringLiteral("Jio"));
        QCOMPARE(d.value(QStringLiteral("number")).toString(), QStringLiteral("9876543210"));
        QCOMPARE(d.value(QStringLiteral("bill_amount")).toString(), QStringLiteral("₹249.00"));
        QCOMPARE(d.value(QStringLiteral("discount")).toString(), QStringLiteral("₹3.74")); // 1.5 %, half up
        QCOMPARE(d.value(QStringLiteral("paid")).toString(), QStringLiteral("₹245.26"));
        QCOMPARE(d.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(d.value(QStringLiteral("reference_id")).toString(), QStringLiteral("ORD-1"));
        QVERIFY(d.value(QStringLiteral("transaction_id")).isDouble());
        QVERIFY(d.value(QStringLiteral("transaction_id")).toInteger() > 0);
        const QString datetime = d.value(QStringLiteral("datetime")).toString();
        QVERIFY2(kDatetime.match(datetime).hasMatch(), qPrintable(datetime));
        const qint64 skew = IstTime::parse(datetime).toMSecsSinceEpoch() - QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(qAbs(skew) < 120'000, "datetime is not IST now"); // IST vs UTC would be 5.5 h off
        QCOMPARE(balance(), before - 24526);

        const HttpResult again = transaction(d.value(QStringLiteral("transaction_id")).toInteger());
        QCOMPARE(again.status, 200);
        QCOMPARE(again.data(), d);
    }

    void voucherSale()
    {
        const qint64 before = balance();
        const HttpResult r = post(kVoucher, voucherBody(QStringLiteral("500"), QStringLiteral("asha@example.com")));
        QCOMPARE(r.status, 200);
        const QJsonObject d = r.data();
        QStringList keys = d.keys();
        keys.sort();
        QCOMPARE(keys, (QStringList{QStringLiteral("bill_amount"), QStringLiteral("customer_email"),
                                    QStringLiteral("datetime"), QStringLiteral("discount"), QStringLiteral("entity"),
                                    QStringLiteral("operator"), QStringLiteral("paid"), QStringLiteral("redeem_code"),
                                    QStringLiteral("reference_id"), QStringLiteral("transaction_id"),
                                    QStringLiteral("transaction_status"), QStringLiteral("type")}));
        QCOMPARE(d.value(QStringLiteral("entity")).toString(), QStringLiteral("appstore_voucher"));
        QCOMPARE(d.value(QStringLiteral("type")).toString(), QStringLiteral("VOUCHER"));
        QCOMPARE(d.value(QStringLiteral("operator")).toString(), QStringLiteral("Google Play"));
        QCOMPARE(d.value(QStringLiteral("customer_email")).toString(), QStringLiteral("asha@example.com"));
        QCOMPARE(d.value(QStringLiteral("bill_amount")).toString(), QStringLiteral("₹500.00"));
        QCOMPARE(d.value(QStringLiteral("discount")).toString(), QStringLiteral("₹5.00"));
        QCOMPARE(d.value(QStringLiteral("paid")).toString(), QStringLiteral("₹495.00"));
        QCOMPARE(d.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(d.value(QStringLiteral("reference_id")).toString(), QString());
        const QString code = d.value(QStringLiteral("redeem_code")).toString();
        QVERIFY2(kRedeemCode.match(code).hasMatch(), qPrintable(code));
        QCOMPARE(balance(), before - 49500);
        QCOMPARE(transaction(d.value(QStringLiteral("transaction_id")).toInteger()).data(), d);

        // Without customer_email the field is still there, empty; each voucher gets its own code.
        const HttpResult plain = post(kVoucher, voucherBody(100));
        QCOMPARE(plain.status, 200);
        QCOMPARE(plain.data().value(QStringLiteral("customer_email")), QJsonValue(QString()));
        QVERIFY(plain.data().value(QStringLiteral("redeem_code")).toString() != code);
    }

    void dthSale_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("number");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QJsonValue>("amount");
        QTest::addColumn<QString>("discount");
        QTest::newRow("Tata Play subscriber id, string amount")
            << QStringLiteral("TS") << QStringLiteral("1012345678") << QStringLiteral("Tata Play")
            << QJsonValue(QStringLiteral("300")) << QStringLiteral("₹9.00");
        QTest::newRow("Dish TV viewing card, integer amount")
            << QStringLiteral("DT") << QStringLiteral("01234567890") << QStringLiteral("Dish TV") << QJsonValue(300)
            << QStringLiteral("₹10.50");
        QTest::newRow("Airtel DTH registered mobile")
            << QStringLiteral("AD") << QStringLiteral("9876543210") << QStringLiteral("Airtel Digital TV")
            << QJsonValue(300) << QStringLiteral("₹9.00");
    }
    void dthSale()
    {
        QFETCH(QString, op);
        QFETCH(QString, number);
        QFETCH(QString, name);
        QFETCH(QJsonValue, amount);
        QFETCH(QString, discount);
        const HttpResult r = post(kDth, dthBody(number, amount, op, QStringLiteral("DTH-1")));
        QCOMPARE(r.status, 200);
        const QJsonObject d = r.data();
        QStringList keys = d.keys();
        keys.sort();
        QCOMPARE(keys,
                 (QStringList{QStringLiteral("bill_amount"), QStringLiteral("datetime"), QStringLiteral("discount"),
                              QStringLiteral("entity"), QStringLiteral("number"), QStringLiteral("operator"),
                              QStringLiteral("paid"), QStringLiteral("reference_id"), QStringLiteral("transaction_id"),
                              QStringLiteral("transaction_status"), QStringLiteral("type")}));
        QCOMPARE(d.value(QStringLiteral("entity")).toString(), QStringLiteral("dth_recharge"));
        QCOMPARE(d.value(QStringLiteral("type")).toString(), QStringLiteral("DTH"));
        QCOMPARE(d.value(QStringLiteral("operator")).toString(), name);
        QCOMPARE(d.value(QStringLiteral("number")).toString(), number);
        QCOMPARE(d.value(QStringLiteral("bill_amount")).toString(), QStringLiteral("₹300.00"));
        QCOMPARE(d.value(QStringLiteral("discount")).toString(), discount);
        QCOMPARE(Money::parse(d.value(QStringLiteral("paid")).toString()).value_or(-1),
                 30000 - Money::parse(discount).value_or(0));
        QCOMPARE(d.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(transaction(d.value(QStringLiteral("transaction_id")).toInteger()).data(), d);
    }

    // ---- validation: 400 with field and reason, nothing written ------------------------------------------------

    void validation_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("field"); // empty: null
        QTest::addColumn<QString>("reason");
        const auto row = [](const char *name, const char *endpoint, const char *body, const char *field,
                            const char *reason) {
            QTest::newRow(name) << QString::fromLatin1(endpoint) << QByteArray(body) << QString::fromLatin1(field)
                                << QString::fromLatin1(reason);
        };
        // The body itself.
        row("malformed JSON", "mobile", R"({"phone_number": "9876543210", "amount": 249,)", "", "malformed_json");
        row("not JSON at all", "voucher", "amount=249", "", "malformed_json");
        row("array body", "mobile", R"([{"phone_number": "9876543210", "amount": 249, "operator_code": "RJ"}])", "",
            "body_not_object");
        row("string body", "dth", R"("hello")", "", "body_not_object");
        row("number body", "voucher", "249", "", "body_not_object");
        row("null body", "voucher", "null", "", "body_not_object");
        row("blank body", "mobile", "   ", "", "missing_body");
        // Found with the decoder fuzz target (issue 12): a decimal at the parser's nesting limit (1024) went one level
        // over it when marked as non-integer, and the body was then read as {} (400 missing_field phone_number).
        QTest::newRow("decimal at the nesting limit")
            << QStringLiteral("mobile")
            << QByteArray(R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ", "note": )" +
                          QByteArray(1023, '[') + "1.5" + QByteArray(1023, ']') + "}")
            << QString() << QStringLiteral("malformed_json");
        // Found by the decoder fuzzer in its first minute: QJsonDocument reads ".5e3" and ".0" as numbers; the
        // decimal check did not, so the first made the body unreadable ({}) and the second passed as the integer 0.
        row("mobile amount leading dot exponent", "mobile",
            R"({"phone_number": "9876543210", "amount": .5e3, "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile amount leading dot zero", "mobile",
            R"({"phone_number": "9876543210", "amount": .0, "operator_code": "RJ"})", "amount", "not_an_integer");
        // Endpoint 5.
        row("mobile phone missing", "mobile", R"({"amount": 249, "operator_code": "RJ"})", "phone_number",
            "missing_field");
        row("mobile phone blank", "mobile", R"({"phone_number": " ", "amount": 249, "operator_code": "RJ"})",
            "phone_number", "missing_field");
        row("mobile phone null", "mobile", R"({"phone_number": null, "amount": 249, "operator_code": "RJ"})",
            "phone_number", "missing_field");
        row("mobile phone number type", "mobile",
            R"({"phone_number": 9876543210, "amount": 249, "operator_code": "RJ"})", "phone_number", "invalid_type");
        row("mobile phone 9 digits", "mobile", R"({"phone_number": "987654321", "amount": 249, "operator_code": "RJ"})",
            "phone_number", "invalid_phone_number");
        row("mobile phone 11 digits", "mobile",
            R"({"phone_number": "98765432101", "amount": 249, "operator_code": "RJ"})", "phone_number",
            "invalid_phone_number");
        row("mobile phone leading 5", "mobile",
            R"({"phone_number": "5876543210", "amount": 249, "operator_code": "RJ"})", "phone_number",
            "invalid_phone_number");
        row("mobile phone +91", "mobile", R"({"phone_number": "+919876543210", "amount": 249, "operator_code": "RJ"})",
            "phone_number", "invalid_phone_number");
        row("mobile phone letters", "mobile", R"({"phone_number": "98765abcde", "amount": 249, "operator_code": "RJ"})",
            "phone_number", "invalid_phone_number");
        row("mobile operator missing", "mobile", R"({"phone_number": "9876543210", "amount": 249})", "operator_code",
            "missing_field");
        row("mobile operator unknown", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "ZZ"})", "operator_code",
            "unknown_operator");
        row("mobile operator of DTH", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "SD"})", "operator_code",
            "unknown_operator");
        row("mobile operator number type", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": 1})", "operator_code", "invalid_type");
        row("mobile amount missing", "mobile", R"({"phone_number": "9876543210", "operator_code": "RJ"})", "amount",
            "missing_field");
        row("mobile amount empty string", "mobile",
            R"({"phone_number": "9876543210", "amount": "", "operator_code": "RJ"})", "amount", "missing_field");
        row("mobile amount decimal", "mobile",
            R"({"phone_number": "9876543210", "amount": 249.5, "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile amount decimal string", "mobile",
            R"({"phone_number": "9876543210", "amount": "249.5", "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile amount negative", "mobile",
            R"({"phone_number": "9876543210", "amount": "-5", "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile amount plus", "mobile", R"({"phone_number": "9876543210", "amount": "+5", "operator_code": "RJ"})",
            "amount", "not_an_integer");
        row("mobile amount exponent", "mobile",
            R"({"phone_number": "9876543210", "amount": "2e2", "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile amount 249.0 number", "mobile",
            R"({"phone_number": "9876543210", "amount": 249.0, "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile amount 2e2 number", "mobile",
            R"({"phone_number": "9876543210", "amount": 2e2, "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile amount 2.49E+2 number", "mobile",
            R"({"phone_number": "9876543210", "amount": 2.49E+2, "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile operator decimal", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": 1.5, "note": "pack 2.5 GB"})",
            "operator_code", "invalid_type");
        row("mobile amount letters", "mobile",
            R"({"phone_number": "9876543210", "amount": "abc", "operator_code": "RJ"})", "amount", "not_an_integer");
        row("mobile amount bool", "mobile", R"({"phone_number": "9876543210", "amount": true, "operator_code": "RJ"})",
            "amount", "not_an_integer");
        row("mobile amount array", "mobile", R"({"phone_number": "9876543210", "amount": [], "operator_code": "RJ"})",
            "amount", "not_an_integer");
        row("mobile amount null", "mobile", R"({"phone_number": "9876543210", "amount": null, "operator_code": "RJ"})",
            "amount", "missing_field");
        row("mobile amount zero", "mobile", R"({"phone_number": "9876543210", "amount": 0, "operator_code": "RJ"})",
            "amount", "amount_out_of_range");
        row("mobile reference 65", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ", "reference_id": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})",
            "reference_id", "invalid_reference_id");
        row("mobile reference charset", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ", "reference_id": "ord.1"})",
            "reference_id", "invalid_reference_id");
        row("mobile reference number type", "mobile",
            R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ", "reference_id": 5})",
            "reference_id", "invalid_type");
        // Endpoint 6.
        row("voucher empty object", "voucher", R"({})", "amount", "missing_field");
        row("voucher amount 9", "voucher", R"({"amount": "9"})", "amount", "amount_out_of_range");
        row("voucher amount 10001", "voucher", R"({"amount": 10001})", "amount", "amount_out_of_range");
        row("voucher amount decimal", "voucher", R"({"amount": "100.00"})", "amount", "not_an_integer");
        row("voucher email no at", "voucher", R"({"amount": 100, "customer_email": "asha.example.com"})",
            "customer_email", "invalid_email");
        row("voucher email no dot", "voucher", R"({"amount": 100, "customer_email": "asha@localhost"})",
            "customer_email", "invalid_email");
        row("voucher email two ats", "voucher", R"({"amount": 100, "customer_email": "a@b@example.com"})",
            "customer_email", "invalid_email");
        row("voucher email type", "voucher", R"({"amount": 100, "customer_email": ["asha@example.com"]})",
            "customer_email", "invalid_type");
        row("voucher reference charset", "voucher", R"({"amount": 100, "reference_id": "ref 1"})", "reference_id",
            "invalid_reference_id");
        // Endpoint 7.
        row("dth number missing", "dth", R"({"amount": 300, "operator_code": "TS"})", "number", "missing_field");
        row("dth number type", "dth", R"({"number": 1012345678, "amount": 300, "operator_code": "TS"})", "number",
            "invalid_type");
        row("dth operator missing", "dth", R"({"number": "1012345678", "amount": 300})", "operator_code",
            "missing_field");
        row("dth operator of mobile", "dth", R"({"number": "1012345678", "amount": 300, "operator_code": "AT"})",
            "operator_code", "unknown_operator");
        row("dth operator lower case", "dth", R"({"number": "1012345678", "amount": 300, "operator_code": "ts"})",
            "operator_code", "unknown_operator");
        row("dth number wrong pattern", "dth", R"({"number": "2012345678", "amount": 300, "operator_code": "TS"})",
            "number", "invalid_subscriber_number");
        row("dth number too short", "dth", R"({"number": "12345", "amount": 300, "operator_code": "VC"})", "number",
            "invalid_subscriber_number");
        row("dth number letters", "dth", R"({"number": "01234X67890", "amount": 300, "operator_code": "DT"})", "number",
            "invalid_subscriber_number");
        row("dth amount missing", "dth", R"({"number": "1012345678", "operator_code": "TS"})", "amount",
            "missing_field");
        row("dth amount below AD minimum", "dth", R"({"number": "3012345678", "amount": "49", "operator_code": "AD"})",
            "amount", "amount_out_of_range");
        row("dth reference 65", "dth",
            R"({"number": "1012345678", "amount": 300, "operator_code": "TS", "reference_id": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})",
            "reference_id", "invalid_reference_id");
    }
    void validation()
    {
        QFETCH(QString, endpoint);
        QFETCH(QByteArray, body);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const qint64 walletBefore = balance();
        const Snapshot before = snapshot();
        const HttpResult r = postRaw(pathFor(endpoint), body, "application/json");
        QString why;
        QVERIFY2(isError(r, 400, QStringLiteral("BAD_REQUEST_ERROR"), reason,
                         field.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(field), &why),
                 qPrintable(why));
        QVERIFY(kRequestId.match(QString::fromLatin1(r.header("X-Request-Id"))).hasMatch());
        QVERIFY(snapshot() == before);
        QCOMPARE(balance(), walletBefore);
    }

    // ---- each operator's limits at min-1, min, max, max+1 (from the catalog) -----------------------------------

    void limits_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("op");
        QTest::addColumn<qint64>("amount");
        QTest::addColumn<bool>("asString");
        QTest::addColumn<int>("discountBp");
        QTest::addColumn<bool>("accepted");
        int operators = 0;
        for (ProductKind kind : {ProductKind::Mobile, ProductKind::Dth, ProductKind::Voucher}) {
            const QString endpoint = kind == ProductKind::Mobile ? QStringLiteral("mobile")
                                     : kind == ProductKind::Dth  ? QStringLiteral("dth")
                                                                 : QStringLiteral("voucher");
            for (const OperatorInfo &info : m_catalog.operators(kind)) {
                ++operators;
                const std::pair<qint64, bool> cases[] = {{info.minRupees - 1, false},
                                                         {info.minRupees, true},
                                                         {info.maxRupees, true},
                                                         {info.maxRupees + 1, false}};
                // Both number forms at every bound across the table: integer and digit string alternate.
                int row = operators;
                for (const auto &[amount, accepted] : cases) {
                    const bool asString = row++ % 2 == 1;
                    QTest::addRow("%s %s %lld %s", qPrintable(endpoint), qPrintable(info.code), amount,
                                  asString ? "string" : "integer")
                        << endpoint << info.code << amount << asString << info.discountBasisPoints << accepted;
                }
            }
        }
        QCOMPARE(operators, 4 + 6 + 1);
    }
    void limits()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, op);
        QFETCH(qint64, amount);
        QFETCH(bool, asString);
        QFETCH(int, discountBp);
        QFETCH(bool, accepted);
        topup(100'000); // enough for the largest DTH maximum
        const QJsonValue value = asString ? QJsonValue(QString::number(amount)) : QJsonValue(amount);
        QJsonObject body = endpoint == QLatin1String("mobile") ? mobileBody(QStringLiteral("9876543210"), value, op)
                           : endpoint == QLatin1String("dth")  ? dthBody(QStringLiteral("9876543210"), value, op)
                                                               : voucherBody(value);
        const qint64 walletBefore = balance();
        const Snapshot before = snapshot();
        const HttpResult r = post(pathFor(endpoint), body);
        if (!accepted) {
            QString why;
            QVERIFY2(isError(r, 400, QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("amount_out_of_range"),
                             QStringLiteral("amount"), &why),
                     qPrintable(why));
            QVERIFY(snapshot() == before);
            return;
        }
        QCOMPARE(r.status, 200);
        const Paise bill = amount * 100;
        const Paise discount = Money::percentageOf(bill, discountBp);
        QCOMPARE(r.data().value(QStringLiteral("bill_amount")).toString(), Money::format(bill));
        QCOMPARE(r.data().value(QStringLiteral("discount")).toString(), Money::format(discount));
        QCOMPARE(r.data().value(QStringLiteral("paid")).toString(), Money::format(bill - discount));
        QCOMPARE(balance(), walletBefore - (bill - discount));
    }

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

    // ---- idempotency ----------------------------------------------------------------------------------------------

    void idempotentReplay()
    {
        const qint64 start = balance();
        const HttpResult first = post(kMobile, mobileBody(QStringLiteral("9876543210"), QStringLiteral("249"),
                                                          QStringLiteral("RJ"), QStringLiteral("REF-7")));
        QCOMPARE(first.status, 200);
        const qint64 id = first.data().value(QStringLiteral("transaction_id")).toInteger();
        const Snapshot afterFirst = snapshot();
        // Same body (amount now as an integer, same meaning): the original transaction, no second debit.
        for (const QJsonValue &amount :
             {QJsonValue(QStringLiteral("249")), QJsonValue(249), QJsonValue(QStringLiteral(" 249 "))}) {
            const HttpResult replay = post(kMobile, mobileBody(QStringLiteral("9876543210"), amount,
                                                               QStringLiteral("RJ"), QStringLiteral("REF-7")));
            QCOMPARE(replay.status, 200);
            QCOMPARE(replay.data(), first.data());
        }
        QVERIFY(snapshot() == afterFirst);
        QCOMPARE(balance(), start - 24526);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ?"), {id}), 1);

        // A different body with the same reference_id: 409, nothing written.
        const QList<std::pair<QString, QJsonObject>> conflicts{
            {kMobile, mobileBody(QStringLiteral("9876543210"), 250, QStringLiteral("RJ"), QStringLiteral("REF-7"))},
            {kMobile, mobileBody(QStringLiteral("9876543211"), 249, QStringLiteral("RJ"), QStringLiteral("REF-7"))},
            {kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("AT"), QStringLiteral("REF-7"))},
            {kVoucher, voucherBody(249, {}, QStringLiteral("REF-7"))},
            {kDth, dthBody(QStringLiteral("9876543210"), 249, QStringLiteral("AD"), QStringLiteral("REF-7"))},
        };
        for (const auto &[path, body] : conflicts) {
            const HttpResult r = post(path, body);
            QString why;
            QVERIFY2(isError(r, 409, QStringLiteral("CONFLICT_ERROR"), QStringLiteral("reference_id_reused"),
                             QStringLiteral("reference_id"), &why),
                     qPrintable(why));
        }
        QVERIFY(snapshot() == afterFirst);

        // reference_id is unique per account: another shop may use the same one.
        const QByteArray other = m_server->createKey(Mode::Test, Scope::Pos, QStringLiteral("other shop"));
        const HttpResult elsewhere =
            post(kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"), QStringLiteral("REF-7")),
                 other);
        QCOMPARE(elsewhere.status, 200);
        QVERIFY(elsewhere.data().value(QStringLiteral("transaction_id")).toInteger() != id);

        // Without reference_id every request is a new sale.
        const HttpResult a = post(kVoucher, voucherBody(100));
        const HttpResult b = post(kVoucher, voucherBody(100));
        QCOMPARE(a.status, 200);
        QCOMPARE(b.status, 200);
        QVERIFY(a.data().value(QStringLiteral("transaction_id")) != b.data().value(QStringLiteral("transaction_id")));
    }

    void idempotentReplayOfEachEndpoint_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::newRow("voucher") << kVoucher
                                 << voucherBody(QStringLiteral("100"), QStringLiteral("a@example.com"),
                                                QStringLiteral("V-1"));
        QTest::newRow("dth") << kDth
                             << dthBody(QStringLiteral("01234567890"), QStringLiteral("300"), QStringLiteral("DT"),
                                        QStringLiteral("D-1"));
        QTest::newRow("failed sale replays as failed")
            << kMobile << mobileBody(QStringLiteral("9876540000"), 100, QStringLiteral("AT"), QStringLiteral("F-1"));
    }
    void idempotentReplayOfEachEndpoint()
    {
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        const HttpResult first = post(path, body);
        QCOMPARE(first.status, 200);
        const Snapshot after = snapshot();
        const HttpResult replay = post(path, body);
        QCOMPARE(replay.status, 200);
        QCOMPARE(replay.data(), first.data()); // the voucher keeps its redeem code
        QVERIFY(snapshot() == after);
    }

    void concurrentDuplicates()
    {
        const qint64 start = balance();
        const Snapshot before = snapshot();
        const QJsonObject body = mobileBody(QStringLiteral("9876543210"), QStringLiteral("399"), QStringLiteral("VI"),
                                            QStringLiteral("SAME-REF"));
        QList<std::pair<QString, QJsonObject>> requests;
        for (int i = 0; i < 20; ++i)
            requests.append({kMobile, body});
        const QList<HttpResult> results = concurrently(requests, m_server->pos());
        QCOMPARE(results.size(), 20);
        QSet<qint64> ids;
        for (const HttpResult &r : results) {
            QCOMPARE(r.status, 200);
            ids.insert(r.data().value(QStringLiteral("transaction_id")).toInteger());
        }
        QCOMPARE(ids.size(), 1);
        const qint64 id = *ids.cbegin();
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = 'SAME-REF'")), 1);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ?"), {id}), 1);
        const Snapshot after = snapshot();
        QCOMPARE(after.transactions, before.transactions + 1);
        QCOMPARE(after.ledgerRows, before.ledgerRows + 1);
        QCOMPARE(balance(), start - (39900 - Money::percentageOf(39900, 350)));
    }

    void concurrentDistinctSales()
    {
        // Requests grouped into one commit stay isolated: a bad one (402-sized voucher, 409 reuse) spoils no other.
        const HttpResult seed = post(kVoucher, voucherBody(100, {}, QStringLiteral("TAKEN")));
        QCOMPARE(seed.status, 200);
        const qint64 start = balance();
        QList<std::pair<QString, QJsonObject>> requests;
        for (int i = 0; i < 24; ++i) {
            requests.append({kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT"),
                                                 QStringLiteral("C-%1").arg(i))});
        }
        // Pays ₹19,400: more than the wallet holds whatever the order inside the batch.
        requests.append(
            {kDth, dthBody(QStringLiteral("1012345678"), 20000, QStringLiteral("TS"), QStringLiteral("TOO-BIG"))});
        requests.append(
            {kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT"), QStringLiteral("TAKEN"))});
        const QList<HttpResult> results = concurrently(requests, m_server->pos());
        QSet<qint64> ids;
        for (int i = 0; i < 24; ++i) {
            QCOMPARE(results.at(i).status, 200);
            ids.insert(results.at(i).data().value(QStringLiteral("transaction_id")).toInteger());
        }
        QCOMPARE(ids.size(), 24);
        QCOMPARE(results.at(24).status, 402);
        QCOMPARE(results.at(25).status, 409);
        QCOMPARE(balance(), start - 24 * 9800);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = 'TOO-BIG'")), 0);
    }

    // ---- modes, accounts, wallet ----------------------------------------------------------------------------------

    void liveKeyGetsGatewayError()
    {
        const QByteArray live = m_server->createKey(Mode::Live, Scope::Pos);
        const Snapshot before = snapshot();
        const QList<std::pair<QString, QJsonObject>> sales{
            {kMobile, mobileBody(QStringLiteral("9876543210"), QStringLiteral("249"), QStringLiteral("RJ"),
                                 QStringLiteral("L-1"))},
            {kVoucher, voucherBody(QStringLiteral("100"))},
            {kDth, dthBody(QStringLiteral("1012345678"), QStringLiteral("300"), QStringLiteral("TS"))}};
        for (const auto &[path, body] : sales) {
            const HttpResult r = post(path, body, live);
            QString why;
            QVERIFY2(isError(r, 503, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("no_live_provider"),
                             QJsonValue(QJsonValue::Null), &why),
                     qPrintable(why));
        }
        QVERIFY(snapshot() == before);
        // Validation still comes first for live keys.
        QCOMPARE(post(kMobile, mobileBody(QStringLiteral("123")), live).status, 400);
        // The reference_id was not consumed: a test key of the same account may use it.
        QCOMPARE(
            post(kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"), QStringLiteral("L-1")))
                .status,
            200);
        const HttpResult wallet = get(kWallet, live);
        QCOMPARE(wallet.status, 200);
        QCOMPARE(wallet.data().value(QStringLiteral("mode")).toString(), QStringLiteral("live"));
        QCOMPARE(wallet.data().value(QStringLiteral("balance")).toString(), QStringLiteral("₹0.00"));
    }

    void otherAccountsAndModesAreInvisible()
    {
        const HttpResult mine =
            post(kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"), QStringLiteral("MINE")));
        QCOMPARE(mine.status, 200);
        const qint64 id = mine.data().value(QStringLiteral("transaction_id")).toInteger();

        // Another account: 404 by id, absent from its listing, even filtered by reference_id.
        const QByteArray other = m_server->createKey(Mode::Test, Scope::Admin, QStringLiteral("other shop"));
        HttpResult r = transaction(id, other);
        QString why;
        QVERIFY2(isError(r, 404, QStringLiteral("NOT_FOUND_ERROR"), QStringLiteral("transaction_not_found"),
                         QJsonValue(QJsonValue::Null), &why),
                 qPrintable(why));
        QCOMPARE(list(QUrlQuery(), other).data().value(QStringLiteral("count")).toInt(), 0);
        QUrlQuery byRef;
        byRef.addQueryItem(QStringLiteral("reference_id"), QStringLiteral("MINE"));
        QCOMPARE(list(byRef, other).data().value(QStringLiteral("count")).toInt(), 0);
        QCOMPARE(list(byRef).data().value(QStringLiteral("count")).toInt(), 1);
        // Its wallet is its own.
        QCOMPARE(balance(other), ApiKeyService::kOpeningTestCredit);

        // A live transaction of this account (written directly: no live provider exists yet) is invisible to test
        // keys, and the test transaction is invisible to live keys.
        const QByteArray live = m_server->createKey(Mode::Live, Scope::Pos);
        StoredTransaction row;
        row.accountId = scalar(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        row.mode = Mode::Live;
        row.keyId = keyIdOf(live);
        row.fingerprint = QStringLiteral("live");
        row.record.type = TransactionType::Mobile;
        row.record.operatorCode = QStringLiteral("AT");
        row.record.number = QStringLiteral("9876543210");
        row.record.billAmount = 10000;
        row.record.discount = 200;
        row.record.paid = 9800;
        row.record.status = TransactionStatus::Success;
        row.record.referenceId = QStringLiteral("LIVE-1");
        row.record.createdAtMs = QDateTime::currentMSecsSinceEpoch();
        const qint64 liveId = TransactionRepository(m_server->db()).insert(row, row.record.createdAtMs);
        QVERIFY(liveId > id);

        QCOMPARE(transaction(liveId).status, 404);
        QCOMPARE(transaction(liveId, m_server->admin()).status, 404);
        QUrlQuery liveRef;
        liveRef.addQueryItem(QStringLiteral("reference_id"), QStringLiteral("LIVE-1"));
        QCOMPARE(list(liveRef).data().value(QStringLiteral("count")).toInt(), 0);
        const QJsonArray testItems = list(QUrlQuery()).data().value(QStringLiteral("items")).toArray();
        QCOMPARE(testItems.size(), 1);
        QCOMPARE(testItems.at(0).toObject().value(QStringLiteral("transaction_id")).toInteger(), id);

        r = transaction(liveId, live);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("reference_id")).toString(), QStringLiteral("LIVE-1"));
        QCOMPARE(transaction(id, live).status, 404);
        QCOMPARE(list(QUrlQuery(), live).data().value(QStringLiteral("count")).toInt(), 1);
    }

    void insufficientBalance()
    {
        // Drain the ₹10,000 opening credit: a ₹10,000 voucher pays ₹9,900, leaving ₹100.
        QCOMPARE(post(kVoucher, voucherBody(10000)).status, 200);
        QCOMPARE(balance(), 10000);
        const Snapshot before = snapshot();
        const QList<std::pair<QString, QJsonObject>> sales{
            {kVoucher, voucherBody(QStringLiteral("102"), {}, QStringLiteral("SHORT-1"))}, // pays ₹100.98
            {kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("AT"))},
            {kDth, dthBody(QStringLiteral("1012345678"), 200, QStringLiteral("TS"))},
            {kMobile, mobileBody(QStringLiteral("9876540000"), 249, QStringLiteral("AT"))}, // would fail, still 402
        };
        for (const auto &[path, body] : sales) {
            const HttpResult r = post(path, body);
            QString why;
            QVERIFY2(isError(r, 402, QStringLiteral("INSUFFICIENT_BALANCE"), QStringLiteral("insufficient_balance"),
                             QJsonValue(QJsonValue::Null), &why),
                     qPrintable(why));
        }
        QVERIFY(snapshot() == before);
        QCOMPARE(balance(), 10000);
        // Exactly the balance is enough: ₹101 at 1 % pays ₹99.99.
        const HttpResult exact = post(kVoucher, voucherBody(101));
        QCOMPARE(exact.status, 200);
        QCOMPARE(balance(), 1);
        // After a top-up the refused reference_id is free to use.
        topup(1000);
        QCOMPARE(post(kVoucher, voucherBody(QStringLiteral("102"), {}, QStringLiteral("SHORT-1"))).status, 200);
    }

    void walletEndpoints()
    {
        HttpResult r = get(kWallet);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("entity")).toString(), QStringLiteral("wallet"));
        QCOMPARE(r.data().value(QStringLiteral("mode")).toString(), QStringLiteral("test"));
        QCOMPARE(r.data().value(QStringLiteral("balance")).toString(), QStringLiteral("₹10000.00"));
        QCOMPARE(r.data().value(QStringLiteral("balance_paise")).toInteger(), 1000000);

        // Top-ups: admin only, whole rupees as integer or digit string, note and actor kept in the ledger.
        r = post(QStringLiteral("/api/v1/wallet/topups"),
                 QJsonObject{{QStringLiteral("amount"), QStringLiteral("2500")},
                             {QStringLiteral("note"), QStringLiteral("cash deposit")}},
                 m_server->admin());
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value(QStringLiteral("balance")).toString(), QStringLiteral("₹12500.00"));
        QCOMPARE(balance(), 1250000);
        const Snapshot before = snapshot();
        for (const QJsonValue &bad :
             {QJsonValue(0), QJsonValue(-5), QJsonValue(QStringLiteral("12.5")), QJsonValue(1000001)}) {
            r = post(QStringLiteral("/api/v1/wallet/topups"), QJsonObject{{QStringLiteral("amount"), bad}},
                     m_server->admin());
            QCOMPARE(r.status, 400);
            QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("amount"));
        }
        QVERIFY(snapshot() == before);

        const QList<QJsonObject> rows = ledger(50);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(0).value(QStringLiteral("kind")).toString(), QStringLiteral("topup"));
        QCOMPARE(rows.at(0).value(QStringLiteral("amount")).toString(), QStringLiteral("₹2500.00"));
        QCOMPARE(rows.at(0).value(QStringLiteral("note")).toString(), QStringLiteral("cash deposit"));
        QCOMPARE(rows.at(0).value(QStringLiteral("actor")).toString(),
                 QStringLiteral("key:") + keyIdOf(m_server->admin()));
        QCOMPARE(rows.at(0).value(QStringLiteral("transaction_id")), QJsonValue(QJsonValue::Null));
        QCOMPARE(rows.at(1).value(QStringLiteral("kind")).toString(), QStringLiteral("opening"));
        QCOMPARE(rows.at(1).value(QStringLiteral("amount_paise")).toInteger(), ApiKeyService::kOpeningTestCredit);

        // Bad ledger queries.
        QUrl url = m_server->url(QStringLiteral("/api/v1/wallet/ledger"));
        url.setQuery(QStringLiteral("limit=0"));
        QCOMPARE(m_http.get(url, m_server->admin()).status, 400);
        url.setQuery(QStringLiteral("cursor=abc"));
        QCOMPARE(m_http.get(url, m_server->admin()).status, 400);
    }

    void healthz()
    {
        const HttpResult r = m_http.get(m_server->url(QStringLiteral("/healthz")));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QVERIFY(r.header("Content-Type").startsWith("application/json"));
        QVERIFY(!r.header("X-Request-Id").isEmpty());
        // Credentials are not needed, and bad ones do not matter.
        QCOMPARE(m_http.get(m_server->url(QStringLiteral("/healthz")), "Basic !!!").status, 200);
    }

    // ---- listing --------------------------------------------------------------------------------------------------

    void listingFiltersAndPages()
    {
        // 3 mobile (one FAILED), 2 voucher, 2 DTH; newest first.
        const QList<std::pair<QString, QJsonObject>> sales{
            {kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT"), QStringLiteral("L1"))},
            {kVoucher, voucherBody(100, {}, QStringLiteral("L2"))},
            {kDth, dthBody(QStringLiteral("1012345678"), 300, QStringLiteral("TS"), QStringLiteral("L3"))},
            {kMobile, mobileBody(QStringLiteral("9876540000"), 100, QStringLiteral("VI"), QStringLiteral("L4"))},
            {kVoucher, voucherBody(200, {}, QStringLiteral("L5"))},
            {kDth, dthBody(QStringLiteral("01234567890"), 300, QStringLiteral("DT"), QStringLiteral("L6"))},
            {kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT"), QStringLiteral("L7"))},
        };
        QList<qint64> ids;
        for (const auto &[path, body] : sales) {
            const HttpResult r = post(path, body);
            QCOMPARE(r.status, 200);
            ids.prepend(r.data().value(QStringLiteral("transaction_id")).toInteger());
        }
        const auto idsOf = [](const HttpResult &r) {
            QList<qint64> result;
            for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
                result.append(item.toObject().value(QStringLiteral("transaction_id")).toInteger());
            return result;
        };
        const auto query = [](std::initializer_list<std::pair<const char *, QString>> items) {
            QUrlQuery q;
            for (const auto &[key, value] : items)
                q.addQueryItem(QLatin1String(key), value);
            return q;
        };

        HttpResult r = list(QUrlQuery());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("entity")).toString(), QStringLiteral("collection"));
        QCOMPARE(r.data().value(QStringLiteral("count")).toInt(), 7);
        QCOMPARE(r.data().value(QStringLiteral("next_cursor")), QJsonValue(QJsonValue::Null));
        QCOMPARE(idsOf(r), ids);
        // Items are the same records as the status check.
        QCOMPARE(r.data().value(QStringLiteral("items")).toArray().at(0).toObject(), transaction(ids.at(0)).data());

        QCOMPARE(idsOf(list(query({{"type", QStringLiteral("MOBILE")}}))), (QList<qint64>{ids[0], ids[3], ids[6]}));
        QCOMPARE(idsOf(list(query({{"type", QStringLiteral("voucher")}}))), (QList<qint64>{ids[2], ids[5]}));
        QCOMPARE(idsOf(list(query({{"type", QStringLiteral("DTH")}}))), (QList<qint64>{ids[1], ids[4]}));
        QCOMPARE(idsOf(list(query({{"status", QStringLiteral("FAILED")}}))), (QList<qint64>{ids[3]}));
        QCOMPARE(list(query({{"status", QStringLiteral("SUCCESS")}})).data().value(QStringLiteral("count")).toInt(), 6);
        QCOMPARE(list(query({{"status", QStringLiteral("PENDING")}})).data().value(QStringLiteral("count")).toInt(), 0);
        QCOMPARE(idsOf(list(query({{"operator", QStringLiteral("AT")}}))), (QList<qint64>{ids[0], ids[6]}));
        QCOMPARE(idsOf(list(query({{"reference_id", QStringLiteral("L5")}}))), (QList<qint64>{ids[2]}));
        QCOMPARE(list(query({{"reference_id", QStringLiteral("nope")}})).data().value(QStringLiteral("count")).toInt(),
                 0);
        QCOMPARE(idsOf(list(query({{"type", QStringLiteral("MOBILE")}, {"status", QStringLiteral("SUCCESS")}}))),
                 (QList<qint64>{ids[0], ids[6]}));

        // Dates are IST days: today holds everything, yesterday and tomorrow nothing.
        const QDate today = QDateTime::currentDateTimeUtc().toOffsetFromUtc(IstTime::kOffsetSeconds).date();
        const QString todayText = today.toString(Qt::ISODate);
        QCOMPARE(list(query({{"from", todayText}, {"to", todayText}})).data().value(QStringLiteral("count")).toInt(),
                 7);
        QCOMPARE(list(query({{"to", today.addDays(-1).toString(Qt::ISODate)}}))
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 0);
        QCOMPARE(list(query({{"from", today.addDays(1).toString(Qt::ISODate)}}))
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 0);
        QCOMPARE(list(query({{"from", todayText + QStringLiteral(" 00:00:00")}}))
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 7);

        // Cursor pagination: 3 + 3 + 1, no overlap, no gap, then no cursor.
        QList<qint64> paged;
        QString cursor;
        int pages = 0;
        for (;;) {
            QUrlQuery q = query({{"limit", QStringLiteral("3")}});
            if (!cursor.isEmpty())
                q.addQueryItem(QStringLiteral("cursor"), cursor);
            r = list(q);
            QCOMPARE(r.status, 200);
            ++pages;
            paged += idsOf(r);
            QVERIFY(pages <= 4);
            if (r.data().value(QStringLiteral("next_cursor")).isNull())
                break;
            cursor = r.data().value(QStringLiteral("next_cursor")).toString();
            QVERIFY(!cursor.isEmpty());
        }
        QCOMPARE(pages, 3);
        QCOMPARE(paged, ids);
        // With a filter, pages follow the filter.
        r = list(query({{"type", QStringLiteral("MOBILE")}, {"limit", QStringLiteral("2")}}));
        QCOMPARE(idsOf(r), (QList<qint64>{ids[0], ids[3]}));
        r = list(query({{"type", QStringLiteral("MOBILE")},
                        {"limit", QStringLiteral("2")},
                        {"cursor", r.data().value(QStringLiteral("next_cursor")).toString()}}));
        QCOMPARE(idsOf(r), (QList<qint64>{ids[6]}));
    }

    void listingBadQueries_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::newRow("type") << QStringLiteral("type") << QStringLiteral("BROADBAND");
        QTest::newRow("status") << QStringLiteral("status") << QStringLiteral("DONE");
        QTest::newRow("from") << QStringLiteral("from") << QStringLiteral("01/01/2025");
        QTest::newRow("to") << QStringLiteral("to") << QStringLiteral("tomorrow");
        QTest::newRow("limit 0") << QStringLiteral("limit") << QStringLiteral("0");
        QTest::newRow("limit 201") << QStringLiteral("limit") << QStringLiteral("201");
        QTest::newRow("limit text") << QStringLiteral("limit") << QStringLiteral("ten");
        QTest::newRow("cursor garbage") << QStringLiteral("cursor") << QStringLiteral("!!");
        QTest::newRow("cursor not a number")
            << QStringLiteral("cursor")
            << QString::fromLatin1(QByteArray("abc").toBase64(QByteArray::Base64UrlEncoding));
    }
    void listingBadQueries()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QUrlQuery q;
        q.addQueryItem(name, value);
        const HttpResult r = list(q);
        QString why;
        QVERIFY2(
            isError(r, 400, QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("invalid_query_parameter"), name, &why),
            qPrintable(why));
    }

    // ---- sandbox outcomes and settlement --------------------------------------------------------------------------

    void sandboxOutcomes_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("immediate");
        QTest::addColumn<QString>("final");
        QTest::newRow("mobile 0000 fails at once")
            << kMobile << mobileBody(QStringLiteral("9876540000"), QStringLiteral("249")) << QStringLiteral("FAILED")
            << QStringLiteral("FAILED");
        QTest::newRow("mobile 1111 pends then succeeds") << kMobile << mobileBody(QStringLiteral("9876541111"), 249)
                                                         << QStringLiteral("PENDING") << QStringLiteral("SUCCESS");
        QTest::newRow("mobile 2222 pends then fails") << kMobile << mobileBody(QStringLiteral("9876542222"), 249)
                                                      << QStringLiteral("PENDING") << QStringLiteral("FAILED");
        QTest::newRow("mobile other succeeds") << kMobile << mobileBody(QStringLiteral("9876543333"), 249)
                                               << QStringLiteral("SUCCESS") << QStringLiteral("SUCCESS");
        QTest::newRow("dth 0000 fails at once")
            << kDth << dthBody(QStringLiteral("1012340000"), 300, QStringLiteral("TS")) << QStringLiteral("FAILED")
            << QStringLiteral("FAILED");
        QTest::newRow("dth 1111 pends then succeeds")
            << kDth << dthBody(QStringLiteral("01234561111"), QStringLiteral("300"), QStringLiteral("DT"))
            << QStringLiteral("PENDING") << QStringLiteral("SUCCESS");
        QTest::newRow("dth 2222 pends then fails")
            << kDth << dthBody(QStringLiteral("9876542222"), 300, QStringLiteral("AD")) << QStringLiteral("PENDING")
            << QStringLiteral("FAILED");
        QTest::newRow("voucher +failed@") << kVoucher << voucherBody(500, QStringLiteral("asha+failed@example.com"))
                                          << QStringLiteral("FAILED") << QStringLiteral("FAILED");
        QTest::newRow("voucher +pending@")
            << kVoucher << voucherBody(QStringLiteral("500"), QStringLiteral("asha+pending@example.com"))
            << QStringLiteral("PENDING") << QStringLiteral("SUCCESS");
        QTest::newRow("voucher +pendingfail@")
            << kVoucher << voucherBody(500, QStringLiteral("asha+pendingfail@example.com")) << QStringLiteral("PENDING")
            << QStringLiteral("FAILED");
        QTest::newRow("voucher other succeeds")
            << kVoucher << voucherBody(500, QStringLiteral("asha+other@example.com")) << QStringLiteral("SUCCESS")
            << QStringLiteral("SUCCESS");
    }
    void sandboxOutcomes()
    {
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        QFETCH(QString, immediate);
        QFETCH(QString, final);
        const bool voucher = path == kVoucher;
        // A clock that moves only when told: PENDING stays PENDING until the test moves it past the settle delay.
        m_server.reset();
        m_manualClock = std::make_unique<ManualClock>(QDateTime::currentDateTimeUtc());
        m_server = std::make_unique<TestServer>(TestServer::defaultOptions(), m_manualClock.get());
        const qint64 start = balance();
        const HttpResult r = post(path, body);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("transaction_status")).toString(), immediate);
        const qint64 id = r.data().value(QStringLiteral("transaction_id")).toInteger();
        const Paise paid = Money::parse(r.data().value(QStringLiteral("paid")).toString()).value_or(-1);
        QVERIFY(paid > 0);
        if (voucher) {
            const QString code = r.data().value(QStringLiteral("redeem_code")).toString();
            // A code exists only once the voucher succeeded.
            QCOMPARE(kRedeemCode.match(code).hasMatch(), immediate == QLatin1String("SUCCESS"));
            if (immediate != QLatin1String("SUCCESS"))
                QCOMPARE(code, QString());
        }
        if (immediate == QLatin1String("PENDING")) {
            QTest::qWait(100); // the settlement timer may run: nothing is due yet by the clock
            QCOMPARE(statusOf(id), immediate);
            QCOMPARE(balance(), start - paid); // debited while pending
            QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM settlements WHERE transaction_id = ?"), {id}), 1);
        } else {
            QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM settlements WHERE transaction_id = ?"), {id}), 0);
        }
        m_manualClock->advanceMs(TestServer::defaultOptions().settleDelayMs);

        // Settlement, observed through the status check.
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), final, 15'000);
        const QJsonObject settled = transaction(id).data();
        QCOMPARE(settled.value(QStringLiteral("bill_amount")), r.data().value(QStringLiteral("bill_amount")));
        QCOMPARE(settled.value(QStringLiteral("datetime")), r.data().value(QStringLiteral("datetime")));
        if (voucher) {
            const QString code = settled.value(QStringLiteral("redeem_code")).toString();
            if (final == QLatin1String("SUCCESS"))
                QVERIFY2(kRedeemCode.match(code).hasMatch(), qPrintable(code));
            else
                QCOMPARE(code, QString());
        }
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM settlements WHERE transaction_id = ?"), {id}), 0);

        // Wallet: FAILED is refunded (debit + refund net zero), SUCCESS keeps exactly one debit.
        const qint64 rows = scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ?"), {id});
        const qint64 net =
            scalar(QStringLiteral("SELECT SUM(amount) FROM wallet_ledger WHERE transaction_id = ?"), {id});
        if (final == QLatin1String("FAILED")) {
            QCOMPARE(rows, 2);
            QCOMPARE(net, 0);
            QCOMPARE(
                scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ? AND kind = 'refund'"
                                      " AND amount = ?"),
                       {id, paid}),
                1);
            QCOMPARE(balance(), start);
        } else {
            QCOMPARE(rows, 1);
            QCOMPARE(net, -paid);
            QCOMPARE(balance(), start - paid);
        }
        // A settled transaction stays settled.
        QTest::qWait(200);
        QCOMPARE(statusOf(id), final);
    }

    /// The totals line of a text filter counts exactly the rows the listing shows: number and
    /// reference prefixes (either case as typed, upper or lower) and the transaction id.
    void summaryOfTextFilterMatchesListing()
    {
        const QList<std::pair<QString, QString>> sales{{QStringLiteral("9876500001"), QStringLiteral("ORD-7")},
                                                       {QStringLiteral("9812300002"), QStringLiteral("ord-8")},
                                                       {QStringLiteral("7012300003"), QStringLiteral("XY-98")},
                                                       {QStringLiteral("9876540000"), QString()}, // FAILED
                                                       {QStringLiteral("6012300005"), QStringLiteral("98-A")}};
        for (const auto &[phone, reference] : sales)
            QCOMPARE(post(kMobile, mobileBody(phone, 100, QStringLiteral("AT"), reference)).status, 200);
        for (const QString &text :
             {QStringLiteral("98"), QStringLiteral("ord"), QStringLiteral("ORD"), QStringLiteral("XY"),
              QStringLiteral("3"), QStringLiteral("9876"), QStringLiteral("zz")}) {
            QUrlQuery query;
            query.addQueryItem(QStringLiteral("q"), text);
            query.addQueryItem(QStringLiteral("limit"), QStringLiteral("200"));
            const HttpResult listed = list(query);
            QCOMPARE(listed.status, 200);
            QUrl url = m_server->url(kTransactions + QStringLiteral("/summary"));
            url.setQuery(query.toString().replace(QStringLiteral("&limit=200"), QString()));
            const HttpResult summary = m_http.get(url, m_server->pos());
            QCOMPARE(summary.status, 200);
            QVERIFY2(summary.data().value(QStringLiteral("count")).toInteger() ==
                         listed.data().value(QStringLiteral("count")).toInteger(),
                     qPrintable(text + QLatin1Char(' ') + QString::fromUtf8(summary.body)));
        }
        QUrlQuery ord;
        ord.addQueryItem(QStringLiteral("q"), QStringLiteral("ord"));
        QCOMPARE(list(ord).data().value(QStringLiteral("count")).toInteger(), 2);
        QUrlQuery byId;
        byId.addQueryItem(QStringLiteral("q"), QStringLiteral("3"));
        QVERIFY(list(byId).data().value(QStringLiteral("count")).toInteger() >= 1); // transaction 3
    }

    /// Decimals are refused only where a whole number is asked for: an unknown field may hold
    /// one, and text that looks like a number is left alone.
    void decimalsElsewhereAreIgnored()
    {
        const HttpResult r = postRaw(kMobile,
                                     R"({"phone_number": "9876543210", "amount": 249, "operator_code": "RJ",)"
                                     R"( "reference_id": "ord-2e3-1", "client_version": 1.5, "extra": [-2.0E-3]})",
                                     "application/json");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("reference_id")).toString(), QStringLiteral("ord-2e3-1"));
        QCOMPARE(r.data().value(QStringLiteral("bill_amount")).toString(), QStringLiteral("₹249.00"));
    }

    /// The shop's discount rate and sandbox settle delay (PUT /api/v1/shop) apply to the next
    /// sale, never to one already written.
    void shopSaleTermsApplyToNextSale()
    {
        const auto putShop = [this](const QJsonObject &body) {
            return m_http.send("PUT", m_server->url(QStringLiteral("/api/v1/shop")),
                               QJsonDocument(body).toJson(QJsonDocument::Compact),
                               {{"Authorization", m_server->liveAdmin()}, {"Content-Type", "application/json"}});
        };
        const HttpResult before = post(kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT")));
        QCOMPARE(before.data().value(QStringLiteral("discount")).toString(), QStringLiteral("₹2.00")); // default 2.0 %

        QCOMPARE(
            putShop(QJsonObject{{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("AT"), 275}}},
                                {QStringLiteral("sandbox_settle_delay_ms"), 1500}})
                .status,
            200);
        const qint64 start = balance();
        const HttpResult after = post(kMobile, mobileBody(QStringLiteral("9876541111"), 199, QStringLiteral("AT")));
        QCOMPARE(after.status, 200);
        // round-half-up(199 x 2.75 %) = 547.25 paise -> 547
        QCOMPARE(after.data().value(QStringLiteral("discount")).toString(), QStringLiteral("₹5.47"));
        QCOMPARE(after.data().value(QStringLiteral("paid")).toString(), QStringLiteral("₹193.53"));
        QCOMPARE(balance(), start - 19'353);
        // Other operators keep their rate; the earlier sale keeps its discount.
        const HttpResult jio = post(kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("RJ")));
        QCOMPARE(jio.data().value(QStringLiteral("discount")).toString(), QStringLiteral("₹1.50"));
        const qint64 beforeId = before.data().value(QStringLiteral("transaction_id")).toInteger();
        QCOMPARE(transaction(beforeId).data().value(QStringLiteral("discount")).toString(), QStringLiteral("₹2.00"));

        // The PENDING sale waits the shop's 1.5 s, not the server's 50 ms.
        const qint64 id = after.data().value(QStringLiteral("transaction_id")).toInteger();
        QCOMPARE(scalar(QStringLiteral("SELECT s.due_at - t.created_at FROM settlements s JOIN transactions t"
                                       " ON t.id = s.transaction_id WHERE s.transaction_id = ?"),
                        {id}),
                 1500);
        QTest::qWait(300);
        QCOMPARE(statusOf(id), QStringLiteral("PENDING"));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("SUCCESS"), 15'000);
    }

    void walletInvariantsAfterMixedRun()
    {
        topup(5000);
        const QList<std::pair<QString, QJsonObject>> sales{
            {kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"))},
            {kMobile, mobileBody(QStringLiteral("9876540000"), 199, QStringLiteral("AT"))},
            {kMobile, mobileBody(QStringLiteral("9876541111"), QStringLiteral("299"), QStringLiteral("VI"))},
            {kMobile, mobileBody(QStringLiteral("9876542222"), 399, QStringLiteral("BS"))},
            {kDth, dthBody(QStringLiteral("41234567890"), 300, QStringLiteral("SD"))},
            {kDth, dthBody(QStringLiteral("123456780000"), 300, QStringLiteral("BT"))},
            {kDth, dthBody(QStringLiteral("123456781111"), 300, QStringLiteral("VC"))},
            {kDth, dthBody(QStringLiteral("3012342222"), 300, QStringLiteral("AD"))},
            {kVoucher, voucherBody(1000, QStringLiteral("a@example.com"))},
            {kVoucher, voucherBody(1000, QStringLiteral("a+failed@example.com"))},
            {kVoucher, voucherBody(1000, QStringLiteral("a+pending@example.com"))},
            {kVoucher, voucherBody(1000, QStringLiteral("a+pendingfail@example.com"))},
            {kVoucher, voucherBody(20000)},                                                  // 400: nothing
            {kMobile, mobileBody(QStringLiteral("9876543210"), 5001, QStringLiteral("VI"))}, // 400: nothing
        };
        QList<qint64> ids;
        for (const auto &[path, body] : sales) {
            const HttpResult r = post(path, body);
            if (r.status == 200)
                ids.append(r.data().value(QStringLiteral("transaction_id")).toInteger());
        }
        QCOMPARE(ids.size(), 12);
        QTRY_COMPARE_WITH_TIMEOUT(
            list(QUrlQuery(QStringLiteral("status=PENDING"))).data().value(QStringLiteral("count")).toInt(), 0, 15'000);

        // balance == sum of the ledger, read through the API's ledger pages (3 rows a page).
        const QList<QJsonObject> rows = ledger(3);
        Paise sum = 0;
        QSet<qint64> rowIds;
        for (const QJsonObject &row : rows) {
            sum += row.value(QStringLiteral("amount_paise")).toInteger();
            rowIds.insert(row.value(QStringLiteral("id")).toInteger());
        }
        QCOMPARE(rowIds.size(), rows.size());
        QCOMPARE(balance(), sum);
        // opening + topup + 12 debits + 6 refunds.
        QCOMPARE(rows.size(), 2 + 12 + 6);

        Paise expected = ApiKeyService::kOpeningTestCredit + 500000;
        int failed = 0;
        for (qint64 id : std::as_const(ids)) {
            const QJsonObject t = transaction(id).data();
            const Paise paid = Money::parse(t.value(QStringLiteral("paid")).toString()).value_or(0);
            const QString status = t.value(QStringLiteral("transaction_status")).toString();
            Paise net = 0;
            int debits = 0;
            int refunds = 0;
            for (const QJsonObject &row : rows) {
                if (row.value(QStringLiteral("transaction_id")).toInteger() != id)
                    continue;
                net += row.value(QStringLiteral("amount_paise")).toInteger();
                debits += row.value(QStringLiteral("kind")).toString() == QLatin1String("debit");
                refunds += row.value(QStringLiteral("kind")).toString() == QLatin1String("refund");
            }
            QCOMPARE(debits, 1);
            if (status == QLatin1String("FAILED")) {
                ++failed;
                QCOMPARE(refunds, 1);
                QCOMPARE(net, 0);
            } else {
                QCOMPARE(status, QStringLiteral("SUCCESS"));
                QCOMPARE(refunds, 0);
                QCOMPARE(net, -paid);
                expected -= paid;
            }
        }
        QCOMPARE(failed, 6);
        QCOMPARE(balance(), expected);
        // And in the store: every wallet's balance row equals its ledger.
        QCOMPARE(
            scalar(QStringLiteral("SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT COALESCE(SUM(amount), 0)"
                                  " FROM wallet_ledger l WHERE l.account_id = w.account_id AND l.mode = w.mode)")),
            0);
    }

    /// PostgreSQL ends the server's session (a restart of PostgreSQL, an administrator): the next reads and sales
    /// work on a new connection, and a PENDING sale still settles. (SQLite: nothing to lose, the same must hold.)
    void lostDatabaseConnection()
    {
        const HttpResult pending = post(kMobile, mobileBody(QStringLiteral("9876541111"), 249, QStringLiteral("RJ")));
        QCOMPARE(pending.status, 200);
        const qint64 id = pending.data().value(QStringLiteral("transaction_id")).toInteger();
        m_server->store().terminateSessions();
        QCOMPARE(transaction(id).status, 200); // a read: asked again on a new connection
        m_server->store().terminateSessions();
        const HttpResult sale = post(kMobile, mobileBody(QStringLiteral("9876543210"), 199, QStringLiteral("RJ")));
        QCOMPARE(sale.status, 200); // BEGIN on a new connection
        QCOMPARE(sale.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QTRY_COMPARE_WITH_TIMEOUT(transaction(id).data().value(QStringLiteral("transaction_status")).toString(),
                                  QStringLiteral("SUCCESS"), 10'000);
        QCOMPARE(list(QUrlQuery()).data().value(QStringLiteral("count")).toInt(), 2);
    }

    /// The history search (q) is a prefix of the number or reference_id in which `_`, `%` and `\` are plain
    /// characters, on every backend (LIKE ... ESCAPE).
    void searchTreatsWildcardsLiterally()
    {
        const QStringList references{QStringLiteral("ab_1"), QStringLiteral("abx1"), QStringLiteral("ab-2")};
        for (int i = 0; i < references.size(); ++i) {
            QJsonObject body = mobileBody(QStringLiteral("987654321%1").arg(i), 49, QStringLiteral("RJ"));
            body.insert(QStringLiteral("reference_id"), references.at(i));
            QCOMPARE(post(kMobile, body).status, 200);
        }
        const auto found = [this](const QString &q) {
            QUrlQuery query;
            query.addQueryItem(QStringLiteral("q"), QString::fromLatin1(QUrl::toPercentEncoding(q)));
            const HttpResult r = list(query);
            QStringList refs;
            if (r.status != 200)
                refs.append(QStringLiteral("HTTP %1").arg(r.status));
            for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
                refs.append(item.toObject().value(QStringLiteral("reference_id")).toString());
            refs.sort();
            return refs;
        };
        QCOMPARE(found(QStringLiteral("ab_")), QStringList{QStringLiteral("ab_1")});
        QCOMPARE(found(QStringLiteral("ab")),
                 QStringList({QStringLiteral("ab-2"), QStringLiteral("ab_1"), QStringLiteral("abx1")}));
        QCOMPARE(found(QStringLiteral("ab%")), QStringList());
        QCOMPARE(found(QStringLiteral("a%1")), QStringList());
        QCOMPARE(found(QStringLiteral("ab\\")), QStringList());
        QCOMPARE(found(QStringLiteral("9876543211")), QStringList{QStringLiteral("abx1")}); // a number prefix
    }

    /// The day-end report (GET /api/v1/reports/day-end): its lines, hours and wallet agree with the sales of the day.
    void dayEndReport()
    {
        const QDateTime now = QDateTime::currentDateTimeUtc().toOffsetFromUtc(IstTime::kOffsetSeconds);
        if (now.time() >= QTime(23, 59, 50))
            QTest::qWait(11'000); // all sales inside one IST day
        QCOMPARE(post(kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"))).status, 200);
        QCOMPARE(post(kMobile, mobileBody(QStringLiteral("9876543211"), 199, QStringLiteral("RJ"))).status, 200);
        QCOMPARE(post(kMobile, mobileBody(QStringLiteral("9876540000"), 99, QStringLiteral("AT"))).status, 200);
        const QDateTime sold = QDateTime::currentDateTimeUtc().toOffsetFromUtc(IstTime::kOffsetSeconds);

        QUrl url = m_server->url(QStringLiteral("/api/v1/reports/day-end"));
        url.setQuery(QStringLiteral("date=") + sold.date().toString(QStringLiteral("yyyy-MM-dd")));
        const HttpResult r = m_http.get(url, m_server->admin());
        QCOMPARE(r.status, 200);
        const QJsonObject totals = r.data().value(QStringLiteral("totals")).toObject();
        QCOMPARE(totals.value(QStringLiteral("success")).toInteger(), 2);
        QCOMPARE(totals.value(QStringLiteral("failed")).toInteger(), 1);
        QCOMPARE(totals.value(QStringLiteral("bill_amount")).toString(), QStringLiteral("₹448.00"));
        QCOMPARE(r.data().value(QStringLiteral("lines")).toArray().size(), 2); // (MOBILE, AT) and (MOBILE, RJ)
        const QJsonArray hours = r.data().value(QStringLiteral("hours")).toArray();
        QCOMPARE(hours.size(), 24);
        qint64 success = 0;
        Paise billed = 0;
        for (const QJsonValue &hour : hours) {
            success += hour.toObject().value(QStringLiteral("success")).toInteger();
            billed += Money::parse(hour.toObject().value(QStringLiteral("bill_amount")).toString()).value_or(-1);
        }
        QCOMPARE(success, 2);
        QCOMPARE(billed, Paise(44800));
        QVERIFY(hours.at(sold.time().hour()).toObject().value(QStringLiteral("success")).toInteger() > 0);
        const QJsonObject wallet = r.data().value(QStringLiteral("wallet")).toObject();
        QCOMPARE(Money::parse(wallet.value(QStringLiteral("closing")).toString()).value_or(-1), balance());
    }
};

QTEST_GUILESS_MAIN(TestSalesApi)
#include "tst_salesapi.moc"
