// Issue 12, "TLS between terminals and the shop server": `serve --tls` over real HTTPS on port 0 — the generated
// certificate (files, permissions, fingerprint, reuse), a given certificate, plain HTTP refused, the size limit
// still enforced under TLS, and GET /api/v1/server/tls.

#include "httpclient.h"
#include "serverprocess.h"
#include "testserver.h"
#include "tls/selfsignedcertificate.h"
#include "tlspin.h"
#include "tlstestsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

/// The fingerprint `serve` printed at start.
QString printedFingerprint(const QString &output)
{
    static const QRegularExpression line(QStringLiteral("SHA-256 fingerprint: ([0-9A-F:]+)"));
    return line.match(output).captured(1);
}

/// The certificate a TLS server on `port` presents (the handshake is allowed to fail verification).
QSslCertificate presentedCertificate(quint16 port)
{
    QSslSocket socket;
    socket.setPeerVerifyMode(QSslSocket::QueryPeer);
    socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForEncrypted(10'000))
        return QSslCertificate();
    return socket.peerCertificate();
}

/// GET path over TLS trusting only `trusted`, with an Authorization header; returns the raw response.
QByteArray tlsGet(quint16 port, const QSslCertificate &trusted, const QByteArray &path, const QByteArray &auth = {})
{
    TlsRawClient client(port, trusted);
    if (!client.waitForEncrypted())
        return {};
    client.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                (auth.isEmpty() ? QByteArray() : "Authorization: " + auth + "\r\n") + "\r\n");
    return client.receiveResponse();
}

QJsonObject jsonBody(const QByteArray &response)
{
    return QJsonDocument::fromJson(response.mid(response.indexOf("\r\n\r\n") + 4)).object();
}

/// The permission bits of `path` (e.g. 0700), as `ls -l` shows them.
unsigned permissionBits(const QString &path)
{
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return 07777;
    return info.st_mode & 07777;
}

} // namespace

class TestTlsServer final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void generatedCertificateIsCreatedOnceAndServed();
    void givenCertificateAndKeyAreServed();
    void badTlsNameIsRefused();
    void plainHttpToTlsPortIsNotServed();
    void oversizeBodyIsRefusedOverTls();
    void capsAndHandshakeTimeoutHoldOverTls();
    void fingerprintRouteShowsTheServedCertificate();
};

