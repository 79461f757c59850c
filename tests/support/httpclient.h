#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QUrl>

/// One HTTP answer as a test sees it.
struct HttpResult
{
    int status = 0; ///< 0 when the request never got an answer
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QString networkError;

    /// The body parsed as a JSON object (empty when it is not one).
    QJsonObject json() const;
    /// json()["data"] as an object.
    QJsonObject data() const;
    /// json()["error"] as an object.
    QJsonObject error() const;
    /// A header by case-insensitive name.
    QByteArray header(QByteArrayView name) const;
};

/// A blocking HTTP client for tests: each call spins a local event loop until the answer (or a
/// 15 s time-out), so the server under test keeps running in the same thread.
class HttpClient
{
public:
    /// Basic credential for `keyId:secret`, ready for the Authorization header.
    static QByteArray basic(const QString &keyId, const QString &secret);

    HttpResult get(const QUrl &url, const QByteArray &authorization = {});
    /// POST with a JSON body (Content-Type: application/json).
    HttpResult postJson(const QUrl &url, const QJsonObject &body, const QByteArray &authorization = {});
    /// `method` with `authorization` and, unless it is GET, `body` as JSON; with an X-Session-Token header when
    /// `session` is not empty.
    HttpResult sendJson(const QByteArray &method, const QUrl &url, const QByteArray &authorization,
                        const QJsonObject &body = {}, const QByteArray &session = {});
    /// Any method, body and headers.
    HttpResult send(const QByteArray &method, const QUrl &url, const QByteArray &body,
                    const QList<std::pair<QByteArray, QByteArray>> &headers);

private:
    QNetworkAccessManager m_manager;
};
