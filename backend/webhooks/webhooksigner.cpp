#include "webhooksigner.h"

#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

#include <algorithm>
#include <array>

namespace WebhookSigner {

namespace {
const QLatin1String kPrefix("whsec_");
} // namespace

QString newSecret()
{
    std::array<quint32, kSecretBytes / 4> words{};
    QRandomGenerator::system()->fillRange(words.data(), qsizetype(words.size()));
    const QByteArray bytes(reinterpret_cast<const char *>(words.data()), kSecretBytes);
    return kPrefix + QString::fromLatin1(bytes.toBase64());
}

std::optional<QByteArray> secretKey(const QString &secret)
{
    if (!secret.startsWith(kPrefix))
        return std::nullopt;
    const auto decoded =
        QByteArray::fromBase64Encoding(secret.mid(kPrefix.size()).toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.isEmpty())
        return std::nullopt;
    return decoded.decoded;
}

QByteArray sign(const QString &secret, const QByteArray &webhookId, qint64 timestampSeconds, const QByteArray &body)
{
    const std::optional<QByteArray> key = secretKey(secret);
    if (!key)
        return {};
    QMessageAuthenticationCode mac(QCryptographicHash::Sha256, *key);
    mac.addData(webhookId);
    mac.addData(".");
    mac.addData(QByteArray::number(timestampSeconds));
    mac.addData(".");
    mac.addData(body);
    return "v1," + mac.result().toBase64();
}

QByteArray signatureHeader(const QStringList &secrets, const QByteArray &webhookId, qint64 timestampSeconds,
                           const QByteArray &body)
{
    QByteArrayList parts;
    for (const QString &secret : secrets) {
        const QByteArray signature = sign(secret, webhookId, timestampSeconds, body);
        if (!signature.isEmpty())
            parts.append(signature);
    }
    return parts.join(' ');
}

bool verify(const QByteArray &header, const QStringList &secrets, const QByteArray &webhookId, qint64 timestampSeconds,
            const QByteArray &body)
{
    const QByteArrayList offered = header.split(' ');
    bool found = false;
    for (const QString &secret : secrets) {
        const QByteArray expected = sign(secret, webhookId, timestampSeconds, body);
        if (expected.isEmpty())
            continue;
        for (const QByteArray &candidate : offered)
            found = constantTimeEquals(candidate.trimmed(), expected) || found;
    }
    return found;
}

std::optional<qint64> parseTimestamp(const QByteArray &header)
{
    if (header.isEmpty() || header.size() > 12 ||
        !std::all_of(header.begin(), header.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return header.toLongLong();
}

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return difference == 0;
}

} // namespace WebhookSigner
