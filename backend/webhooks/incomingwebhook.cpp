#include "incomingwebhook.h"

#include "apierror.h"
#include "webhooksigner.h"

#include <QJsonDocument>

qint64 IncomingWebhook::checkedTimestamp(const QByteArray &webhookId, const QByteArray &timestamp,
                                         const QByteArray &signature, qint64 nowSeconds)
{
    if (webhookId.isEmpty() || webhookId.size() > 256 || timestamp.isEmpty() || signature.isEmpty())
        throw ApiError::unauthenticated(
            QStringLiteral("missing_webhook_headers"),
            QStringLiteral("a webhook needs webhook-id, webhook-timestamp and webhook-signature"));
    // Strict Unix seconds: toLongLong() took " +12", "-9223372036854775808" (and then overflowed now - seconds).
    const std::optional<qint64> sentAt = WebhookSigner::parseTimestamp(timestamp);
    if (!sentAt)
        throw ApiError::unauthenticated(QStringLiteral("invalid_timestamp"),
                                        QStringLiteral("webhook-timestamp must be Unix seconds"));
    if (qAbs(nowSeconds - *sentAt) > kToleranceSeconds)
        throw ApiError::unauthenticated(
            QStringLiteral("timestamp_out_of_tolerance"),
            QStringLiteral("webhook-timestamp is more than %1 s away from now").arg(kToleranceSeconds));
    return *sentAt;
}

bool IncomingWebhook::signedBy(const QStringList &secrets, const QByteArray &webhookId, qint64 timestamp,
                               const QByteArray &signature, const QByteArray &body)
{
    return WebhookSigner::verify(signature, secrets, webhookId, timestamp, body);
}

QJsonObject IncomingWebhook::webhookData(const QByteArray &body)
{
    const QJsonObject data = QJsonDocument::fromJson(body).object().value(QStringLiteral("data")).toObject();
    if (data.value(QStringLiteral("entity")).toString() != QLatin1String("webhook") ||
        !data.value(QStringLiteral("payload")).isObject())
        throw ApiError::badRequest(QStringLiteral("data"), QStringLiteral("not_a_webhook"),
                                   QStringLiteral("the body is not {\"data\": {\"entity\": \"webhook\", ...}}"));
    return data;
}

void IncomingWebhook::checkPassword(const QJsonObject &data, const QString &password)
{
    if (!WebhookSigner::constantTimeEquals(data.value(QStringLiteral("webhook_password")).toString().toUtf8(),
                                           password.toUtf8()))
        throw ApiError::unauthenticated(QStringLiteral("invalid_webhook_password"),
                                        QStringLiteral("data.webhook_password does not match the settings"));
}
