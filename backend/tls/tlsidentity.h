#pragma once

#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QString>
#include <QStringList>

/// The certificate and private key the shop server presents with `serve --tls` (issue 12, "TLS between
/// terminals and the shop server"): either files the shop provides (--tls-cert/--tls-key) or a self-signed pair
/// created once under `<data-dir>/tls/` (directory 0700, key 0600) and reused on every later start.
class TlsIdentity
{
public:
    /// The folder of the generated pair: `<dataDir>/tls`.
    static QString directory(const QString &dataDir);

    /// Loads a PEM certificate (the first one of a chain file; the rest are sent as its chain) and a PEM private
    /// key (RSA or EC, unencrypted). Returns false with *error set (naming the file) when a file cannot be read,
    /// is not PEM of that kind, or the key does not belong to the certificate.
    static bool load(const QString &certificateFile, const QString &keyFile, TlsIdentity *out, QString *error);

    /// Reuses `<dataDir>/tls/server.crt` and `server.key` when both exist; otherwise creates them with
    /// SelfSignedCertificate for `names` (the key file 0600, the folder 0700; on reuse both are set back to that).
    /// *created tells which happened.
    /// Returns false with *error set when the folder or files cannot be written or read.
    static bool loadOrCreate(const QString &dataDir, const QStringList &names, TlsIdentity *out, bool *created,
                             QString *error);

    /// The names a generated certificate carries when --tls-name is not given: this machine's host name (when it
    /// is a valid DNS name),
    /// localhost, 127.0.0.1 and `listenAddress` unless it is a wildcard (0.0.0.0, ::) or already listed.
    static QStringList defaultNames(const QString &listenAddress);

    const QSslCertificate &certificate() const { return m_certificate; }
    /// SHA-256 fingerprint of certificate() in TlsPin::fingerprint() form (what terminals pin).
    QString fingerprintSha256() const;
    /// A server-side configuration: this certificate and key, TLS 1.2 or later, no client certificates.
    QSslConfiguration serverConfiguration() const;

private:
    QSslCertificate m_certificate;
    QList<QSslCertificate> m_chain;
    QSslKey m_key;
};
