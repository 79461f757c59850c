#pragma once

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QTcpServer>
#include <QUrl>

#include <array>
#include <memory>

/// A TCP proxy on 127.0.0.1, port 0, in front of one HTTP/1.1 server (the distributor of the chain tests), that
/// injects the faults a shop meets on the way to its upstream (issue 11, "Tests"). It lives in the test's thread
/// and works while the test spins an event loop (HttpClient, QTRY_*).
///
/// The proxy frames HTTP/1.1 requests and responses by Content-Length (what the shop's client and QHttpServer
/// send; chunked bodies are not supported and close the connection), so several requests on one keep-alive
/// connection are handled one after the other, each under the mode in force when it arrived.
class FaultProxy final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FaultProxy)

public:
    enum class Mode
    {
        Pass,           ///< forward each request and relay its response
        Down,           ///< accept and close at once: new connections and requests on open ones get no answer
        Slow,           ///< hold each request delayMs before forwarding (forwarded even if the client gave up)
        Answer502,      ///< answer `HTTP/1.1 502 Bad Gateway` without forwarding
        CutAfterForward ///< forward, wait for the complete response (the target has committed), then close the
                        ///< client connection without sending any of it
    };

    /// Forwards to targetHost:targetPort once listen() succeeded; starts in Mode::Pass.
    FaultProxy(const QHostAddress &targetHost, quint16 targetPort, QObject *parent = nullptr);
    ~FaultProxy() override;

    /// Listens on 127.0.0.1, port 0. False with *error set when it cannot.
    bool listen(QString *error);
    /// http://127.0.0.1:<port>.
    QUrl url() const;
    quint16 port() const { return m_server.serverPort(); }
    /// Points later connections at another target (e.g. a restarted server on a new port).
    void setTarget(const QHostAddress &host, quint16 port);

    /// Switches the mode for requests arriving from now on; delayMs is the hold time of Mode::Slow (ms).
    /// Entering Down also closes every open client connection that has no request in progress.
    void setMode(Mode mode, int delayMs = 0);
    Mode mode() const { return m_mode; }

    /// Requests (for Down: requests and connections turned away) that arrived while `mode` was in force.
    int count(Mode mode) const { return m_counts.at(std::size_t(mode)); }
    /// count(mode) of the requests whose request line is `methodAndPath` ("POST /api/v1/recharge/mobile/…"): the
    /// sales, apart from what else the shop asks (its read of the upstream's OpenAPI document, say).
    int count(Mode mode, const QByteArray &methodAndPath) const
    {
        return m_requests.at(std::size_t(mode)).value(methodAndPath);
    }
    /// Requests whose complete response came back from the target (the target answered them).
    int answeredByTarget() const { return m_answeredByTarget; }
    /// Client connections accepted (Down's included).
    int connections() const { return m_connections; }
    /// Sets every count to zero.
    void resetCounts();

private:
    struct Session;
    using SessionPtr = std::shared_ptr<Session>;

    void onNewConnection();
    void pump(const SessionPtr &session);
    void forward(const SessionPtr &session, const QByteArray &request, bool cut);
    void finishRequest(const SessionPtr &session);
    void closeSession(const SessionPtr &session);

    QTcpServer m_server;
    QHostAddress m_targetHost;
    quint16 m_targetPort;
    Mode m_mode = Mode::Pass;
    int m_delayMs = 0;
    std::array<int, 5> m_counts{};                    ///< by Mode
    std::array<QHash<QByteArray, int>, 5> m_requests; ///< by Mode, then by "METHOD /path"
    int m_answeredByTarget = 0;
    int m_connections = 0;
    QList<SessionPtr> m_sessions;
};
