#include "testreceiver.h"

#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>

qint64 ReceivedHook::transactionId() const
{
    const QJsonObject data = QJsonDocument::fromJson(body).object().value(QStringLiteral("data")).toObject();
    return qint64(data.value(QStringLiteral("payload")).toObject().value(QStringLiteral("transaction_id")).toDouble());
}

TestReceiver::TestReceiver()
{
    listen(0);
}

TestReceiver::~TestReceiver() = default;

bool TestReceiver::listen(quint16 port)
{
    m_server = std::make_unique<QHttpServer>();
    m_server->setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        ReceivedHook hook;
        hook.path = request.url().path().toLatin1();
        hook.webhookId = request.value("webhook-id");
        hook.timestamp = request.value("webhook-timestamp");
        hook.signature = request.value("webhook-signature");
        hook.contentType = request.value("content-type");
        hook.userAgent = request.value("user-agent");
        hook.host = request.value("host");
        hook.body = request.body();
        const int status = m_responder ? m_responder(hook, int(m_requests.size())) : 200;
        hook.answeredStatus = status;
        m_requests.append(hook);
        responder.writeStatusLine(static_cast<QHttpServerResponder::StatusCode>(status));
        if (status >= 300 && status < 400)
            responder.writeHeader("Location", m_location);
        responder.writeHeader("Content-Length", "2");
        responder.writeHeader("Content-Type", "text/plain");
        responder.writeBody("ok");
    });
    m_port = m_server->listen(QHostAddress::LocalHost, port);
    return m_port != 0;
}

QUrl TestReceiver::url(const QString &path) const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(m_port);
    url.setPath(path);
    return url;
}

void TestReceiver::stop()
{
    m_server.reset();
}

bool TestReceiver::restart()
{
    const quint16 port = m_port;
    return listen(port) && m_port == port;
}

QList<ReceivedHook> TestReceiver::accepted() const
{
    QList<ReceivedHook> hooks;
    for (const ReceivedHook &hook : m_requests) {
        if (hook.answeredStatus >= 200 && hook.answeredStatus < 300)
            hooks.append(hook);
    }
    return hooks;
}
