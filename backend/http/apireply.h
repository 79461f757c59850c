#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>

#include <exception>
#include <memory>

class ApiError;
class DatabaseError;
class QHttpServerResponder;
class QTcpSocket;

/// One whole answer as the router writes it: status, Content-Type, extra headers, body.
struct HttpAnswer
{
    int status = 200;
    QByteArray contentType;
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
};

/// Where an ApiReply's answer goes: the QHttpServerResponder of one request on the thread that owns its
/// connection, written either there at once (DirectAnswerTarget) or from the server thread by a message to the
/// connection's HTTP worker thread (HttpWorkerPool).
class AnswerTarget
{
public:
    virtual ~AnswerTarget() = default;
    /// Writes `answer` with `requestId` (X-Request-Id) to the client. True when the client can still get it (it was
    /// connected when written or handed to its thread).
    virtual bool write(const QString &requestId, const HttpAnswer &answer) = 0;
    /// True while the client's connection is open.
    virtual bool isConnected() const = 0;

    /// Writes `answer` through `responder`, on the thread of the responder's socket: the status line, Content-Type,
    /// X-Request-Id, the answer's headers, `Cache-Control: no-store` unless they set a Cache-Control of their own
    /// (issue 12: answers carry secrets and tokens), Content-Length, the body.
    static void writeTo(QHttpServerResponder &responder, const QString &requestId, const HttpAnswer &answer);
};

/// An AnswerTarget used on the thread of the responder's connection: writes at once.
class DirectAnswerTarget final : public AnswerTarget
{
public:
    explicit DirectAnswerTarget(std::unique_ptr<QHttpServerResponder> responder);
    ~DirectAnswerTarget() override;
    bool write(const QString &requestId, const HttpAnswer &answer) override;
    bool isConnected() const override;

private:
    std::unique_ptr<QHttpServerResponder> m_responder;
    /// The connection the answer goes to. QHttpServer deletes it (deleteLater) when the client
    /// disconnects, while a deferred answer may still be waiting on a commit or the upstream.
    QPointer<QTcpSocket> m_socket;
};

/// 503 GATEWAY_ERROR `database_unavailable` with Retry-After (seconds, the error's next reconnection
/// attempt) for a DatabaseError whose isUnavailable() holds: the request did nothing, try again then.
ApiError databaseUnavailableError(const DatabaseError &error);

/// The answer channel of one request. Copyable; every copy answers the same request, once.
/// A handler may keep it and answer after the event loop turns (batched commits, network calls).
/// If every copy is dropped without an answer, the request gets a 500 rather than hanging.
class ApiReply
{
public:
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    ApiReply(std::unique_ptr<QHttpServerResponder> responder, QString requestId);
    /// Answers through `target` (e.g. from the server thread to a worker thread's connection).
    ApiReply(std::unique_ptr<AnswerTarget> target, QString requestId);

    /// 200 (or `status`) with {"data": data}: the spec's success envelope. True when the answer
    /// was written to the client's connection (false: answered already, or the client has left).
    bool sendData(const QJsonObject &data, int status = 200) const;
    /// The error envelope with the error's status and headers.
    void sendError(const ApiError &error) const;
    /// The error an asynchronous step ended with: an ApiError as it is, a lost database connection
    /// as 503 (databaseUnavailableError), anything else as a logged 500 that leaks no internals.
    void sendException(std::exception_ptr error) const;
    /// Any body. Adds Content-Length, X-Request-Id and, unless `headers` set a Cache-Control of
    /// their own, `Cache-Control: no-store` (issue 12: answers carry secrets and tokens). True when
    /// written to the client's connection.
    bool send(int status, const QByteArray &contentType, const QByteArray &body, const Headers &headers = {}) const;
    /// True once an answer was written.
    bool isSent() const;
    /// True while an answer can still reach the client: none sent yet and its connection open.
    bool isClientWaiting() const;
    const QString &requestId() const;
    /// Gives the request up without an answer through this reply, not even the 500 of a dropped reply: another
    /// ApiReply for the same request answers it (an HTTP worker thread hands a request it cannot answer to the server
    /// thread, HttpWorkerPool). False when an answer was already written.
    bool handOver() const;

private:
    struct State;
    std::shared_ptr<State> m_state;
};
