#include "apiclient.h"

#include <QJsonDocument>
#include <QNetworkReply>
#include <QSslConfiguration>

ApiCall::ApiCall(QNetworkReply *reply) : QObject(reply), m_reply(reply)
{
    connect(reply, &QNetworkReply::finished, this, &ApiCall::onFinished);
}

void ApiCall::abort()
{
    m_aborted = true;
    m_reply->abort();
}

void ApiCall::onFinished()
{
    m_reply->deleteLater();
    if (m_aborted)
        return;
    ApiResult result;
    result.httpStatus = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = m_reply->readAll();
    result.etag = m_reply->rawHeader("ETag");
    result.retryAfterSeconds = qMax(0, m_reply->rawHeader("Retry-After").trimmed().toInt());
    const QJsonObject json = QJsonDocument::fromJson(result.body).object();
    if (m_tlsRefusal) {
        result.httpStatus = 0;
        result.error = m_tlsRefusal;
    } else if (result.httpStatus == 0) {
        result.error = ApiError(0, QStringLiteral("NETWORK_ERROR"), QStringLiteral("network_error"),
                                tr("Cannot reach the server: %1").arg(m_reply->errorString()));
    } else if (result.httpStatus >= 400) {
        result.error = json.contains(QStringLiteral("error"))
                           ? ApiError::fromJson(result.httpStatus, json)
                           : ApiError(result.httpStatus, QStringLiteral("HTTP_ERROR"), QStringLiteral("http_error"),
                                      tr("The server answered HTTP %1").arg(result.httpStatus));
    } else {
        result.data = json.value(QStringLiteral("data")).toObject();
    }
    emit finished(result);
}

ApiClient::ApiClient(const QUrl &baseUrl, const QString &keyId, const QString &keySecret, QObject *parent)
    : QObject(parent), m_baseUrl(baseUrl), m_keyId(keyId),
      m_authorization("Basic " + (keyId + QLatin1Char(':') + keySecret).toUtf8().toBase64())
{
    m_network.setAutoDeleteReplies(false);
}

QNetworkRequest ApiClient::request(const QString &path, const QUrlQuery &query) const
{
    QUrl url = m_baseUrl;
    url.setPath(path);
    url.setQuery(query);
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", m_authorization);
    if (!m_sessionToken.isEmpty())
        request.setRawHeader("X-Session-Token", m_sessionToken);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(m_timeoutMs);
    return request;
}

ApiCall *ApiClient::send(const QByteArray &verb, const QNetworkRequest &request, const QByteArray &body)
{
    QNetworkRequest copy = request;
    if (!body.isEmpty())
        copy.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_network.sendCustomRequest(copy, verb, body);
    return guardTls(track(new ApiCall(reply)), reply);
}

ApiCall *ApiClient::guardTls(ApiCall *call, QNetworkReply *reply)
{
    if (reply->url().scheme() != QLatin1String("https"))
        return call;
    connect(reply, &QNetworkReply::sslErrors, call, [this, call, reply](const QList<QSslError> &errors) {
        if (acceptCertificate(call, reply->sslConfiguration().peerCertificate(), errors))
            reply->ignoreSslErrors(errors);
    });
    // Also when the system trusts the chain (no sslErrors): a pin admits only the pinned certificate.
    connect(reply, &QNetworkReply::encrypted, call, [this, call, reply] {
        if (m_pin.isPinned() && !acceptCertificate(call, reply->sslConfiguration().peerCertificate(), {}))
            reply->abort();
    });
    return call;
}

bool ApiClient::acceptCertificate(ApiCall *call, const QSslCertificate &peer, const QList<QSslError> &errors)
{
    const QString presented = TlsPin::fingerprint(peer);
    switch (m_pin.judge(peer, errors)) {
    case TlsPin::Verdict::Trusted:
        return true;
    case TlsPin::Verdict::Unpinned:
        call->refuseTls(ApiError(0, QStringLiteral("NETWORK_ERROR"), QStringLiteral("certificate_not_pinned"),
                                 tr("The shop server's certificate has not been confirmed on this terminal yet "
                                    "(SHA-256 fingerprint %1).")
                                     .arg(presented)));
        emit certificateNeedsConfirmation(presented);
        return false;
    case TlsPin::Verdict::Changed:
        call->refuseTls(ApiError(0, QStringLiteral("NETWORK_ERROR"), QStringLiteral("certificate_changed"),
                                 tr("The shop server presented a different certificate than the one confirmed on "
                                    "this terminal; the connection was refused.")));
        emit certificateChanged(m_pin.pinned(), presented);
        return false;
    }
    return false;
}

ApiCall *ApiClient::track(ApiCall *call)
{
    // Connected first, so the state is current when the caller's own handler runs.
    connect(call, &ApiCall::finished, this, &ApiClient::noteResult);
    return call;
}

void ApiClient::noteResult(const ApiResult &result)
{
    if (result.httpStatus == 401 && result.error && result.error->reason() == QLatin1String("session_invalid") &&
        !m_sessionToken.isEmpty())
        emit sessionRejected();
    const bool reachable = result.httpStatus != 0;
    if (reachable == m_reachable)
        return;
    m_reachable = reachable;
    emit reachabilityChanged(reachable);
}

ApiCall *ApiClient::get(const QString &path, const QUrlQuery &query)
{
    return send("GET", request(path, query), {});
}

ApiCall *ApiClient::post(const QString &path, const QJsonObject &body,
                         const QList<std::pair<QByteArray, QByteArray>> &extraHeaders)
{
    QNetworkRequest withHeaders = request(path);
    for (const auto &[name, value] : extraHeaders)
        withHeaders.setRawHeader(name, value);
    return send("POST", withHeaders, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

ApiCall *ApiClient::put(const QString &path, const QJsonObject &body)
{
    return send("PUT", request(path), QJsonDocument(body).toJson(QJsonDocument::Compact));
}

ApiCall *ApiClient::remove(const QString &path)
{
    return send("DELETE", request(path), {});
}

ApiCall *ApiClient::fetch(const QUrl &url)
{
    QNetworkRequest request(url);
    request.setTransferTimeout(m_timeoutMs);
    QNetworkReply *reply = m_network.get(request);
    auto *call = new ApiCall(reply);
    // Only the API server's own answers say whether it is reachable (a logo host may differ), and only its
    // certificate is pinned; other hosts keep the system trust store.
    return url.host() == m_baseUrl.host() && url.port() == m_baseUrl.port() ? guardTls(track(call), reply) : call;
}
