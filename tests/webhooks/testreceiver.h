#pragma once

#include <QByteArray>
#include <QHttpServer>
#include <QList>
#include <QUrl>

#include <functional>
#include <memory>

/// One request a TestReceiver got, and the status it answered.
struct ReceivedHook
{
    QByteArray path;
    QByteArray webhookId;
    QByteArray timestamp;
    QByteArray signature;
    QByteArray contentType;
    QByteArray userAgent;
    QByteArray host;
    QByteArray body;
    int answeredStatus = 0;

    /// body's data.payload.transaction_id (0 when absent).
    qint64 transactionId() const;
};

/// A webhook receiver for tests: its own QHttpServer on 127.0.0.1, port 0. Records every
/// request; answers with whatever the responder returns (default 200). Can go down and come
/// back on the same port.
class TestReceiver
{
public:
    /// What to answer: HTTP status for the request (index counts from 0 over all requests).
    using Responder = std::function<int(const ReceivedHook &hook, int index)>;

    TestReceiver();
    ~TestReceiver();

    /// http://127.0.0.1:<port><path>.
    QUrl url(const QString &path = QStringLiteral("/hook")) const;
    quint16 port() const { return m_port; }
    void setResponder(Responder responder) { m_responder = std::move(responder); }
    /// Location header sent with 3xx answers.
    void setRedirectTarget(const QByteArray &location) { m_location = location; }

    /// Stops listening (connections are refused) / listens again on the same port.
    void stop();
    bool restart();

    const QList<ReceivedHook> &requests() const { return m_requests; }
    /// Requests answered with 2xx.
    QList<ReceivedHook> accepted() const;

private:
    bool listen(quint16 port);
    std::unique_ptr<QHttpServer> m_server;
    quint16 m_port = 0;
    Responder m_responder;
    QByteArray m_location = "http://127.0.0.1:9/elsewhere";
    QList<ReceivedHook> m_requests;
};
