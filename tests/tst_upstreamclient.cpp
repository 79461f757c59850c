#include "clock.h"
#include "upstream/upstreamclient.h"

#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QLocale>
#include <QTest>

#include <optional>

namespace {

/// An upstream on port 0 that answers every request from a canned answer and keeps what it was sent.
class CannedUpstream
{
public:
    CannedUpstream()
    {
        m_http.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            paths.append(request.url().path());
            headers.append(request.headers());
            QHttpServerResponse response(answerBody, QHttpServerResponder::StatusCode(answerStatus));
            for (const auto &[name, value] : answerHeaders)
                response.setHeader(name, value);
            response.write(std::move(responder));
        });
        m_port = m_http.listen(QHostAddress::LocalHost, 0);
    }

    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1/api/v1").arg(m_port); }
    quint16 port() const { return m_port; }
    /// The value of header @p name in request @p index (case-insensitive name).
    QByteArray header(qsizetype index, const QByteArray &name) const
    {
        for (const auto &[key, value] : headers.value(index)) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return value;
        }
        return QByteArray();
    }

    int answerStatus = 200;
    QByteArray answerBody = R"({"data":{}})";
    QList<std::pair<QByteArray, QByteArray>> answerHeaders{{"Content-Type", "application/json"}};
    QStringList paths;
    QList<QList<std::pair<QByteArray, QByteArray>>> headers;

private:
    QHttpServer m_http;
    quint16 m_port = 0;
};

UpstreamSettings settingsFor(const QString &baseUrl)
{
    UpstreamSettings settings;
    settings.baseUrl = baseUrl;
    settings.credential = QStringLiteral("dashboard-credential-1");
    return settings;
}

