#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

/// A self-signed TLS server certificate and its private key, made with OpenSSL 3's libcrypto (Qt cannot create
/// certificates): an EC P-256 key, an X.509 v3 certificate signed with SHA-256, subject CN = the first name,
/// subjectAltName = every name (IP addresses as iPAddress entries, the rest as dNSName), basicConstraints
/// CA:FALSE, keyUsage digitalSignature, extendedKeyUsage serverAuth, a random 128-bit serial, valid from one day
/// ago for `validityDays` days (default ten years). Terminals trust it by pinning its SHA-256 fingerprint
/// (issue 12, "TLS between terminals and the shop server"), not through a CA.
class SelfSignedCertificate
{
public:
    /// Creates a new key and certificate for `names` (at least one; DNS names or IPv4/IPv6 addresses).
    /// Returns false with *error set when `names` is empty, a name is neither an IP address nor a DNS name
    /// (letters, digits, hyphens, dots; a leading "*." allowed), or OpenSSL fails.
    static bool generate(const QStringList &names, SelfSignedCertificate *out, QString *error, int validityDays = 3650);

    /// True when `name` can go into the subjectAltName: an IPv4/IPv6 address or a DNS name (letters, digits,
    /// hyphens, dots; a leading "*." allowed; at most 253 characters).
    static bool isValidName(const QString &name);

    /// The certificate, PEM ("-----BEGIN CERTIFICATE-----").
    const QByteArray &certificatePem() const { return m_certificatePem; }
    /// The unencrypted private key, PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"). Keep it 0600.
    const QByteArray &privateKeyPem() const { return m_privateKeyPem; }

private:
    QByteArray m_certificatePem;
    QByteArray m_privateKeyPem;
};
