// Fuzz target: the Standard Webhooks check of POST /hooks/upstream (UpstreamWebhookReceiver::checkSignature, over
// WebhookSigner) and WebhookSigner::verify with an attacker-chosen secret. Input: byte 0 = flags, then
// "webhook-id\nwebhook-timestamp\nwebhook-signature\nbody". Flag 1 appends the correct signature to the header; flag 2
// uses the signature line as the secret for WebhookSigner::verify. Invariants: a delivery is accepted only when the
// timestamp is plain Unix seconds within the tolerance and the header carries the HMAC-SHA256 made with the secret
// (computed here independently); a correctly signed, timely delivery is always accepted; refusals are ApiError 401.
#include "apierror.h"
#include "fuzzcheck.h"
#include "upstream/upstreamwebhookreceiver.h"
#include "webhooks/webhookinbox.h"
#include "webhooks/webhooksigner.h"

#include <QMessageAuthenticationCode>

#include <cstdint>

namespace {

const QString kSecret = QStringLiteral("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
const QString kOtherSecret = QStringLiteral("whsec_c2VjcmV0LW9mLXNvbWVib2R5LWVsc2UtMDEyMzQ1");
constexpr qint64 kNow = 1763900000; // Unix seconds the check runs at

// "v1," + base64(HMAC-SHA256(key, id.timestamp.body)), written out here rather than taken from WebhookSigner.
QByteArray expectedSignature(const QByteArray &key, const QByteArray &id, qint64 seconds, const QByteArray &body)
{
    const QByteArray message = id + '.' + QByteArray::number(seconds) + '.' + body;
    return "v1," + QMessageAuthenticationCode::hash(message, key, QCryptographicHash::Sha256).toBase64();
}

QByteArray keyOf(const QString &secret)
{
    return QByteArray::fromBase64(secret.mid(6).toLatin1());
}

bool headerCarries(const QByteArray &header, const QByteArray &signature)
{
    for (const QByteArray &entry : header.split(' ')) {
        if (entry.trimmed() == signature)
            return true;
    }
    return false;
}

// The timestamp as the receiver must read it: 1 to 12 ASCII digits; nullopt otherwise.
std::optional<qint64> plainSeconds(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 12)
        return std::nullopt;
    qint64 value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const uint8_t flags = data[0];
    const QByteArray rest(reinterpret_cast<const char *>(data) + 1, qsizetype(size) - 1);
    const QList<QByteArray> lines = rest.split('\n');
    const QByteArray id = lines.value(0);
    const QByteArray timestamp = lines.value(1);
    QByteArray header = lines.value(2);
    const qsizetype bodyStart = std::min(rest.size(), id.size() + timestamp.size() + header.size() + 3);
    const QByteArray body = rest.mid(bodyStart);

    const std::optional<qint64> seconds = plainSeconds(timestamp);
    const bool timely = seconds && qAbs(kNow - *seconds) <= WebhookInbox::kToleranceSeconds;
    const QByteArray expected = seconds ? expectedSignature(keyOf(kSecret), id, *seconds, body) : QByteArray();
    if ((flags & 1) && seconds)
        header += ' ' + expected;

    bool accepted = false;
    try {
        UpstreamWebhookReceiver::checkSignature(kSecret, id, timestamp, header, body, kNow);
        accepted = true;
    } catch (const ApiError &error) {
        FUZZ_CHECK(error.httpStatus() == 401 && !error.reason().isEmpty(), "a refusal other than 401");
    }
    const bool signedWell = !id.isEmpty() && id.size() <= 256 && timely && headerCarries(header, expected);
    if (accepted)
        FUZZ_CHECK(signedWell, "accepted a delivery not signed with the secret, or out of time");
    else
        FUZZ_CHECK(!signedWell, "refused a timely delivery signed with the secret");

    // Another account's secret never verifies what this one signed (nor, barring HMAC collisions, anything else).
    if (seconds) {
        const bool other = WebhookSigner::verify(header, {kOtherSecret}, id, *seconds, body);
        FUZZ_CHECK(other == headerCarries(header, expectedSignature(keyOf(kOtherSecret), id, *seconds, body)),
                   "the other secret verified a foreign signature");
    }

    // An attacker-chosen secret: a malformed one verifies nothing; a well-formed one only its own signature.
    if (flags & 2) {
        const QString secret = QString::fromLatin1(lines.value(2));
        const std::optional<QByteArray> key = WebhookSigner::secretKey(secret);
        const qint64 at = seconds.value_or(kNow);
        const bool verified = WebhookSigner::verify(header, {secret}, id, at, body);
        if (!key)
            FUZZ_CHECK(!verified && WebhookSigner::sign(secret, id, at, body).isEmpty(), "a malformed secret signed");
        else
            FUZZ_CHECK(verified == headerCarries(header, expectedSignature(*key, id, at, body)),
                       "a secret verified something it did not sign");
    }
    return 0;
}
