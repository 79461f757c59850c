#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

/// Standard Webhooks signing (api-conventions.md, "Webhooks"): secrets are "whsec_" + base64 of
/// random bytes; a signature is "v1," + base64(HMAC-SHA256(key, "<webhook-id>.<timestamp>.<body>"))
/// where key is the base64-decoded part after "whsec_" and timestamp is in Unix seconds.
namespace WebhookSigner {

/// Bytes of key material in a new secret (Standard Webhooks asks for 24 to 64).
inline constexpr int kSecretBytes = 32;

/// A new signing secret, "whsec_" + base64 of kSecretBytes bytes from the system CSPRNG.
QString newSecret();
/// The HMAC key of a "whsec_…" secret; nullopt when the secret is malformed.
std::optional<QByteArray> secretKey(const QString &secret);
/// "v1,<base64 signature>" of one message with one secret; empty when the secret is malformed.
QByteArray sign(const QString &secret, const QByteArray &webhookId, qint64 timestampSeconds, const QByteArray &body);
/// The webhook-signature header value: one "v1,…" entry per secret, space-separated (two while
/// a secret rotation is in progress).
QByteArray signatureHeader(const QStringList &secrets, const QByteArray &webhookId, qint64 timestampSeconds,
                           const QByteArray &body);
/// True when any "v1,…" entry of `header` is the signature of the message under any of
/// `secrets` (constant-time comparison).
bool verify(const QByteArray &header, const QStringList &secrets, const QByteArray &webhookId, qint64 timestampSeconds,
            const QByteArray &body);
/// A webhook-timestamp header value as Unix seconds: 1 to 12 ASCII digits, nothing else (no sign, no blanks);
/// nullopt otherwise. Twelve digits keep every later "now - timestamp" far from overflow.
std::optional<qint64> parseTimestamp(const QByteArray &header);
/// Constant-time equality of two byte strings (the length is not hidden).
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

} // namespace WebhookSigner
