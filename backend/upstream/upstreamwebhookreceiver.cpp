#include "upstreamwebhookreceiver.h"

#include "apierror.h"
#include "clock.h"
#include "entities/transactionrecord.h"
#include "upstreamdispatcher.h"
#include "webhooks/webhookinbox.h"
#include "webhooks/webhooksigner.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcUpstreamHook, "rechargedesk.upstream.webhook")

void UpstreamWebhookReceiver::checkSignature(const QString &secret, const QByteArray &webhookId,
                                             const QByteArray &timestamp, const QByteArray &signature,
                                             const QByteArray &body, qint64 nowSeconds)
{
    // Strict Unix seconds: toLongLong() took " +12", "-9223372036854775808" (and then overflowed now - seconds).
    const std::optional<qint64> seconds = WebhookSigner::parseTimestamp(timestamp);
    if (webhookId.isEmpty() || !seconds || signature.isEmpty())
        throw ApiError::unauthenticated(QStringLiteral("missing_signature"),
                                        QStringLiteral("webhook-id, webhook-timestamp and webhook-signature are "
                                                       "required"));
    if (qAbs(nowSeconds - *seconds) > WebhookInbox::kToleranceSeconds)
        throw ApiError::unauthenticated(QStringLiteral("stale_timestamp"),
                                        QStringLiteral("webhook-timestamp is too far from now"));
    if (!WebhookSigner::verify(signature, {secret}, webhookId, *seconds, body))
        throw ApiError::unauthenticated(QStringLiteral("bad_signature"),
                                        QStringLiteral("webhook-signature does not match the upstream's secret"));
}

UpstreamWebhookReceiver::Result UpstreamWebhookReceiver::receive(const QByteArray &webhookId,
                                                                 const QByteArray &timestamp,
                                                                 const QByteArray &signature, const QByteArray &body)
{
    const std::optional<UpstreamSettings> settings = m_dispatcher.currentSettings();
    if (!settings || settings->webhookPassword.isEmpty())
        throw ApiError::unauthenticated(QStringLiteral("upstream_webhook_not_configured"),
                                        QStringLiteral("this server has no upstream webhook_password configured"));
    if (!settings->webhookSecret.isEmpty())
        checkSignature(settings->webhookSecret, webhookId, timestamp, signature, body, m_clock.nowMs() / 1000);
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    const QJsonObject data = document.object().value(QStringLiteral("data")).toObject();
    if (parseError.error != QJsonParseError::NoError || !document.isObject() || data.isEmpty())
        throw ApiError::badRequest(QStringLiteral("data"), QStringLiteral("not_a_webhook"),
                                   QStringLiteral("the body is not a webhook ({\"data\": {...}})"));
    if (!WebhookSigner::constantTimeEquals(data.value(QStringLiteral("webhook_password")).toString().toUtf8(),
                                           settings->webhookPassword.toUtf8()))
        throw ApiError::unauthenticated(QStringLiteral("bad_webhook_password"),
                                        QStringLiteral("data.webhook_password is not the one configured"));
    const QJsonObject payload = data.value(QStringLiteral("payload")).toObject();
    const std::optional<TransactionStatus> status =
        TransactionNames::statusFromString(payload.value(QStringLiteral("transaction_status")).toString());
    if (!status)
        throw ApiError::badRequest(QStringLiteral("data.payload.transaction_status"),
                                   QStringLiteral("not_a_transaction"),
                                   QStringLiteral("data.payload is not a transaction record"));
    const QString referenceId = payload.value(QStringLiteral("reference_id")).toString();
    const qint64 upstreamId = payload.value(QStringLiteral("transaction_id")).toInteger();
    const std::optional<bool> settled = m_dispatcher.takeOverWebhook(
        referenceId, upstreamId, *status, payload.value(QStringLiteral("redeem_code")).toString());
    if (!settled) {
        qCWarning(lcUpstreamHook, "webhook %s for an unknown upstream transaction %lld (reference_id %s)",
                  webhookId.constData(), upstreamId, qPrintable(referenceId));
        throw ApiError::notFound(QStringLiteral("unknown_upstream_transaction"),
                                 QStringLiteral("no sale of this server has reference_id %1 / upstream transaction %2")
                                     .arg(referenceId)
                                     .arg(upstreamId));
    }
    return *settled ? Result::Settled : Result::Unchanged;
}
