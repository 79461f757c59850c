#include "selfsignedcertificate.h"

#include <QHostAddress>
#include <QRegularExpression>

#include <memory>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace {

template <auto Free> struct Deleter
{
    template <typename T> void operator()(T *pointer) const { Free(pointer); }
};
template <typename T, auto Free> using Owned = std::unique_ptr<T, Deleter<Free>>;

using Key = Owned<EVP_PKEY, EVP_PKEY_free>;
using Certificate = Owned<X509, X509_free>;
using Bio = Owned<BIO, BIO_free>;
using Names = Owned<GENERAL_NAMES, GENERAL_NAMES_free>;
using Extension = Owned<X509_EXTENSION, X509_EXTENSION_free>;
using BigNumber = Owned<BIGNUM, BN_free>;

QString opensslError(const char *step)
{
    char text[256] = {};
    ERR_error_string_n(ERR_get_error(), text, sizeof text);
    ERR_clear_error();
    return QStringLiteral("cannot create the TLS certificate (%1): %2")
        .arg(QLatin1String(step), QString::fromLatin1(text));
}

/// The subjectAltName entries: IP addresses as iPAddress, everything else as dNSName.
Names altNames(const QStringList &names)
{
    Names list(sk_GENERAL_NAME_new_null());
    if (!list)
        return nullptr;
    for (const QString &name : names) {
        GENERAL_NAME *entry = GENERAL_NAME_new();
        if (!entry)
            return nullptr;
        const QHostAddress address(name);
        if (!address.isNull()) {
            ASN1_OCTET_STRING *ip = a2i_IPADDRESS(address.toString().toLatin1().constData());
            if (!ip) {
                GENERAL_NAME_free(entry);
                return nullptr;
            }
            GENERAL_NAME_set0_value(entry, GEN_IPADD, ip);
        } else {
            ASN1_IA5STRING *dns = ASN1_IA5STRING_new();
            const QByteArray ascii = name.toLatin1();
            if (!dns || !ASN1_STRING_set(dns, ascii.constData(), int(ascii.size()))) {
                ASN1_IA5STRING_free(dns);
                GENERAL_NAME_free(entry);
                return nullptr;
            }
            GENERAL_NAME_set0_value(entry, GEN_DNS, dns);
        }
        sk_GENERAL_NAME_push(list.get(), entry);
    }
    return list;
}

bool addExtension(X509 *certificate, int nid, const char *value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
    const Extension extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
    return extension && X509_add_ext(certificate, extension.get(), -1);
}

QByteArray bioBytes(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return QByteArray(data, qsizetype(size));
}

} // namespace

bool SelfSignedCertificate::isValidName(const QString &name)
{
    static const QRegularExpression dnsName(QStringLiteral("^(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"
                                                           "(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$"));
    return !QHostAddress(name).isNull() || (name.size() <= 253 && dnsName.match(name).hasMatch());
}

bool SelfSignedCertificate::generate(const QStringList &names, SelfSignedCertificate *out, QString *error,
                                     int validityDays)
{
    if (names.isEmpty()) {
        *error = QStringLiteral("cannot create the TLS certificate: no host names");
        return false;
    }
    for (const QString &name : names) {
        if (!isValidName(name)) {
            *error = QStringLiteral("cannot create the TLS certificate: \"%1\" is neither a DNS name nor an IP address")
                         .arg(name);
            return false;
        }
    }
    const Key key(EVP_EC_gen("P-256"));
    if (!key) {
        *error = opensslError("EC P-256 key");
        return false;
    }
    const Certificate certificate(X509_new());
    if (!certificate || !X509_set_version(certificate.get(), X509_VERSION_3)) {
        *error = opensslError("certificate");
        return false;
    }
    const BigNumber serial(BN_new());
    if (!serial || !BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) ||
        !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate.get()))) {
        *error = opensslError("serial number");
        return false;
    }
    X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -24L * 3600);
    X509_gmtime_adj(X509_getm_notAfter(certificate.get()), long(validityDays) * 24 * 3600);
    X509_NAME *subject = X509_get_subject_name(certificate.get());
    const QByteArray commonName = names.first().toUtf8();
    const QByteArray organisation = QByteArrayLiteral("RechargeDesk shop server");
    if (!X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8,
                                    reinterpret_cast<const unsigned char *>(commonName.constData()), -1, -1, 0) ||
        !X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8,
                                    reinterpret_cast<const unsigned char *>(organisation.constData()), -1, -1, 0) ||
        !X509_set_issuer_name(certificate.get(), subject) || !X509_set_pubkey(certificate.get(), key.get())) {
        *error = opensslError("subject");
        return false;
    }
    const Names sans = altNames(names);
    if (!sans || !X509_add1_ext_i2d(certificate.get(), NID_subject_alt_name, sans.get(), 0, X509V3_ADD_DEFAULT)) {
        *error = opensslError("subjectAltName");
        return false;
    }
    if (!addExtension(certificate.get(), NID_basic_constraints, "critical,CA:FALSE") ||
        !addExtension(certificate.get(), NID_key_usage, "critical,digitalSignature") ||
        !addExtension(certificate.get(), NID_ext_key_usage, "serverAuth") ||
        !addExtension(certificate.get(), NID_subject_key_identifier, "hash")) {
        *error = opensslError("extensions");
        return false;
    }
    if (!X509_sign(certificate.get(), key.get(), EVP_sha256())) {
        *error = opensslError("signature");
        return false;
    }
    const Bio certificateBio(BIO_new(BIO_s_mem()));
    const Bio keyBio(BIO_new(BIO_s_mem()));
    if (!certificateBio || !keyBio || !PEM_write_bio_X509(certificateBio.get(), certificate.get()) ||
        !PEM_write_bio_PrivateKey(keyBio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr)) {
        *error = opensslError("PEM");
        return false;
    }
    out->m_certificatePem = bioBytes(certificateBio.get());
    out->m_privateKeyPem = bioBytes(keyBio.get());
    return true;
}
