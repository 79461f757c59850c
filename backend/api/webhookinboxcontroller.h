#pragma once

class ApiRouter;
class WebhookInbox;

/// The built-in webhook receiver: POST /hooks/inbox (public, outside /api/v1; 200 with
/// {"data": {"entity": "webhook_receipt", "duplicate", ...}} when accepted, 400/401 otherwise)
/// and GET /api/v1/webhook-inbox (admin: what it stored for the caller's account and mode,
/// newest first, limit 1-200, cursor).
class WebhookInboxController
{
public:
    explicit WebhookInboxController(WebhookInbox &inbox) : m_inbox(inbox) {}
    void registerRoutes(ApiRouter &router);

private:
    WebhookInbox &m_inbox;
};
