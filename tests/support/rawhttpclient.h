#pragma once

#include "rawexchangelog.h"

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QTcpSocket>

/// One HTTP/1.1 response read off a raw socket (framed by Content-Length).
struct RawHttpResponse
{
    int status = 0;
    QList<QByteArray> headerLines;
    QByteArray body;

    /// A header's value by case-insensitive name (empty when absent).
    QByteArray header(QByteArrayView name) const;
};

/// Removes one complete response from the front of `buffer` into `out`; false while it is incomplete.
bool takeRawResponse(QByteArray &buffer, RawHttpResponse &out);

/// One HTTP/1.1 request read off a raw socket (framed by Content-Length), for servers written on raw TCP.
struct RawHttpRequest
{
    QByteArray requestLine; ///< "POST /x HTTP/1.1"
    QList<QByteArray> headerLines;
    QByteArray body;
    QByteArray bytes; ///< the request as received

    /// A header's value by case-insensitive name (empty when absent).
    QByteArray header(QByteArrayView name) const;
};

/// Removes one complete request from the front of `buffer` into `out`; false while it is incomplete.
bool takeRawRequest(QByteArray &buffer, RawHttpRequest &out);

/// A request head with Host and Content-Length, plus Content-Type and Authorization when given.
QByteArray rawRequestHead(QByteArrayView method, QByteArrayView target, qint64 contentLength,
                          QByteArrayView contentType, QByteArrayView authorization = {});

/// A raw client socket for tests of the HTTP framing layer: sends exactly the bytes given and collects everything
/// the server sends, even if the connection is later reset. Waits spin the event loop (the server may run in the
/// same thread) for at most timeoutMs.
class RawHttpClient
{
public:
    /// Connects to 127.0.0.1:port, from `source` when given (any 127.x.y.z works on Linux, e.g. 127.0.0.2, to look
    /// like another client address).
    explicit RawHttpClient(quint16 port, const QHostAddress &source = QHostAddress(), int timeoutMs = 10'000);
    /// Records the complete answers not taken by waitForResponse() (see RawExchangeLog).
    ~RawHttpClient();
    Q_DISABLE_COPY_MOVE(RawHttpClient)

    bool waitForConnected() { return m_socket.waitForConnected(m_timeoutMs); }
    QTcpSocket &socket() { return m_socket; }
    /// Sends `bytes` as they are (and follows them in the exchange log).
    void send(QByteArrayView bytes);

    /// Sends up to `bytes` filler bytes (e.g. a body after its head) in 64 KiB steps, never queueing much, until
    /// they are all sent, a complete response arrived or the connection closed; returns how many were sent.
    qint64 streamUntilAnswered(qint64 bytes);
    /// Waits for and removes the next complete response (recorded for api_contract, see RawExchangeLog).
    bool waitForResponse(RawHttpResponse &out);
    /// Waits until the server closed the connection.
    bool waitForServerClose();
    /// True when a complete response has arrived (without removing it).
    bool hasCompleteResponse() const;
    /// Everything received and not yet taken by waitForResponse().
    const QByteArray &received() const { return m_received; }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
    RawExchangeLog m_log;
    int m_timeoutMs;
};
