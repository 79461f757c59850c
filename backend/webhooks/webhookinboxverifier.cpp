#include "webhookinboxverifier.h"

#include "apierror.h"
#include "clock.h"
#include "incomingwebhook.h"
#include "webhookendpointrepository.h"

#include <QJsonObject>

InboxMessage WebhookInboxVerifier::verified(const QByteArray &webhookId, const QByteArray &timestamp,
                                            const QByteArray &signature, const QByteArray &body) const
{
    const qint64 sentAt = IncomingWebhook::checkedTimestamp(webhookId, timestamp, signature, m_clock.nowMs() / 1000);
    std::optional<WebhookEndpoint> signer;
    for (const WebhookEndpoint &endpoint : WebhookEndpointRepository(m_db, m_vault).all()) {
        if (IncomingWebhook::signedBy(endpoint.signingSecrets(m_clock.nowMs()), webhookId, sentAt, signature, body)) {
            signer = endpoint;
            break;
        }
    }
    if (!signer)
        throw ApiError::unauthenticated(QStringLiteral("invalid_signature"),
                                        QStringLiteral("no webhook endpoint secret of this server signs this message"));
    const QJsonObject data = IncomingWebhook::webhookData(body);
    IncomingWebhook::checkPassword(data, signer->password);

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
