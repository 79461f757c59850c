#pragma once

#include <QByteArray>
#include <QHttpServer>
#include <QHttpServerResponder>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

/// A server on 127.0.0.1, port 0, that answers a screen's requests with canned data, for GUI tests that need shapes
/// a real server would not give on demand (tests/tst_ui_*.cpp). Every request is recorded; a subclass answers it in
/// handle(), and whatever it does not know it answers 200 with {} by convention.
class CannedApiServer
{
public:
    /// One request as the server saw it.
    struct Request
    {
        QString method; ///< "GET", "POST", "PUT", "DELETE" (else "OTHER")
        QString path;
        QUrlQuery query;
        QByteArray raw;          ///< the body as sent
        QJsonObject body;        ///< the body as JSON (empty when it is none)
        QByteArray sessionToken; ///< its X-Session-Token header
    };
    /// An error envelope to answer with (api-conventions.md, "Error envelope").
    struct Failure
    {
        QHttpServerResponder::StatusCode status;
        QString code;
        QString reason;
        QString field; ///< empty: null
        QString description;
    };

    CannedApiServer();
    virtual ~CannedApiServer();
    CannedApiServer(const CannedApiServer &) = delete;
    CannedApiServer &operator=(const CannedApiServer &) = delete;

    /// http://127.0.0.1:<port>
    QUrl baseUrl() const;
    /// The requests with this method and path, oldest first.
    QList<Request> requests(const QString &method, const QString &path) const;

    /// Answers {"data": data} with 200.
    static void answer(QHttpServerResponder &responder, const QJsonObject &data);
    /// Answers the error envelope of `failure`.
    static void fail(QHttpServerResponder &responder, const Failure &failure);

protected:
    /// Answers one request (already recorded).
    virtual void handle(const Request &request, QHttpServerResponder &responder) = 0;

private:
    QHttpServer m_server;
    quint16 m_port = 0;
    QList<Request> m_requests;
};
