#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <exception>
#include <memory>

class ApiError;
class DatabaseError;
class QHttpServerResponder;

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

private:
    struct State;
    std::shared_ptr<State> m_state;
};
