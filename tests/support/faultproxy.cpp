#include "faultproxy.h"

#include <QTcpSocket>
#include <QTimer>

namespace {

/// Length in bytes of the first complete HTTP/1.1 message (head, then a body of Content-Length bytes, none when
/// absent) at the start of `buffer`; 0 while it is incomplete; -1 when it cannot be framed that way
/// (Transfer-Encoding, a malformed Content-Length). HttpFramingTracker (backend/http) follows request framing but
/// neither reports where a request ends nor frames responses, which the proxy needs both.
qsizetype completeMessageLength(const QByteArray &buffer)
{
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return 0;
    qint64 contentLength = 0;
    const QList<QByteArray> lines = buffer.left(headEnd).split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray &line = lines.at(i);
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QByteArray name = line.left(colon).trimmed().toLower();
        if (name == "transfer-encoding")
            return -1;
        if (name == "content-length") {
            bool ok = false;
            contentLength = line.mid(colon + 1).trimmed().toLongLong(&ok);
            if (!ok || contentLength < 0)
                return -1;
        }
    }
    const qsizetype bodyStart = headEnd + 4;
    return buffer.size() - bodyStart >= contentLength ? bodyStart + qsizetype(contentLength) : 0;
}

QByteArray badGatewayResponse()
{
    const QByteArray body = "<html><body><h1>502 Bad Gateway</h1>fault proxy</body></html>";
    return "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: " + QByteArray::number(body.size()) +
           "\r\nConnection: keep-alive\r\n\r\n" + body;
}

} // namespace

/// One client connection and the proxy's connection to the target on its behalf (opened at the first forward).
struct FaultProxy::Session
{
    QTcpSocket *client = nullptr;
    QTcpSocket *upstream = nullptr;
    QByteArray fromClient;
    QByteArray fromUpstream;
    bool busy = false;       ///< a request is held, forwarded or waiting for its response
    bool cut = false;        ///< the current request's response is dropped and the client connection closed
    bool clientGone = false; ///< the client closed; a request in progress still completes at the target
    bool closed = false;
};

FaultProxy::FaultProxy(const QHostAddress &targetHost, quint16 targetPort, QObject *parent)
    : QObject(parent), m_targetHost(targetHost), m_targetPort(targetPort)
{
    connect(&m_server, &QTcpServer::newConnection, this, &FaultProxy::onNewConnection);
}

FaultProxy::~FaultProxy()
{
    const QList<SessionPtr> sessions = m_sessions;
    for (const SessionPtr &session : sessions)
        closeSession(session);
}

bool FaultProxy::listen(QString *error)
{
    if (m_server.listen(QHostAddress::LocalHost, 0))
        return true;
    *error = m_server.errorString();
    return false;
}

QUrl FaultProxy::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port()));
}

void FaultProxy::setTarget(const QHostAddress &host, quint16 port)
{
    m_targetHost = host;
    m_targetPort = port;
}

void FaultProxy::setMode(Mode mode, int delayMs)
{
    m_mode = mode;
    m_delayMs = delayMs;
    if (mode != Mode::Down)
        return;
    const QList<SessionPtr> sessions = m_sessions;
    for (const SessionPtr &session : sessions) {
        if (!session->busy)
            closeSession(session);
    }
}

void FaultProxy::resetCounts()
{
    m_counts.fill(0);
    for (QHash<QByteArray, int> &requests : m_requests)
        requests.clear();
    m_answeredByTarget = 0;
    m_connections = 0;
}

void FaultProxy::onNewConnection()
{
    while (QTcpSocket *client = m_server.nextPendingConnection()) {
        client->setParent(this);
        ++m_connections;
        if (m_mode == Mode::Down) {
            ++m_counts[std::size_t(Mode::Down)];
            client->abort();
            client->deleteLater();
            continue;
        }
        const SessionPtr session = std::make_shared<Session>();
        session->client = client;
        m_sessions.append(session);
        const std::weak_ptr<Session> weak = session;
        connect(client, &QTcpSocket::readyRead, this, [this, weak] {
            if (const SessionPtr s = weak.lock()) {
                s->fromClient += s->client->readAll();
                pump(s);
            }
        });
        connect(client, &QTcpSocket::disconnected, this, [this, weak] {
            if (const SessionPtr s = weak.lock()) {
                s->clientGone = true;
                if (!s->busy)
                    closeSession(s);
            }
        });
    }
}