/// An HTTP-date (IMF-fixdate) of @p at.
QByteArray httpDate(const QDateTime &at)
{
    return QLocale::c().toString(at.toUTC(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'")).toLatin1();
}

} // namespace

/// The one upstream client (issue 26, "One upstream client"): how it reads an upstream's words and errors, Retry-After
/// (RFC 9110), where a location given by the upstream may be fetched, and the request it sends.
class TestUpstreamClient : public QObject
{
    Q_OBJECT

private:
    const QDateTime m_now{QDate(2025, 1, 15), QTime(10, 0), Qt::UTC};

    /// Sends @p request through a client and waits for its answer.
    static UpstreamAnswer sent(UpstreamClient &client, const UpstreamSettings &settings,
                               const UpstreamClient::Request &request)
    {
        std::optional<UpstreamAnswer> answer;
        client.send(settings, request, [&answer](const UpstreamAnswer &a) { answer = a; });
        if (answer)
            qFatal("send() answered before it returned");
        if (!QTest::qWaitFor([&answer] { return answer.has_value(); }, 10'000))
            qFatal("no answer");
        return *answer;
    }

private slots:
    void words_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("words");
        QTest::newRow("RechargeDesk envelope")
            << QByteArray(R"({"error":{"code":"BAD_REQUEST_ERROR","description":"amount too large","reason":"x"}})")
            << QStringLiteral("amount too large");
        QTest::newRow("error.message") << QByteArray(R"({"error":{"message":"Operator down"}})")
                                       << QStringLiteral("Operator down");
        QTest::newRow("aggregator status+message")
            << QByteArray(R"({"status":"FAILURE","message":"Invalid captcha"})") << QStringLiteral("Invalid captcha");
        QTest::newRow("msg") << QByteArray(R"({"status":false,"msg":"Recharge not allowed"})")
                             << QStringLiteral("Recharge not allowed");
        QTest::newRow("description") << QByteArray(R"({"description":"Insufficient balance"})")
                                     << QStringLiteral("Insufficient balance");
        QTest::newRow("error as a string")
            << QByteArray(R"({"error":"Invalid API key"})") << QStringLiteral("Invalid API key");
        QTest::newRow("description before message")
            << QByteArray(R"({"message":"second","error":{"description":"first"}})") << QStringLiteral("first");
        QTest::newRow("white space folded")
            << QByteArray("{\"message\":\"  Invalid \\n  OTP \"}") << QStringLiteral("Invalid OTP");
        QTest::newRow("plain text") << QByteArray("Service temporarily unavailable\r\n")
                                    << QStringLiteral("Service temporarily unavailable");
        QTest::newRow("HTML page") << QByteArray("<html><body><h1>503 Service Unavailable</h1></body></html>")
                                   << QString();
        QTest::newRow("JSON without words") << QByteArray(R"({"status":"FAILURE","code":17})") << QString();
        QTest::newRow("empty") << QByteArray() << QString();
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\x00\x01", 10) << QString();
        QTest::newRow("long plain text") << QByteArray(301, 'a') << QString();
        QTest::newRow("long message cut")
            << QByteArray(R"({"message":")" + QByteArray(400, 'b') + R"("})") << QString(300, QLatin1Char('b'));
    }

    void words()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, words);
        QCOMPARE(UpstreamAnswer::words(body), words);
        QCOMPARE(UpstreamError::of(body).words, words);
    }

    void errorEnvelope()
    {
        const UpstreamError envelope = UpstreamError::of(
            R"({"error":{"code":"BAD_REQUEST_ERROR","description":"wrong","field":"captcha_value","reason":"captcha_mismatch"}})");
        QVERIFY(envelope.isEnvelope());
        QCOMPARE(envelope.code, QStringLiteral("BAD_REQUEST_ERROR"));
        QCOMPARE(envelope.reason, QStringLiteral("captcha_mismatch"));
        QCOMPARE(envelope.words, QStringLiteral("wrong"));

        const UpstreamError own = UpstreamError::of(R"({"status":"FAILURE","message":"Invalid captcha"})");
        QVERIFY(!own.isEnvelope());
        QVERIFY(own.code.isEmpty() && own.reason.isEmpty());
        QCOMPARE(own.words, QStringLiteral("Invalid captcha"));

        QVERIFY(!UpstreamError::of(R"({"error":{"message":"no code nor reason"}})").isEnvelope());
    }

    // A refusal in the upstream's own format is a refusal with its words, never an unreadable answer.
    void verdictKeepsTheWords()
    {
        UpstreamAnswer answer;
        answer.httpStatus = 400;
        answer.body = R"({"status":"FAILURE","message":"Recharge not allowed for this number"})";
        const UpstreamVerdict refused = UpstreamVerdict::of(answer);
        QCOMPARE(refused.kind, UpstreamVerdict::Kind::Refused);
        QCOMPARE(refused.errorCode, QStringLiteral("http_400"));
        QCOMPARE(refused.errorDescription, QStringLiteral("Recharge not allowed for this number"));

        answer.body = R"({"error":{"code":"BAD_REQUEST_ERROR","description":"no","reason":"amount_out_of_range"}})";
        QCOMPARE(UpstreamVerdict::of(answer).errorCode, QStringLiteral("amount_out_of_range"));

        answer.httpStatus = 503;
        answer.body = "Upstream maintenance";
        const UpstreamVerdict unknown = UpstreamVerdict::of(answer);
        QCOMPARE(unknown.kind, UpstreamVerdict::Kind::Unknown);
        QVERIFY2(unknown.errorDescription.endsWith(QStringLiteral("(it said: Upstream maintenance)")),
                 qPrintable(unknown.errorDescription));
    }

    void parseRetryAfter_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("seconds"); // -1: nullopt
        QTest::newRow("seconds") << QByteArray("120") << qint64(120);
        QTest::newRow("zero") << QByteArray("0") << qint64(0);
        QTest::newRow("blanks around") << QByteArray(" 7 ") << qint64(7);
        QTest::newRow("huge") << QByteArray("99999999999999999999999") << qint64(1'000'000'000);
        QTest::newRow("IMF-fixdate") << httpDate(m_now.addSecs(90)) << qint64(90);
        QTest::newRow("IMF-fixdate past") << httpDate(m_now.addSecs(-90)) << qint64(0);
        QTest::newRow("RFC 850") << QByteArray("Wednesday, 15-Jan-25 10:02:00 GMT") << qint64(120);
        QTest::newRow("asctime") << QByteArray("Wed Jan 15 10:00:30 2025") << qint64(30);
        QTest::newRow("asctime one-digit day") << QByteArray("Thu Jan  2 10:00:00 2025") << qint64(0);
        QTest::newRow("RFC 2822 numeric offset") << QByteArray("Wed, 15 Jan 2025 15:31:00 +0530") << qint64(60);
        QTest::newRow("empty") << QByteArray() << qint64(-1);
        QTest::newRow("negative") << QByteArray("-5") << qint64(-1);
        QTest::newRow("plus") << QByteArray("+5") << qint64(-1);
        QTest::newRow("fraction") << QByteArray("1.5") << qint64(-1);
        QTest::newRow("words") << QByteArray("soon") << qint64(-1);
        QTest::newRow("bad date") << QByteArray("Wed, 32 Jan 2025 10:00:00 GMT") << qint64(-1);
    }

    void parseRetryAfter()
    {
        QFETCH(QByteArray, value);
        QFETCH(qint64, seconds);
        const std::optional<qint64> parsed = UpstreamAnswer::parseRetryAfter(value, m_now);
        QCOMPARE(parsed.value_or(-1), seconds);
    }

    void onUpstreamHost_data()
    {
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("location");
        QTest::addColumn<QString>("url"); // empty: refused
        const QString base = QStringLiteral("http://127.0.0.1:8080/api/v1");
        QTest::newRow("URL outside /api/v1") << base << QStringLiteral("http://127.0.0.1:8080/captcha/ab12.png")
                                             << QStringLiteral("http://127.0.0.1:8080/captcha/ab12.png");
        QTest::newRow("URL under /api/v1")
            << base << QStringLiteral("http://127.0.0.1:8080/api/v1/uidai/aadhaar-authentication/captcha/x.png")
            << QStringLiteral("http://127.0.0.1:8080/api/v1/uidai/aadhaar-authentication/captcha/x.png");
        QTest::newRow("URL with query") << base << QStringLiteral("http://127.0.0.1:8080/img?id=7&s=2")
                                        << QStringLiteral("http://127.0.0.1:8080/img?id=7&s=2");
        QTest::newRow("scheme and host in capitals")
            << base << QStringLiteral("HTTP://127.0.0.1:8080/c.png") << QStringLiteral("http://127.0.0.1:8080/c.png");
        QTest::newRow("fragment dropped") << base << QStringLiteral("http://127.0.0.1:8080/c.png#top")
                                          << QStringLiteral("http://127.0.0.1:8080/c.png");
        QTest::newRow("path from the host's root")
            << base << QStringLiteral("/captcha/ab12.png") << QStringLiteral("http://127.0.0.1:8080/captcha/ab12.png");
        QTest::newRow("path under the base URL") << base << QStringLiteral("captcha/ab12.png")
                                                 << QStringLiteral("http://127.0.0.1:8080/api/v1/captcha/ab12.png");
        QTest::newRow("default port written")
            << QStringLiteral("https://agg.example/api/v1") << QStringLiteral("https://agg.example:443/c.png")
            << QStringLiteral("https://agg.example:443/c.png");
        QTest::newRow("default port left out")
            << QStringLiteral("https://agg.example:443/api/v1") << QStringLiteral("https://agg.example/c.png")
            << QStringLiteral("https://agg.example/c.png");
        QTest::newRow("another port") << base << QStringLiteral("http://127.0.0.1:8081/c.png") << QString();
        QTest::newRow("another host") << base << QStringLiteral("http://localhost:8080/c.png") << QString();
        QTest::newRow("another scheme") << base << QStringLiteral("https://127.0.0.1:8080/c.png") << QString();
        QTest::newRow("scheme-relative elsewhere") << base << QStringLiteral("//cdn.example/c.png") << QString();
        QTest::newRow("user info") << base << QStringLiteral("http://u:p@127.0.0.1:8080/c.png") << QString();
        QTest::newRow("data URL") << base << QStringLiteral("data:image/png;base64,iVBORw0KGgo=") << QString();
        QTest::newRow("javascript") << base << QStringLiteral("javascript:alert(1)") << QString();
        QTest::newRow("empty") << base << QString() << QString();
        QTest::newRow("blank") << base << QStringLiteral("  ") << QString();
    }

    void onUpstreamHost()
    {
        QFETCH(QString, baseUrl);
        QFETCH(QString, location);
        QFETCH(QString, url);
        const std::optional<QUrl> resolved = UpstreamClient::onUpstreamHost(settingsFor(baseUrl), location);
        QCOMPARE(resolved ? resolved->toString() : QString(), url);
    }

    // One request set-up for every caller: the credential verbatim, extra headers, the answer's ETag and Retry-After.
    void sendSetsUpTheRequestAndReadsTheAnswer()
    {
        CannedUpstream upstream;
        ManualClock clock(m_now);
        UpstreamClient client(clock, 5000);
        const UpstreamSettings settings = settingsFor(upstream.baseUrl());
        upstream.answerStatus = 429;
        upstream.answerBody = R"({"status":"error","message":"Too many requests"})";
        upstream.answerHeaders = {
            {"Content-Type", "application/json"}, {"ETag", "\"v7\""}, {"Retry-After", httpDate(m_now.addSecs(42))}};

        UpstreamClient::Request request;
        request.method = "POST";
        request.url = settings.url(QStringLiteral("/plans/mobile/prepaid-plans"));
        request.body = R"({"operator_code":"AT","circle_code":"DL"})";
        request.headers = {{"If-None-Match", "\"v6\""}};
        const UpstreamAnswer answer = sent(client, settings, request);
        QCOMPARE(answer.httpStatus, 429);
        QCOMPARE(answer.etag, QByteArray("\"v7\""));
        QCOMPARE(answer.retryAfterSeconds.value_or(-1), 42);
        QCOMPARE(UpstreamError::of(answer.body).words, QStringLiteral("Too many requests"));

        QCOMPARE(upstream.paths, QStringList{QStringLiteral("/api/v1/plans/mobile/prepaid-plans")});
        QCOMPARE(upstream.header(0, "Authorization"), QByteArray("Basic dashboard-credential-1"));
        QCOMPARE(upstream.header(0, "If-None-Match"), QByteArray("\"v6\""));
        QCOMPARE(upstream.header(0, "Content-Type"), QByteArray("application/json"));

        // call() goes the same way.
        upstream.answerHeaders = {{"Content-Type", "application/json"}, {"Retry-After", "3"}};
        std::optional<UpstreamAnswer> called;
        client.call(settings, "GET", QStringLiteral("/x"), {}, [&called](const UpstreamAnswer &a) { called = a; });
        QTRY_VERIFY(called.has_value());
        QCOMPARE(called->retryAfterSeconds.value_or(-1), 3);
        QCOMPARE(upstream.header(1, "Authorization"), QByteArray("Basic dashboard-credential-1"));
    }

    // A location on another host is never sent to (the key would go with it); the refusal still comes asynchronously.
    void sendRefusesAnotherHost()
    {
        CannedUpstream upstream;
        CannedUpstream stranger;
        ManualClock clock(m_now);
        UpstreamClient client(clock, 5000);
        UpstreamClient::Request request;
        request.url = QUrl(QStringLiteral("http://localhost:%1/captcha.png").arg(stranger.port()));
        const UpstreamAnswer answer = sent(client, settingsFor(upstream.baseUrl()), request);
        QCOMPARE(answer.httpStatus, 0);
        QVERIFY2(answer.networkError.contains(QStringLiteral("not on the upstream's own host")),
                 qPrintable(answer.networkError));
        QVERIFY(stranger.paths.isEmpty());
        QVERIFY(upstream.paths.isEmpty());
    }

    void answersLargerThanTheLimitAreNoAnswer()
    {
        CannedUpstream upstream;
        ManualClock clock(m_now);
        UpstreamClient client(clock, 5000);
        client.setMaxAnswerBytes(1000);
        const UpstreamSettings settings = settingsFor(upstream.baseUrl());
        UpstreamClient::Request request;
        request.url = settings.url(QStringLiteral("/big"));

        upstream.answerBody = QByteArray(1000, 'x');
        const UpstreamAnswer fits = sent(client, settings, request);
        QCOMPARE(fits.httpStatus, 200);
        QVERIFY(!fits.tooLarge);
        QCOMPARE(fits.body.size(), 1000);

        upstream.answerBody = QByteArray(200'000, 'x');
        const UpstreamAnswer big = sent(client, settings, request);
        QVERIFY(big.tooLarge);
        QCOMPARE(big.httpStatus, 0);
        QVERIFY(big.body.isEmpty());
        QVERIFY2(big.networkError.contains(QStringLiteral("larger than 1000 bytes")), qPrintable(big.networkError));
    }
};

QTEST_GUILESS_MAIN(TestUpstreamClient)
#include "tst_upstreamclient.moc"