void TestTlsServer::generatedCertificateIsCreatedOnceAndServed()
{
    QTemporaryDir dataDir;
    const QString tlsDir = dataDir.filePath(QStringLiteral("tls"));
    ServerProcess server;
    QString error;
    QVERIFY2(server.start(dataDir.path(),
                          {QStringLiteral("--tls"), QStringLiteral("--tls-name"), QStringLiteral("shop-server.lan"),
                           QStringLiteral("--tls-name"), QStringLiteral("127.0.0.1")},
                          &error),
             qPrintable(error));
    QCOMPARE(server.url().scheme(), QStringLiteral("https"));

    // Created with owner-only permissions (the key never readable by anyone else).
    QCOMPARE(permissionBits(tlsDir), 0700u);
    QCOMPARE(permissionBits(tlsDir + QStringLiteral("/server.key")), 0600u);
    QFile certificateFile(tlsDir + QStringLiteral("/server.crt"));
    QVERIFY(certificateFile.open(QIODevice::ReadOnly));
    const QSslCertificate onDisk(certificateFile.readAll(), QSsl::Pem);
    QVERIFY(!onDisk.isNull());
    QCOMPARE(onDisk.subjectAlternativeNames().values(QSsl::DnsEntry), QStringList{QStringLiteral("shop-server.lan")});
    QCOMPARE(onDisk.subjectAlternativeNames().values(QSsl::IpAddressEntry), QStringList{QStringLiteral("127.0.0.1")});
    QVERIFY(onDisk.expiryDate() > QDateTime::currentDateTimeUtc().addYears(9));

    // The printed fingerprint is the served certificate's, in `openssl x509 -fingerprint -sha256` form.
    const QString printed = printedFingerprint(server.startupOutput());
    QCOMPARE(printed.size(), 95);
    const QSslCertificate served = presentedCertificate(server.url().port());
    QCOMPARE(TlsPin::fingerprint(served), printed);
    QCOMPARE(served, onDisk);

    // A client that trusts exactly this certificate gets real answers, host name (IP SAN) checked.
    QVERIFY(tlsGet(server.url().port(), served, "/healthz").startsWith("HTTP/1.1 200"));

    // Restart: the same certificate and key are reused, not regenerated.
    QFile keyFile(tlsDir + QStringLiteral("/server.key"));
    QVERIFY(keyFile.open(QIODevice::ReadOnly));
    const QByteArray keyBefore = keyFile.readAll();
    keyFile.close();
    QCOMPARE(server.terminate(), 0);
    // Loosened in between (a careless copy): the restart makes the key the owner's alone again.
    QVERIFY(QFile::setPermissions(tlsDir + QStringLiteral("/server.key"),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    ServerProcess again;
    QVERIFY2(again.start(dataDir.path(), {QStringLiteral("--tls")}, &error), qPrintable(error));
    QVERIFY(again.startupOutput().contains(QStringLiteral("reused")));
    QCOMPARE(printedFingerprint(again.startupOutput()), printed);
    QCOMPARE(permissionBits(tlsDir + QStringLiteral("/server.key")), 0600u);
    QCOMPARE(TlsPin::fingerprint(presentedCertificate(again.url().port())), printed);
    QVERIFY(keyFile.open(QIODevice::ReadOnly));
    QCOMPARE(keyFile.readAll(), keyBefore);
    again.terminate();
}

void TestTlsServer::givenCertificateAndKeyAreServed()
{
    QTemporaryDir dataDir;
    QTemporaryDir files;
    SelfSignedCertificate pair;
    QString error;
    QVERIFY2(SelfSignedCertificate::generate({QStringLiteral("counter.example")}, &pair, &error), qPrintable(error));
    const QString certificatePath = files.filePath(QStringLiteral("shop.crt"));
    const QString keyPath = files.filePath(QStringLiteral("shop.key"));
    for (const auto &[path, bytes] :
         {std::pair{certificatePath, pair.certificatePem()}, {keyPath, pair.privateKeyPem()}}) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    const QString expected = TlsPin::fingerprint(QSslCertificate(pair.certificatePem(), QSsl::Pem));

    ServerProcess server;
    QVERIFY2(server.start(dataDir.path(),
                          {QStringLiteral("--tls"), QStringLiteral("--tls-cert"), certificatePath,
                           QStringLiteral("--tls-key"), keyPath},
                          &error),
             qPrintable(error));
    QCOMPARE(printedFingerprint(server.startupOutput()), expected);
    QCOMPARE(TlsPin::fingerprint(presentedCertificate(server.url().port())), expected);
    QVERIFY(!QFileInfo::exists(dataDir.filePath(QStringLiteral("tls"))));
    server.terminate();

    // A key that does not belong to the certificate is refused at start, with the files named.
    SelfSignedCertificate other;
    QVERIFY(SelfSignedCertificate::generate({QStringLiteral("other.example")}, &other, &error));
    QFile otherKey(files.filePath(QStringLiteral("other.key")));
    QVERIFY(otherKey.open(QIODevice::WriteOnly));
    otherKey.write(other.privateKeyPem());
    otherKey.close();
    QString output;
    const int exitCode = ServerProcess::runCli({QStringLiteral("serve"), QStringLiteral("--listen"),
                                                QStringLiteral("127.0.0.1:0"), QStringLiteral("--data-dir"),
                                                dataDir.path(), QStringLiteral("--tls"), QStringLiteral("--tls-cert"),
                                                certificatePath, QStringLiteral("--tls-key"), otherKey.fileName()},
                                               &output);
    QCOMPARE(exitCode, 1);
    QVERIFY2(output.contains(QStringLiteral("does not belong to the certificate")), qPrintable(output));
}

void TestTlsServer::badTlsNameIsRefused()
{
    QTemporaryDir dataDir;
    QString output;
    QCOMPARE(ServerProcess::runCli({QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                    QStringLiteral("--data-dir"), dataDir.path(), QStringLiteral("--tls"),
                                    QStringLiteral("--tls-name"), QStringLiteral("shop pc")},
                                   &output),
             1);
    QVERIFY2(output.contains(QStringLiteral("\"shop pc\" is neither a DNS name nor an IP address")),
             qPrintable(output));
    QVERIFY(!QFileInfo::exists(dataDir.filePath(QStringLiteral("tls/server.key"))));
}

void TestTlsServer::plainHttpToTlsPortIsNotServed()
{
    QTemporaryDir tlsHome;
    QSslCertificate certificate;
    TestServer server(tlsServerOptions(tlsHome.path(), &certificate));
    QTcpSocket plain;
    QByteArray received;
    connect(&plain, &QIODevice::readyRead, &plain, [&] { received += plain.readAll(); });
    plain.connectToHost(QHostAddress::LocalHost, server.server().port());
    QVERIFY(plain.waitForConnected(10'000));
    plain.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(plain.state(), QAbstractSocket::UnconnectedState, 10'000);
    QVERIFY2(!received.contains("HTTP/1.1"), received.constData());
    QVERIFY(!received.contains("\"status\""));
}

// Issue 12 (limits before authentication) under TLS: the per-address cap is applied before a handshake costs
// anything, and a client that connects but never starts its handshake is closed at the header timeout.
void TestTlsServer::capsAndHandshakeTimeoutHoldOverTls()
{
    QTemporaryDir tlsHome;
    QSslCertificate certificate;
    ServerOptions options = tlsServerOptions(tlsHome.path(), &certificate);
    options.maxConnectionsPerAddress = 2;
    options.headerTimeoutMs = 1'000;
    TestServer server(options);
    const quint16 port = server.server().port();

    // Alone under the cap, a connection that never says a word can only be closed by the header timeout.
    QTcpSocket silent;
    silent.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(silent.waitForConnected(10'000));
    QTRY_COMPARE_WITH_TIMEOUT(silent.state(), QAbstractSocket::UnconnectedState, 10'000);

    TlsRawClient first(port, certificate);
    TlsRawClient second(port, certificate);
    QVERIFY(first.waitForEncrypted());
    QVERIFY(second.waitForEncrypted());
    TlsRawClient third(port, certificate); // over the cap: closed without a handshake
    QVERIFY(!third.waitForEncrypted());
    QTRY_COMPARE_WITH_TIMEOUT(third.socket().state(), QAbstractSocket::UnconnectedState, 10'000);

    // The two admitted connections still get answers.
    first.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QVERIFY2(first.receiveResponse().startsWith("HTTP/1.1 200"), first.received().constData());
}

void TestTlsServer::oversizeBodyIsRefusedOverTls()
{
    QTemporaryDir tlsHome;
    QSslCertificate certificate;
    TestServer server(tlsServerOptions(tlsHome.path(), &certificate));
    const quint16 port = server.server().port();

    // A body within the limit reaches the API (here: 401 without credentials, from the router, not the guard).
    TlsRawClient small(port, certificate);
    QVERIFY(small.waitForEncrypted());
    small.send("POST /api/v1/wallet HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               "Content-Length: 2\r\n\r\n{}");
    QVERIFY2(small.waitFor("\r\n\r\n"), small.received().constData());
    QVERIFY2(!small.received().startsWith("HTTP/1.1 413"), small.received().constData());

    // One byte over the 64 KiB limit: refused as over plain HTTP, before QHttpServer buffers it.
    TlsRawClient big(port, certificate);
    QVERIFY(big.waitForEncrypted());
    big.send("POST /api/v1/wallet HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             "Content-Length: 65537\r\n\r\n" +
             QByteArray(65537, 'x'));
    const QByteArray response = big.receiveUntilClosed();
    QVERIFY2(response.startsWith("HTTP/1.1 413 Payload Too Large"), response.constData());
    QCOMPARE(jsonBody(response).value(QStringLiteral("error")).toObject().value(QStringLiteral("reason")).toString(),
             QStringLiteral("body_too_large"));
}

void TestTlsServer::fingerprintRouteShowsTheServedCertificate()
{
    QTemporaryDir tlsHome;
    QSslCertificate certificate;
    TestServer server(tlsServerOptions(tlsHome.path(), &certificate));
    QCOMPARE(server.baseUrl().scheme(), QStringLiteral("https"));
    const quint16 port = server.server().port();

    QVERIFY(tlsGet(port, certificate, "/api/v1/server/tls").startsWith("HTTP/1.1 401"));
    const QByteArray response = tlsGet(port, certificate, "/api/v1/server/tls", server.pos());
    QVERIFY2(response.startsWith("HTTP/1.1 200"), response.constData());
    const QJsonObject data = jsonBody(response).value(QStringLiteral("data")).toObject();
    QCOMPARE(data.value(QStringLiteral("tls")).toBool(), true);
    QCOMPARE(data.value(QStringLiteral("fingerprint_sha256")).toString(), TlsPin::fingerprint(certificate));

    // Without --tls the same route says so.
    TestServer plain;
    const HttpResult answer = plain.http().get(plain.url(QStringLiteral("/api/v1/server/tls")), plain.pos());
    QCOMPARE(answer.status, 200);
    QCOMPARE(answer.data().value(QStringLiteral("tls")).toBool(), false);
    QVERIFY(answer.data().value(QStringLiteral("fingerprint_sha256")).isNull());
}

QTEST_MAIN(TestTlsServer)
#include "tst_tlsserver.moc"
