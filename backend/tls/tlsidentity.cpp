#include "tlsidentity.h"

#include "selfsignedcertificate.h"
#include "tlspin.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QHostInfo>

#include <openssl/pem.h>
#include <openssl/x509.h>

namespace {

bool readFile(const QString &path, QByteArray *contents, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    *contents = file.readAll();
    return true;
}

/// Creates `path` with `permissions` from the start (never readable by others, not even briefly) and writes
/// `contents`; a leftover file of an earlier, interrupted attempt is replaced.
bool writeNewFile(const QString &path, const QByteArray &contents, QFileDevice::Permissions permissions, QString *error)
{
    QFile::remove(path);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, permissions) || file.write(contents) != contents.size() ||
        !file.flush()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

/// True when `keyPem` is the private key of the first certificate in `certificatePem` (OpenSSL compares the
/// public halves; Qt cannot).
bool keyMatchesCertificate(const QByteArray &certificatePem, const QByteArray &keyPem)
{
    BIO *certificateBio = BIO_new_mem_buf(certificatePem.constData(), int(certificatePem.size()));
    BIO *keyBio = BIO_new_mem_buf(keyPem.constData(), int(keyPem.size()));
    X509 *certificate = certificateBio ? PEM_read_bio_X509(certificateBio, nullptr, nullptr, nullptr) : nullptr;
    EVP_PKEY *key = keyBio ? PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr) : nullptr;
    const bool matches = certificate && key && X509_check_private_key(certificate, key) == 1;
    EVP_PKEY_free(key);
    X509_free(certificate);
    BIO_free(keyBio);
    BIO_free(certificateBio);
    return matches;
}

QSslKey parseKey(const QByteArray &pem)
{
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Ec, QSsl::Rsa}) {
        QSslKey key(pem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    return {};
}

} // namespace

QString TlsIdentity::directory(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("tls"));
}

bool TlsIdentity::load(const QString &certificateFile, const QString &keyFile, TlsIdentity *out, QString *error)
{
    QByteArray certificatePem, keyPem;
    if (!readFile(certificateFile, &certificatePem, error) || !readFile(keyFile, &keyPem, error))
        return false;
    const QList<QSslCertificate> chain = QSslCertificate::fromData(certificatePem, QSsl::Pem);
    if (chain.isEmpty() || chain.first().isNull()) {
        *error = QStringLiteral("%1 holds no PEM certificate").arg(certificateFile);
        return false;
    }
    const QSslKey key = parseKey(keyPem);
    if (key.isNull()) {
        *error = QStringLiteral("%1 holds no unencrypted PEM private key (RSA or EC)").arg(keyFile);
        return false;
    }
    if (!keyMatchesCertificate(certificatePem, keyPem)) {
        *error = QStringLiteral("the key in %1 does not belong to the certificate in %2").arg(keyFile, certificateFile);
        return false;
    }
    out->m_certificate = chain.first();
    out->m_chain = chain.mid(1);
    out->m_key = key;
    return true;
}

bool TlsIdentity::loadOrCreate(const QString &dataDir, const QStringList &names, TlsIdentity *out, bool *created,
                               QString *error)
{
    const QDir folder(directory(dataDir));
    const QString certificateFile = folder.filePath(QStringLiteral("server.crt"));
    const QString keyFile = folder.filePath(QStringLiteral("server.key"));
    *created = false;
    const auto ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    if (QFile::exists(certificateFile) && QFile::exists(keyFile)) {
        // Someone may have loosened them since (a copy, a backup restore): the key stays the owner's alone.
        if (!QFile::setPermissions(folder.path(), ownerOnly | QFileDevice::ExeOwner) ||
            !QFile::setPermissions(keyFile, ownerOnly)) {
            *error = QStringLiteral("cannot make %1 readable by its owner only").arg(keyFile);
            return false;
        }
        return load(certificateFile, keyFile, out, error);
    }

    if (!QDir().mkpath(folder.path()) ||
        !QFile::setPermissions(folder.path(),
                               QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner)) {
        *error = QStringLiteral("cannot create the folder %1").arg(folder.path());
        return false;
    }
    SelfSignedCertificate generated;
    if (!SelfSignedCertificate::generate(names, &generated, error))
        return false;
    if (!writeNewFile(keyFile, generated.privateKeyPem(), ownerOnly, error) ||
        !writeNewFile(certificateFile, generated.certificatePem(),
                      ownerOnly | QFileDevice::ReadGroup | QFileDevice::ReadOther, error))
        return false;
    *created = true;
    return load(certificateFile, keyFile, out, error);
}

QStringList TlsIdentity::defaultNames(const QString &listenAddress)
{
    QStringList names;
    const QString host = QHostInfo::localHostName();
    if (!host.isEmpty() && SelfSignedCertificate::isValidName(host))
        names << host;
    names << QStringLiteral("localhost") << QStringLiteral("127.0.0.1");
    const QHostAddress address(listenAddress);
    if (!address.isNull() && address != QHostAddress::AnyIPv4 && address != QHostAddress::AnyIPv6 &&
        address != QHostAddress::Any && !names.contains(address.toString()))
        names << address.toString();
    names.removeDuplicates();
    return names;
}

QString TlsIdentity::fingerprintSha256() const
{
    return TlsPin::fingerprint(m_certificate);
}

QSslConfiguration TlsIdentity::serverConfiguration() const
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificate(m_certificate);
    configuration.setLocalCertificateChain(QList<QSslCertificate>{m_certificate} + m_chain);
    configuration.setPrivateKey(m_key);
    configuration.setProtocol(QSsl::TlsV1_2OrLater);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    return configuration;
}
