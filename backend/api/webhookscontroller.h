#pragma once

class ApiRouter;
class Clock;
class WebhookEndpointService;
class WebhookOutbox;

/// Admin endpoints of the webhooks (api-conventions.md, "Beyond the spec"), for the caller's
/// account and the mode of its key:
/// GET/PUT /api/v1/webhook-endpoint (url, webhook_password; the signing secret appears only in
/// the answer that created or rotated it), POST /api/v1/webhook-endpoint/rotate-secret,
/// POST /api/v1/webhook-endpoint/test, GET /api/v1/webhook-deliveries (filters event_id,
/// transaction_id, webhook_id, status, success, limit 1-200, cursor; newest first) and
/// POST /api/v1/webhook-deliveries/{id}/redeliver. Whether a previous secret is still accepted is read on
/// `clock`.
class WebhooksController
{
public:
    WebhooksController(WebhookEndpointService &endpoints, WebhookOutbox &outbox, const Clock &clock)
        : m_endpoints(endpoints), m_outbox(outbox), m_clock(clock)
    {}
    void registerRoutes(ApiRouter &router);

private:
    WebhookEndpointService &m_endpoints;
    WebhookOutbox &m_outbox;
    const Clock &m_clock;
};
