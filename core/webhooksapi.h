#pragma once

#include "answer.h"
#include "entities/collection.h"
#include "entities/webhook.h"

class ApiClient;

/// Typed calls of the webhooks of the key's mode (api-conventions.md "Webhooks"): the endpoint, test events,
/// the delivery log with redelivery, and the built-in inbox; owns the routes.
class WebhooksApi
{
public:
    explicit WebhooksApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/webhook-deliveries: the paged delivery log's path (filters status, success, transaction_id).
    static QString deliveriesPath();
    /// GET /api/v1/webhook-inbox: the paged built-in inbox's path.
    static QString inboxPath();
    /// POST /hooks/inbox on the server at `baseUrl`: the built-in inbox's address, for the endpoint form.
    static QUrl inboxUrl(const QUrl &baseUrl);

    /// GET /api/v1/webhook-endpoint; 404 `webhook_endpoint_not_configured` when none is set.
    TypedCall<WebhookEndpointInfo> endpoint();
    /// PUT /api/v1/webhook-endpoint: sets URL and webhook_password (a new endpoint's answer shows its secret).
    TypedCall<WebhookEndpointInfo> setEndpoint(const QString &url, const QString &password);
    /// POST /api/v1/webhook-endpoint/rotate-secret: a new secret (shown once); the old one signs 24 h more.
    TypedCall<WebhookEndpointInfo> rotateSecret();
    /// POST /api/v1/webhook-endpoint/test: queues a test event (202).
    TypedCall<WebhookEventInfo> sendTest();
    /// GET /api/v1/webhook-deliveries?transaction_id=…&limit=…: the first `limit` delivery attempts of the events
    /// of sale `transactionId`, newest first.
    TypedCall<Collection<WebhookDelivery>> deliveriesOf(qint64 transactionId, int limit);
    /// POST /api/v1/webhook-deliveries/{id}/redeliver: queues the event of delivery `deliveryId` again (202);
    /// 409 while the event is still being retried.
    TypedCall<WebhookEventInfo> redeliver(qint64 deliveryId);

private:
    ApiClient &m_api;
};
