#include "upstreamwebhookreceiver.h"

#include "apierror.h"
#include "clock.h"
#include "entities/transactionrecord.h"
#include "upstreamdispatcher.h"
#include "webhooks/incomingwebhook.h"

#include <QJsonObject>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcUpstreamHook, "rechargedesk.upstream.webhook")

void UpstreamWebhookReceiver::checkSignature(const QString &secret, const QByteArray &webhookId,
                                             const QByteArray &timestamp, const QByteArray &signature,
                                             const QByteArray &body, qint64 nowSeconds)
{
    const qint64 sentAt = IncomingWebhook::checkedTimestamp(webhookId, timestamp, signature, nowSeconds);
    if (!IncomingWebhook::signedBy({secret}, webhookId, sentAt, signature, body))
        throw ApiError::unauthenticated(QStringLiteral("invalid_signature"),
                                        QStringLiteral("webhook-signature does not match the upstream's secret"));
}

UpstreamWebhookReceiver::Result UpstreamWebhookReceiver::receive(const QString &upstreamName,
                                                                 const QByteArray &webhookId,
                                                                 const QByteArray &timestamp,
                                                                 const QByteArray &signature, const QByteArray &body)
{
    const std::optional<UpstreamSettings> settings = m_dispatcher.upstream(upstreamName);
    if (!settings || settings->webhookPassword.isEmpty())
        throw ApiError::unauthenticated(QStringLiteral("upstream_webhook_not_configured"),
                                        QStringLiteral("this server has no webhook_password configured for the "
                                                       "upstream %1")
                                            .arg(upstreamName));
    if (!settings->webhookSecret.isEmpty())
        checkSignature(settings->webhookSecret, webhookId, timestamp, signature, body, m_clock.nowMs() / 1000);
    const QJsonObject data = IncomingWebhook::webhookData(body);
    IncomingWebhook::checkPassword(data, settings->webhookPassword);
    const QJsonObject payload = data.value(QStringLiteral("payload")).toObject();
    if (m_complaints && data.value(QStringLiteral("webhook_event")).toString() == QLatin1String("event.complaint"))
        return m_complaints(upstreamName, payload);
    if (m_fundRequests && data.value(QStringLiteral("webhook_event")).toString() == QLatin1String("event.fund_request"))
        return m_fundRequests(upstreamName, payload);
    const std::optional<TransactionStatus> status =
        TransactionNames::statusFromString(payload.value(QStringLiteral("transaction_status")).toString());
    if (!status)
        throw ApiError::badRequest(QStringLiteral("data.payload.transaction_status"),
                                   QStringLiteral("not_a_transaction"),
                                   QStringLiteral("data.payload is not a transaction record"));
    const QString referenceId = payload.value(QStringLiteral("reference_id")).toString();
    const qint64 upstreamId = payload.value(QStringLiteral("transaction_id")).toInteger();
    const UpstreamDispatcher::Report report = m_dispatcher.takeOverReport(
        referenceId, upstreamId, *status, payload.value(QStringLiteral("redeem_code")).toString(),
        QStringLiteral("webhook"), upstreamName);
    if (report == UpstreamDispatcher::Report::NotOurs) {
        qCWarning(lcUpstreamHook, "webhook %s for an unknown upstream transaction %lld (reference_id %s)",
                  webhookId.constData(), upstreamId, qPrintable(referenceId));
        throw ApiError::notFound(QStringLiteral("unknown_upstream_transaction"),
                                 QStringLiteral("no sale of this server has reference_id %1 / upstream transaction %2")
                                     .arg(referenceId)
                                     .arg(upstreamId));
    }
    return report == UpstreamDispatcher::Report::Settled || report == UpstreamDispatcher::Report::Reversed
               ? Result::Settled
               : Result::Unchanged;
}
