#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

class QSocketNotifier;

/// An HTTP/1.1 client on libcurl's multi interface, driven by the event loop of the thread it lives on: curl's
/// sockets are watched by QSocketNotifiers and its timeouts by one QTimer (curl's "multi_socket" API,
/// https://curl.se/libcurl/c/libcurl-multi.html), so a call needs no thread of its own and no thread hop, and an
/// answer's status line and headers are read in one `read()` rather than byte by byte.
///
/// It serves the upstream's calls (UpstreamClient), the shop's most frequent outgoing requests: with
/// QNetworkAccessManager they cost a live sale about three sandbox sales of CPU (docs/benchmarks.md,
/// "Upstream chain"). What it guarantees for money (issue 26, "send once"): a Request with
/// `freshConnection` goes out on a new connection that is closed after it, and libcurl re-sends a request by itself
/// only on a re-used connection that died before any answer, so such a request leaves this process at most once.
///
/// Only http and https; redirects are never followed; environment proxies (http_proxy, …) are not used; https checks
/// the peer's certificate and name against the system trust store (Debian's /etc/ssl/certs). Not thread-safe: use it
/// on its own thread only.
class CurlClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CurlClient)

public:
    /// One request.
    struct Request
    {
        QByteArray method = "GET"; ///< "GET" or "POST" (with `body`)
        QByteArray url;            ///< absolute http(s) URL, encoded
        QByteArray body;           ///< sent with POST, with a Content-Length
        /// Extra header lines, "Name: value" each (Content-Type among them for a body).
        QList<QByteArray> headers;
        int timeoutMs = 30'000;       ///< the whole call, connect to last byte; past it: no answer
        qint64 maxAnswerBytes = 0;    ///< a longer answer body is cut off (Response::tooLarge); 0: no limit
        bool freshConnection = false; ///< a connection of its own, closed after: sent at most once (see class)
    };

    /// What came back.
    struct Response
    {
        int httpStatus = 0;    ///< 0 when no complete HTTP answer arrived
        QByteArray body;       ///< the answer's body (empty when httpStatus is 0)
        QString error;         ///< empty when an answer arrived; else what went wrong, in words
        bool timedOut = false; ///< no complete answer within Request::timeoutMs
        bool tooLarge = false; ///< the body was longer than Request::maxAnswerBytes
        QList<std::pair<QByteArray, QByteArray>> headers; ///< the final answer's header fields, names as sent

        /// The value of the first header named @p name (ASCII case-insensitive), trimmed; empty when absent.
        QByteArray header(QByteArrayView name) const;
    };

    using Done = std::function<void(Response response)>;

    /// `maxConnectionsPerHost`: connections open at once to one host (more calls wait for one); the same number
    /// of idle keep-alive connections is kept for re-use.
    explicit CurlClient(int maxConnectionsPerHost, QObject *parent = nullptr);
    ~CurlClient() override;

    /// Starts @p request; @p done runs on this thread, exactly once, never before send() returns (also when the
    /// request cannot start: an unusable URL answers httpStatus 0 with the error). Destroying the client drops the
    /// calls still running without calling their `done`.
    void send(Request request, Done done);

    /// Calls started and not yet done.
    int running() const { return int(m_transfers.size()); }

private:
    struct Transfer;
    struct SocketWatch;

    static int onSocket(void *easy, int socket, int what, void *client, void *socketData);
    static int onTimer(void *multi, long timeoutMs, void *client);
    static std::size_t onBody(char *data, std::size_t size, std::size_t count, void *transfer);
    static std::size_t onHeader(char *data, std::size_t size, std::size_t count, void *transfer);

    /// Tells curl that @p socket is ready (`events` CURL_CSELECT_*) or, with CURL_SOCKET_TIMEOUT, that its timer ran
    /// out; then hands every finished call its answer.
    void act(int socket, int events);
    void finishDone();
    void watch(int socket, int what);
    void *easyHandle();

    void *m_multi = nullptr;
    QTimer m_timer;
    QHash<int, SocketWatch *> m_watches; ///< by socket; a watch is kept (disabled) for re-use after curl drops it
    std::vector<std::unique_ptr<Transfer>> m_transfers;
    std::vector<void *> m_idleEasy; ///< easy handles of finished calls, reset and re-used
};
