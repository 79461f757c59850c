#include "httpclient.h"

#include "exchangerecorder.h"

#include <QBuffer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QTimer>

QJsonObject HttpResult::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QJsonObject HttpResult::data() const
{
    return json().value(QStringLiteral("data")).toObject();
}

QJsonObject HttpResult::error() const
{
    return json().value(QStringLiteral("error")).toObject();
}

QByteArray HttpResult::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QByteArray HttpClient::basic(const QString &keyId, const QString &secret)
{
    return "Basic " + (keyId + QLatin1Char(':') + secret).toUtf8().toBase64();
}

HttpResult HttpClient::get(const QUrl &url, const QByteArray &authorization)
{
    QList<std::pair<QByteArray, QByteArray>> headers;
    if (!authorization.isEmpty())
        headers.append({"Authorization", authorization});
    return send("GET", url, {}, headers);
}

HttpResult HttpClient::postJson(const QUrl &url, const QJsonObject &body, const QByteArray &authorization)
{
    QList<std::pair<QByteArray, QByteArray>> headers{{"Content-Type", "application/json"}};
    if (!authorization.isEmpty())
        headers.append({"Authorization", authorization});
    return send("POST", url, QJsonDocument(body).toJson(QJsonDocument::Compact), headers);
}

HttpResult HttpClient::sendJson(const QByteArray &method, const QUrl &url, const QByteArray &authorization,
                                const QJsonObject &body, const QByteArray &session)
{
    QList<std::pair<QByteArray, QByteArray>> headers{{"Authorization", authorization}};
    QByteArray payload;
    if (method != "GET") {
        headers.append({"Content-Type", QByteArray("application/json")});
        payload = QJsonDocument(body).toJson(QJsonDocument::Compact);
    }
    if (!session.isEmpty())
        headers.append({"X-Session-Token", session});
    return send(method, url, payload, headers);
}

HttpResult HttpClient::send(const QByteArray &method, const QUrl &url, const QByteArray &body,
                            const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QBuffer *buffer = new QBuffer;
    buffer->setData(body);
    QNetworkReply *reply = m_manager.sendCustomRequest(request, method, buffer);
    buffer->setParent(reply);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(15'000, &loop, &QEventLoop::quit);
    loop.exec();
    HttpResult result;
    if (!reply->isFinished()) {
        reply->abort();
        result.networkError = QStringLiteral("timed out");
    }
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    result.headers = reply->rawHeaderPairs();
    if (reply->error() != QNetworkReply::NoError && result.status == 0)
        result.networkError = reply->errorString();
    reply->deleteLater();
    ExchangeRecorder::record(method, url, result.status, result.headers, result.body);
    return result;
}