void FaultProxy::pump(const SessionPtr &session)
{
    while (!session->busy && !session->closed && !session->clientGone) {
        const qsizetype length = completeMessageLength(session->fromClient);
        if (length < 0) {
            closeSession(session);
            return;
        }
        if (length == 0)
            return;
        const QByteArray request = session->fromClient.left(length);
        session->fromClient.remove(0, length);
        const Mode mode = m_mode;
        ++m_counts[std::size_t(mode)];
        // By "METHOD /path" of the request line too.
        ++m_requests[std::size_t(mode)][request.left(request.indexOf(' ', request.indexOf(' ') + 1))];
        switch (mode) {
        case Mode::Down:
            closeSession(session);
            return;
        case Mode::Answer502:
            session->client->write(badGatewayResponse());
            break;
        case Mode::Slow:
            session->busy = true;
            QTimer::singleShot(m_delayMs, this, [this, session, request] { forward(session, request, false); });
            return;
        case Mode::Pass:
        case Mode::CutAfterForward:
            session->busy = true;
            forward(session, request, mode == Mode::CutAfterForward);
            return;
        }
    }
}

void FaultProxy::forward(const SessionPtr &session, const QByteArray &request, bool cut)
{
    if (session->closed)
        return;
    session->cut = cut;
    if (!session->upstream) {
        QTcpSocket *upstream = new QTcpSocket(this);
        session->upstream = upstream;
        const std::weak_ptr<Session> weak = session;
        connect(upstream, &QTcpSocket::readyRead, this, [this, weak] {
            const SessionPtr s = weak.lock();
            if (!s)
                return;
            s->fromUpstream += s->upstream->readAll();
            const qsizetype length = completeMessageLength(s->fromUpstream);
            if (length < 0) {
                closeSession(s);
                return;
            }
            if (length == 0)
                return;
            const QByteArray response = s->fromUpstream.left(length);
            s->fromUpstream.remove(0, length);
            ++m_answeredByTarget;
            if (s->cut) {
                closeSession(s);
                return;
            }
            if (!s->clientGone)
                s->client->write(response);
            finishRequest(s);
        });
        connect(upstream, &QTcpSocket::disconnected, this, [this, weak, upstream] {
            const SessionPtr s = weak.lock();
            if (!s || s->upstream != upstream)
                return;
            if (s->busy) { // the target closed before answering: so does the proxy
                closeSession(s);
                return;
            }
            s->upstream = nullptr; // closed while idle: the next request opens a new connection
            s->fromUpstream.clear();
            upstream->deleteLater();
        });
        connect(upstream, &QTcpSocket::errorOccurred, this, [this, weak, upstream](QAbstractSocket::SocketError) {
            const SessionPtr s = weak.lock();
            if (s && s->upstream == upstream && upstream->state() == QAbstractSocket::UnconnectedState && s->busy)
                closeSession(s);
        });
        upstream->connectToHost(m_targetHost, m_targetPort);
    }
    session->upstream->write(request);
}

void FaultProxy::finishRequest(const SessionPtr &session)
{
    session->busy = false;
    if (session->clientGone)
        closeSession(session);
    else
        pump(session);
}

void FaultProxy::closeSession(const SessionPtr &session)
{
    if (session->closed)
        return;
    session->closed = true;
    m_sessions.removeOne(session);
    for (QTcpSocket *socket : {session->client, session->upstream}) {
        if (!socket)
            continue;
        disconnect(socket, nullptr, this, nullptr);
        socket->abort();
        socket->deleteLater();
    }
    session->client = nullptr;
    session->upstream = nullptr;
}
