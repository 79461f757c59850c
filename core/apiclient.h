#pragma once

#include "apierror.h"
#include "tlspin.h"

#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QObject>
#include <QUrl>
#include <QUrlQuery>

#include <optional>

class QNetworkReply;

/// The outcome of one API call: the HTTP status and either the `data` object of a success or
/// the parsed error envelope. A network failure is status 0 with reason `network_error`.
struct ApiResult
{
    int httpStatus = 0;
    QJsonObject data;
    QByteArray body; ///< raw body (images, non-JSON answers)
    QByteArray etag;
    int retryAfterSeconds = 0;     ///< Retry-After of a 429/503 answer in seconds; 0 when absent
    std::optional<ApiError> error; ///< set when httpStatus is not 2xx/304
    bool ok() const { return !error.has_value(); }
};

/// One call in flight. Emits finished() once, then deletes itself later. Connect with a
/// context object (the widget) so a closed screen never receives a stale answer.
class ApiCall final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiCall)

public:
    explicit ApiCall(QNetworkReply *reply);
    /// Aborts the request; finished() is then not emitted.
    void abort();
    /// Makes the call fail with `error` (status 0) once the reply ends: ApiClient refused the server's TLS
    /// certificate (not pinned yet, or changed) and the reply ends without an answer.
    void refuseTls(const ApiError &error) { m_tlsRefusal = error; }

signals:
    void finished(const ApiResult &result);

private:
    void onFinished();
    QNetworkReply *m_reply;
    std::optional<ApiError> m_tlsRefusal;
    bool m_aborted = false;
};

/// The HTTP client of the terminal screens (and any other client): speaks the API of
/// api-v1.md over QtNetwork, asynchronously, with the Basic key credential of
/// api-conventions.md. Never blocks the calling thread.
class ApiClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiClient)

public:
    /// `baseUrl` is the server root (http://host:port); paths passed below start with "/".
    ApiClient(const QUrl &baseUrl, const QString &keyId, const QString &keySecret, QObject *parent = nullptr);

    const QUrl &baseUrl() const { return m_baseUrl; }
    const QString &keyId() const { return m_keyId; }
    /// True for test_ keys: the sandbox is in use and the UI shows TEST MODE.
    bool isTestMode() const { return m_keyId.startsWith(QLatin1String("test_")); }

    /// GET path?query with credentials.
    ApiCall *get(const QString &path, const QUrlQuery &query = {});
    /// POST a JSON body with credentials, plus optional extra request headers (e.g. If-None-Match).
    ApiCall *post(const QString &path, const QJsonObject &body,
                  const QList<std::pair<QByteArray, QByteArray>> &extraHeaders = {});
    /// PUT a JSON body with credentials.
    ApiCall *put(const QString &path, const QJsonObject &body);
    /// DELETE path with credentials.
    ApiCall *remove(const QString &path);
    /// GET an absolute URL without credentials (captcha images, logos); a URL on the API server
    /// counts towards isReachable().
    ApiCall *fetch(const QUrl &url);

    /// Sends `X-Session-Token` with every call from now on (empty: none). Set after a PIN
    /// sign-in so the server attributes admin actions to the person.
    void setSessionToken(const QString &token) { m_sessionToken = token.toLatin1(); }

    /// The pin of the server's TLS certificate in TlsPin::fingerprint() form (issue 12): with a pin, an https
    /// server is trusted exactly when it presents that certificate (self-signed is fine); without one, only when
    /// the system trust store accepts it. Empty: no pin.
    void setPinnedFingerprint(const QString &fingerprint) { m_pin.pin(fingerprint); }
    const TlsPin &tlsPin() const { return m_pin; }

    /// Seconds after which a call gives up (default 20).
    void setTimeoutSeconds(int seconds) { m_timeoutMs = seconds * 1000; }
    int timeoutSeconds() const { return m_timeoutMs / 1000; }

    /// Whether the server answered the last finished call to it: false after a call that got no
    /// HTTP answer at all (connection refused, timeout, host unreachable), true again after any
    /// HTTP answer (an error status included: the server is there). True before the first call.
    /// Aborted calls do not count.
    bool isReachable() const { return m_reachable; }

signals:
    /// isReachable() changed; emitted before the finished() of the call that changed it reaches
    /// the caller, so a screen reading isReachable() in its answer handler sees the new state.
    void reachabilityChanged(bool reachable);
    /// An https server presented a certificate that is neither pinned nor trusted by the system: the call fails
    /// (NETWORK_ERROR, reason certificate_not_pinned) until an admin confirms `fingerprint` and it is pinned.
    void certificateNeedsConfirmation(const QString &fingerprint);
    /// The server presented a certificate other than the pinned one: the call fails (reason
    /// certificate_changed). Both fingerprints in TlsPin::fingerprint() form.
    void certificateChanged(const QString &pinned, const QString &presented);
    /// The server refused the session token this client sends (401 `session_invalid`: signed
    /// out elsewhere, expired, or the user was deactivated); the person must sign in again.
    void sessionRejected();

private:
    /// Records whether `result` came from the server (any HTTP status) or from the network.
    void noteResult(const ApiResult &result);
    ApiCall *track(ApiCall *call);
    /// Checks the TLS certificate of an https reply to the API server against the pin (see setPinnedFingerprint).
    ApiCall *guardTls(ApiCall *call, QNetworkReply *reply);
    /// Refuses `call` when `peer` is not acceptable; true when the certificate is trusted.
    bool acceptCertificate(ApiCall *call, const QSslCertificate &peer, const QList<QSslError> &errors);

    QNetworkRequest request(const QString &path, const QUrlQuery &query = {}) const;
    ApiCall *send(const QByteArray &verb, const QNetworkRequest &request, const QByteArray &body);

    QNetworkAccessManager m_network;
    TlsPin m_pin;
    QUrl m_baseUrl;
    QString m_keyId;
    QByteArray m_authorization;
    QByteArray m_sessionToken;
    int m_timeoutMs = 20'000;
    bool m_reachable = true;
};
