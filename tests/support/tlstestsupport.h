#pragma once

#include "apiclient.h"
#include "apiserver.h"
#include "rawexchangelog.h"

#include <QByteArray>
#include <QSslCertificate>
#include <QSslSocket>
#include <QString>
#include <QStringList>

/// Server options for an in-process HTTPS TestServer (issue 12): TestServer::defaultOptions() plus a self-signed
/// certificate for `names` created (or reused) under `<dataDir>/tls/`. *certificate receives it.
ServerOptions tlsServerOptions(const QString &dataDir, QSslCertificate *certificate,
                               const QStringList &names = {QStringLiteral("127.0.0.1"), QStringLiteral("localhost")});

/// A valid SHA-256 fingerprint that belongs to no certificate of the tests (a pin that never matches).
QString unrelatedFingerprint();

/// Runs GET path through `api` and waits (up to 15 s) for its result (status 0 and no error when none came).
ApiResult getThrough(ApiClient &api, const QString &path);

/// A raw TLS client on 127.0.0.1 that trusts exactly `trusted` (as its only CA) and collects everything the
/// server sends, for requests no QNetworkAccessManager would send (oversize bodies, wrong protocols).
class TlsRawClient
{
public:
    TlsRawClient(quint16 port, const QSslCertificate &trusted);
    /// Records the complete answers received (for api_contract, see RawExchangeLog).
    ~TlsRawClient();
    Q_DISABLE_COPY_MOVE(TlsRawClient)

    /// Waits (up to 10 s) for the handshake; false when it failed (see errors()).
    bool waitForEncrypted();
    void send(const QByteArray &bytes);
    /// Waits until the server closed the connection (or 10 s passed); returns everything received.
    QByteArray receiveUntilClosed();
    /// Waits (up to 10 s) until one whole response (headers and a Content-Length body) was received; returns what
    /// was received by then.
    QByteArray receiveResponse();
    /// Waits until `text` was received (or 10 s passed).
    bool waitFor(const QByteArray &text);
    const QByteArray &received() const { return m_received; }
    QSslSocket &socket() { return m_socket; }

private:
    QSslSocket m_socket;
    QByteArray m_received;
    RawExchangeLog m_log;
};
