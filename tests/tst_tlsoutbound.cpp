// Issue 12: the server's own outgoing HTTPS — calls to the upstream and webhook deliveries — checks certificates
// against the system trust store. A server with a self-signed certificate nobody trusts (here: one on 127.0.0.1
// that would gladly answer 200) must never get the request, and the outcome is "unknown" / a failed delivery.

#include "clock.h"
#include "http/limitedtcpserver.h"
#include "testserver.h"
#include "tls/tlsidentity.h"
#include "tlstestsupport.h"
#include "upstream/upstreamclient.h"

#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

namespace {

/// An HTTPS server on 127.0.0.1 with a freshly made self-signed certificate that no trust store knows. It answers
/// every POST /hook and GET /api/v1/status with 200 and counts what reached it.
class UntrustedHttpsServer
{
public:
    UntrustedHttpsServer()
    {
        TlsIdentity identity;
        bool created = false;
        QString error;
        if (!TlsIdentity::loadOrCreate(m_home.path(), {QStringLiteral("127.0.0.1")}, &identity, &created, &error))
            qFatal("%s", qPrintable(error));
        m_http.route(QStringLiteral("/hook"), QHttpServerRequest::Method::Post, [this] {
            ++m_requests;
            return QHttpServerResponse(QJsonObject{{QStringLiteral("ok"), true}});
        });
        m_http.route(QStringLiteral("/api/v1/status"), QHttpServerRequest::Method::Get, [this] {
            ++m_requests;
            return QHttpServerResponse(
                QJsonObject{{QStringLiteral("data"),
                             QJsonObject{{QStringLiteral("transaction_id"), 7},
                                         {QStringLiteral("transaction_status"), QStringLiteral("SUCCESS")}}}});
        });
        auto *tcp = new LimitedTcpServer();
        tcp->setTlsConfiguration(identity.serverConfiguration());
        if (!tcp->listen(QHostAddress::LocalHost, 0))
            qFatal("cannot listen");
        m_port = tcp->serverPort();
        m_http.bind(tcp);
    }

    QString url(const QString &path) const { return QStringLiteral("https://127.0.0.1:%1%2").arg(m_port).arg(path); }
    int requests() const { return m_requests; }

private:
    QTemporaryDir m_home;
    QHttpServer m_http;
    quint16 m_port = 0;
    int m_requests = 0;
};

/// One request over TLS to a server whose certificate is `trusted`; returns the JSON body of the answer.
QJsonObject tlsRequest(quint16 port, const QSslCertificate &trusted, const QByteArray &method, const QByteArray &path,
                       const QByteArray &auth)
{
    TlsRawClient client(port, trusted);
    if (!client.waitForEncrypted())
        return {};
    client.send(method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + auth +
                "\r\nContent-Length: 0\r\n\r\n");
    const QByteArray response = client.receiveResponse();
    return QJsonDocument::fromJson(response.mid(response.indexOf("\r\n\r\n") + 4)).object();
}

/// The first delivery attempt in a GET /api/v1/webhook-deliveries answer's data (empty when there is none).
QJsonObject firstDelivery(const QJsonObject &data)
{
    return data.value(QStringLiteral("items")).toArray().last().toObject();
}

} // namespace

class TestTlsOutbound final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void upstreamWithUntrustedCertificateIsUnknown();
    void webhookToUntrustedCertificateIsNotDelivered();
    void builtInInboxStillReceivesUnderTls();
};

void TestTlsOutbound::upstreamWithUntrustedCertificateIsUnknown()
{
    UntrustedHttpsServer stranger;
    SystemClock clock;
    UpstreamClient client(clock, 5000);
    UpstreamSettings settings;
    settings.baseUrl = stranger.url(QStringLiteral("/api/v1"));
    settings.keyId = QStringLiteral("live_key");
    settings.keySecret = QStringLiteral("secret");
    std::optional<UpstreamAnswer> answer;
    client.call(settings, "GET", QStringLiteral("/status"), {}, [&answer](const UpstreamAnswer &a) { answer = a; });
    QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 10'000);

    QCOMPARE(answer->httpStatus, 0);
    QVERIFY2(!answer->networkError.isEmpty(), "the failed verification is reported");
    QCOMPARE(UpstreamVerdict::of(*answer).kind, UpstreamVerdict::Kind::Unknown);
    QCOMPARE(stranger.requests(), 0); // the request (and its credentials) never reached the impostor
}

void TestTlsOutbound::webhookToUntrustedCertificateIsNotDelivered()
{
    UntrustedHttpsServer stranger;
    ServerOptions options = TestServer::defaultOptions();
    options.webhookRetryScale = 0.0005;
    TestServer server(options);
    const HttpResult endpoint = server.http().send(
        "PUT", server.url(QStringLiteral("/api/v1/webhook-endpoint")),
        R"({"url":")" + stranger.url(QStringLiteral("/hook")).toUtf8() + R"(","webhook_password":"pw-123"})",
        {{"Authorization", server.admin()}, {"Content-Type", "application/json"}});
    QVERIFY2(endpoint.status == 201 || endpoint.status == 200, endpoint.body.constData());
    QCOMPARE(
        server.http().postJson(server.url(QStringLiteral("/api/v1/webhook-endpoint/test")), {}, server.admin()).status,
        202);

    const auto deliveries = [&server] {
        return server.http().get(server.url(QStringLiteral("/api/v1/webhook-deliveries")), server.admin()).data();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!firstDelivery(deliveries()).isEmpty(), 10'000);
    const QJsonObject first = firstDelivery(deliveries());
    QCOMPARE(first.value(QStringLiteral("success")).toBool(), false);
    QVERIFY(first.value(QStringLiteral("http_status")).isNull());
    QVERIFY2(!first.value(QStringLiteral("error")).toString().isEmpty(), "the failed verification is recorded");
    QCOMPARE(stranger.requests(), 0);
}

void TestTlsOutbound::builtInInboxStillReceivesUnderTls()
{
    // Under serve --tls the test-mode built-in inbox is the server itself: its deliveries trust exactly the
    // server's own (self-signed) certificate, and nothing else changes for other endpoints.
    QTemporaryDir tlsHome;
    QSslCertificate certificate;
    ServerOptions options = tlsServerOptions(tlsHome.path(), &certificate);
    options.webhookRetryScale = 0.0005;
    TestServer server(options);
    const quint16 port = server.server().port();
    const QJsonObject sent = tlsRequest(port, certificate, "POST", "/api/v1/webhook-endpoint/test", server.admin());
    QVERIFY2(sent.contains(QStringLiteral("data")), QJsonDocument(sent).toJson().constData());

    const auto deliveries = [&] {
        return tlsRequest(port, certificate, "GET", "/api/v1/webhook-deliveries", server.admin())
            .value(QStringLiteral("data"))
            .toObject();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!firstDelivery(deliveries()).isEmpty(), 10'000);
    const QJsonObject first = firstDelivery(deliveries());
    QVERIFY2(first.value(QStringLiteral("success")).toBool(), QJsonDocument(first).toJson().constData());
    QVERIFY(first.value(QStringLiteral("url")).toString().startsWith(QStringLiteral("https://127.0.0.1:")));
}

QTEST_MAIN(TestTlsOutbound)
#include "tst_tlsoutbound.moc"
