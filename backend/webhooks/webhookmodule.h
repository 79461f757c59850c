#pragma once

#include "api/webhookinboxcontroller.h"
#include "api/webhookscontroller.h"
#include "webhookdeliverythread.h"
#include "webhookendpointservice.h"
#include "webhookinbox.h"
#include "webhookoutbox.h"

#include <QUrl>

#include <functional>

class AadhaarVault;
class ApiRouter;
class Clock;
class CommitBatcher;
class Database;
class SettlementService;
class TransactionService;

/// The webhooks of issue 4 wired together for one ApiServer: endpoint settings, the outbox fed
/// by the settlement service inside its transaction, the dispatcher, the built-in inbox and
/// their routes. Starts delivering on the first turn of the event loop, on a thread of its own with its own
/// database connection (WebhookDeliveryThread, issue 17).
class WebhookModule
{
public:
    /// `serverUrl` gives "http://host:port" of the listening server, or an invalid URL before
    /// it listens. `delivery` sets the dispatcher's retry scale and lease (ServerOptions). `vault` seals the
    /// endpoints' secrets; those still in the clear are sealed here (null: none, no data dir). The built-in inbox
    /// stores its messages through `batcher` (the server's grouped commit).
    WebhookModule(Database &db, CommitBatcher &batcher, const Clock &clock, TransactionService &transactions,
                  SettlementService &settlements, WebhookDeliverySettings delivery, const AadhaarVault *vault,
                  std::function<QUrl()> serverUrl);
    WebhookModule(const WebhookModule &) = delete;
    WebhookModule &operator=(const WebhookModule &) = delete;

    /// Adds the admin endpoints, /hooks/inbox and /api/v1/webhook-inbox.
    void registerRoutes(ApiRouter &router);

    WebhookEndpointService &endpoints() { return m_endpoints; }
    WebhookDeliveryThread &delivery() { return m_delivery; }
    WebhookOutbox &outbox() { return m_outbox; }

private:
    WebhookEndpointService m_endpoints;
    WebhookDeliveryThread m_delivery;
    WebhookOutbox m_outbox;
    WebhookInbox m_inbox;
    WebhooksController m_api;
    WebhookInboxController m_inboxApi;
};
