#include "tlstestsupport.h"

#include "testserver.h"
#include "tls/tlsidentity.h"

#include <QSslConfiguration>
#include <QTest>

ServerOptions tlsServerOptions(const QString &dataDir, QSslCertificate *certificate, const QStringList &names)
{
    TlsIdentity identity;
    bool created = false;
    QString error;
    if (!TlsIdentity::loadOrCreate(dataDir, names, &identity, &created, &error))
        qFatal("test TLS identity: %s", qPrintable(error));
    ServerOptions options = TestServer::defaultOptions();
    options.tls = identity.serverConfiguration();
    if (certificate)
        *certificate = identity.certificate();
    return options;
}

QString unrelatedFingerprint()
{
    return QStringLiteral(
        "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF");
}

ApiResult getThrough(ApiClient &api, const QString &path)
{
    std::optional<ApiResult> answer;
    ApiCall *call = api.get(path);
    QObject::connect(call, &ApiCall::finished, &api, [&answer](const ApiResult &result) { answer = result; });
    if (!QTest::qWaitFor([&answer] { return answer.has_value(); }, 15'000))
        qWarning("no answer within 15 s");
    return answer.value_or(ApiResult{});
}

TlsRawClient::TlsRawClient(quint16 port, const QSslCertificate &trusted)
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setCaCertificates({trusted});
    m_socket.setSslConfiguration(configuration);
    QObject::connect(&m_socket, &QIODevice::readyRead, &m_socket, [this] { m_received += m_socket.readAll(); });
    m_socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
}

TlsRawClient::~TlsRawClient()
{
    m_log.answeredAll(m_received);
}

void TlsRawClient::send(const QByteArray &bytes)
{
    m_log.sent(bytes);
    m_socket.write(bytes);
}

bool TlsRawClient::waitForEncrypted()
{
    return QTest::qWaitFor(
               [this] { return m_socket.isEncrypted() || m_socket.state() == QAbstractSocket::UnconnectedState; },
               10'000) &&
           m_socket.isEncrypted();
}

QByteArray TlsRawClient::receiveUntilClosed()
{
    if (!QTest::qWaitFor([this] { return m_socket.state() == QAbstractSocket::UnconnectedState; }, 10'000))
        qWarning("TlsRawClient: the server did not close the connection within 10 s");
    return m_received;
}

bool TlsRawClient::waitFor(const QByteArray &text)
{
    return QTest::qWaitFor([&] { return m_received.contains(text); }, 10'000);
}

QByteArray TlsRawClient::receiveResponse()
{
    const auto complete = [this] {
        const qsizetype headEnd = m_received.indexOf("\r\n\r\n");
        if (headEnd < 0)
            return false;
        qint64 length = 0;
        for (const QByteArray &line : m_received.first(headEnd).split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        return m_received.size() >= headEnd + 4 + length;
    };
    if (!QTest::qWaitFor(complete, 10'000))
        qWarning("TlsRawClient: no complete response within 10 s");
    return m_received;
}
