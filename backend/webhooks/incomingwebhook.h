#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

/// The checks every webhook this server receives goes through, in one place: the built-in inbox (POST /hooks/inbox,
/// WebhookInboxVerifier) and an upstream's (POST /hooks/upstream[/name], UpstreamWebhookReceiver). Standard Webhooks
/// (standardwebhooks.com: webhook-id, webhook-timestamp, webhook-signature) and the spec's body (api-v1.md,
/// "Events": {"data": {"entity": "webhook", "webhook_event", "webhook_password", "payload"}}).
namespace IncomingWebhook {

/// Accepted distance between webhook-timestamp and now, in seconds.
inline constexpr qint64 kToleranceSeconds = 300;

/// The delivery's Unix-seconds timestamp after the header checks: webhook-id (1–256 bytes), webhook-timestamp and
/// webhook-signature present, the timestamp plain Unix seconds within kToleranceSeconds of `nowSeconds`. Throws
/// ApiError 401 `missing_webhook_headers`, `invalid_timestamp` or `timestamp_out_of_tolerance`.
qint64 checkedTimestamp(const QByteArray &webhookId, const QByteArray &timestamp, const QByteArray &signature,
                        qint64 nowSeconds);
/// True when one of `secrets` ("whsec_…") made a webhook-signature entry over id, `timestamp` and body.
bool signedBy(const QStringList &secrets, const QByteArray &webhookId, qint64 timestamp, const QByteArray &signature,
              const QByteArray &body);
/// The body's `data` object. Throws ApiError 400 `not_a_webhook` unless the body is {"data": {"entity": "webhook",
/// "payload": {...}}}.
QJsonObject webhookData(const QByteArray &body);
/// Throws ApiError 401 `invalid_webhook_password` unless data.webhook_password equals `password` (constant time).
void checkPassword(const QJsonObject &data, const QString &password);

} // namespace IncomingWebhook
