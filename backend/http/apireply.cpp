#include "apireply.h"

#include "apierror.h"
#include "store/database.h"

#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>
#include <QTcpSocket>

Q_LOGGING_CATEGORY(lcReply, "rechargedesk.reply")

void AnswerTarget::writeTo(QHttpServerResponder &responder, const QString &requestId, const HttpAnswer &answer)
{
    responder.writeStatusLine(static_cast<QHttpServerResponder::StatusCode>(answer.status));
    responder.writeHeader("Content-Type", answer.contentType);
    responder.writeHeader("X-Request-Id", requestId.toLatin1());
    bool cachePolicy = false;
    for (const auto &[name, value] : answer.headers) {
        responder.writeHeader(name, value);
        cachePolicy = cachePolicy || name.compare("Cache-Control", Qt::CaseInsensitive) == 0;
    }
    // Answers carry keys, session tokens, webhook secrets, Aadhaar numbers and redeem codes: no
    // cache (browser, proxy) may keep one unless the route chose a policy (the plan catalogue).
    if (!cachePolicy)
        responder.writeHeader("Cache-Control", "no-store");
    responder.writeHeader("Content-Length", QByteArray::number(answer.body.size()));
    responder.writeBody(answer.body);
}

DirectAnswerTarget::DirectAnswerTarget(std::unique_ptr<QHttpServerResponder> responder)
    : m_responder(std::move(responder)), m_socket(m_responder->socket())
{}

DirectAnswerTarget::~DirectAnswerTarget() = default;

bool DirectAnswerTarget::isConnected() const
{
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

bool DirectAnswerTarget::write(const QString &requestId, const HttpAnswer &answer)
{
    if (!isConnected())
        return false;
    writeTo(*m_responder, requestId, answer);
    return true;
}

struct ApiReply::State
{
    std::unique_ptr<AnswerTarget> target;
    QString requestId;
    bool sent = false;

    ~State()
    {
        if (!sent && target) {
            qWarning("request %s ended without an answer; sending 500", qPrintable(requestId));
            write(500, "application/json",
                  QJsonDocument(ApiError::serverError(requestId).toJson()).toJson(QJsonDocument::Compact), {});
        }
    }

    bool write(int status, const QByteArray &contentType, const QByteArray &body, const Headers &headers)
    {
        sent = true;
        if (!target->write(requestId, HttpAnswer{status, contentType, body, headers})) {
            // The work behind the answer is done (a sale stays committed and settles as usual); only
            // the client is no longer there to read it.
            qCInfo(lcReply, "request %s: the client left before its answer (HTTP %d); answer dropped",
                   qPrintable(requestId), status);
            return false;
        }
        return true;
    }
};

ApiReply::ApiReply(std::unique_ptr<QHttpServerResponder> responder, QString requestId)
    : ApiReply(std::make_unique<DirectAnswerTarget>(std::move(responder)), std::move(requestId))
{}

ApiReply::ApiReply(std::unique_ptr<AnswerTarget> target, QString requestId) : m_state(std::make_shared<State>())
{
    m_state->target = std::move(target);
    m_state->requestId = std::move(requestId);
}

bool ApiReply::sendData(const QJsonObject &data, int status) const
{
    return send(status, "application/json",
                QJsonDocument(QJsonObject{{QStringLiteral("data"), data}}).toJson(QJsonDocument::Compact));
}

void ApiReply::sendError(const ApiError &error) const
{
    send(error.httpStatus(), "application/json", QJsonDocument(error.toJson()).toJson(QJsonDocument::Compact),
         error.headers());
}

void ApiReply::sendException(std::exception_ptr error) const
{
    try {
        std::rethrow_exception(error);
    } catch (const ApiError &apiError) {
        sendError(apiError);
    } catch (const DatabaseError &e) {
        if (e.isUnavailable()) {
            qWarning("request %s: %s", qPrintable(m_state->requestId), e.what());
            sendError(databaseUnavailableError(e));
        } else {
            qCritical("request %s failed: %s", qPrintable(m_state->requestId), e.what());
            sendError(ApiError::serverError(m_state->requestId));
        }
    } catch (const std::exception &e) {
        qCritical("request %s failed: %s", qPrintable(m_state->requestId), e.what());
        sendError(ApiError::serverError(m_state->requestId));
    }
}

bool ApiReply::send(int status, const QByteArray &contentType, const QByteArray &body, const Headers &headers) const
{
    if (m_state->sent) {
        qWarning("request %s answered twice; second answer dropped", qPrintable(m_state->requestId));
        return false;
    }
    return m_state->write(status, contentType, body, headers);
}

bool ApiReply::isSent() const
{
    return m_state->sent;
}

bool ApiReply::isClientWaiting() const
{
    return !m_state->sent && m_state->target->isConnected();
}

bool ApiReply::handOver() const
{
    if (m_state->sent)
        return false;
    m_state->sent = true;
    return true;
}

const QString &ApiReply::requestId() const
{
    return m_state->requestId;
}

ApiError databaseUnavailableError(const DatabaseError &error)
{
    return ApiError::gatewayUnavailable(QStringLiteral("database_unavailable"),
                                        QStringLiteral("the server's database cannot be reached at the moment; nothing "
                                                       "was done, try again later"))
        .withHeader("Retry-After", QByteArray::number(error.retryAfterSeconds()));
}
