#include "webhookinboxverifier.h"

#include "apierror.h"
#include "clock.h"
#include "webhookendpointrepository.h"
#include "webhooksigner.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace {

ApiError badSignature(const QString &reason, const QString &description)
{
    return ApiError::unauthenticated(reason, description);
}

} // namespace

InboxMessage WebhookInboxVerifier::verified(const QByteArray &webhookId, const QByteArray &timestamp,
                                            const QByteArray &signature, const QByteArray &body) const
{
    if (webhookId.isEmpty() || webhookId.size() > 256 || timestamp.isEmpty() || signature.isEmpty())
        throw ApiError::badRequest(
            QString(), QStringLiteral("missing_webhook_headers"),
            QStringLiteral("a webhook needs webhook-id, webhook-timestamp and webhook-signature"));
    const std::optional<qint64> parsedTimestamp = WebhookSigner::parseTimestamp(timestamp);
    if (!parsedTimestamp)
        throw badSignature(QStringLiteral("invalid_timestamp"),
                           QStringLiteral("webhook-timestamp must be Unix seconds"));
    const qint64 sentAt = *parsedTimestamp;
    const qint64 now = m_clock.nowMs() / 1000;
    if (qAbs(now - sentAt) > kToleranceSeconds)
        throw badSignature(QStringLiteral("timestamp_out_of_tolerance"),
                           QStringLiteral("webhook-timestamp is more than %1 s away from now").arg(kToleranceSeconds));

    std::optional<WebhookEndpoint> signer;
    for (const WebhookEndpoint &endpoint : WebhookEndpointRepository(m_db, m_vault).all()) {
        if (WebhookSigner::verify(signature, endpoint.signingSecrets(m_clock.nowMs()), webhookId, sentAt, body)) {
            signer = endpoint;
            break;
        }
    }
    if (!signer)
        throw badSignature(QStringLiteral("invalid_signature"),
                           QStringLiteral("no webhook endpoint secret of this server signs this message"));

    const QJsonObject data = QJsonDocument::fromJson(body).object().value(QStringLiteral("data")).toObject();
    if (data.value(QStringLiteral("entity")).toString() != QLatin1String("webhook") ||
        !data.value(QStringLiteral("payload")).isObject())
        throw ApiError::badRequest(QStringLiteral("data"), QStringLiteral("not_a_webhook"),
                                   QStringLiteral("the body is not {\"data\": {\"entity\": \"webhook\", ...}}"));
    if (!WebhookSigner::constantTimeEquals(data.value(QStringLiteral("webhook_password")).toString().toUtf8(),
                                           signer->password.toUtf8()))
        throw badSignature(QStringLiteral("invalid_webhook_password"),
                           QStringLiteral("data.webhook_password does not match the endpoint settings"));

    InboxMessage message;
    message.accountId = signer->accountId;
    message.mode = signer->mode;
    message.webhookId = QString::fromLatin1(webhookId);
    message.eventType = data.value(QStringLiteral("webhook_event")).toString();
    message.transactionId =
        qint64(data.value(QStringLiteral("payload")).toObject().value(QStringLiteral("transaction_id")).toDouble());
    message.body = body;
    message.receivedAtMs = m_clock.nowMs();
    return message;
}
