#include "tlspin.h"

#include <QCryptographicHash>
#include <QSettings>

namespace {
const QString kPinKey = QStringLiteral("server/tls_fingerprint_sha256");
}

TlsPin::TlsPin(QString pinnedFingerprint) : m_pinned(normalised(pinnedFingerprint))
{}

QString TlsPin::fingerprint(const QSslCertificate &certificate)
{
    if (certificate.isNull())
        return {};
    return QString::fromLatin1(certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper());
}

QString TlsPin::normalised(const QString &fingerprint)
{
    QByteArray hex;
    for (const QChar c : fingerprint) {
        if (c.isSpace() || c == QLatin1Char(':'))
            continue;
        const char16_t u = c.unicode();
        const bool isHex = (u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f') || (u >= u'A' && u <= u'F');
        if (!isHex)
            return {};
        hex.append(char(u));
    }
    const QByteArray bytes = QByteArray::fromHex(hex);
    if (hex.size() != 64 || bytes.size() != 32)
        return {};
    return QString::fromLatin1(bytes.toHex(':').toUpper());
}

void TlsPin::pin(const QString &fingerprint)
{
    m_pinned = normalised(fingerprint);
}

TlsPin::Verdict TlsPin::judge(const QSslCertificate &peer, const QList<QSslError> &errors) const
{
    if (isPinned())
        return fingerprint(peer) == m_pinned ? Verdict::Trusted : Verdict::Changed;
    return errors.isEmpty() && !peer.isNull() ? Verdict::Trusted : Verdict::Unpinned;
}

QString TlsPin::readPin(const QString &iniPath)
{
    return normalised(QSettings(iniPath, QSettings::IniFormat).value(kPinKey).toString());
}

bool TlsPin::writePin(const QString &iniPath, const QString &fingerprint)
{
    QSettings ini(iniPath, QSettings::IniFormat);
    ini.setValue(kPinKey, normalised(fingerprint));
    ini.sync();
    return ini.status() == QSettings::NoError;
}
