#pragma once

#include "api/webhookinboxcontroller.h"
#include "api/webhookscontroller.h"
#include "webhookdispatcher.h"
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
/// their routes. Starts delivering on the first turn of the event loop.
class WebhookModule
{
public:
    /// `serverUrl` gives "http://host:port" of the listening server, or an invalid URL before
    /// it listens. `retryScale` multiplies the retry schedule (ServerOptions). `vault` seals the
    /// endpoints' secrets; those still in the clear are sealed here (null: none, no data dir). The built-in inbox
    /// stores its messages through `batcher` (the server's grouped commit).
    WebhookModule(Database &db, CommitBatcher &batcher, const Clock &clock, TransactionService &transactions,
                  SettlementService &settlements, double retryScale, const AadhaarVault *vault,
                  std::function<QUrl()> serverUrl);
    WebhookModule(const WebhookModule &) = delete;
    WebhookModule &operator=(const WebhookModule &) = delete;

    /// Adds the admin endpoints, /hooks/inbox and /api/v1/webhook-inbox.
    void registerRoutes(ApiRouter &router);

    WebhookEndpointService &endpoints() { return m_endpoints; }
    WebhookDispatcher &dispatcher() { return m_dispatcher; }
    WebhookOutbox &outbox() { return m_outbox; }

private:
    WebhookEndpointService m_endpoints;
    WebhookDispatcher m_dispatcher;
    WebhookOutbox m_outbox;
    WebhookInbox m_inbox;
    WebhooksController m_api;
    WebhookInboxController m_inboxApi;
};
