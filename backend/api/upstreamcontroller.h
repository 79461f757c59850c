#pragma once

#include "upstream/upstreamwebhookreceiver.h"
#include "users/auditlog.h"

#include <QJsonObject>

class ApiRouter;
class Clock;
class Database;
class TransactionService;
class UpstreamDispatcher;

/// The upstream endpoints of issue 11 (upstream-contract.md, "HTTP API"): GET/PUT/DELETE
/// /api/v1/upstream, POST /api/v1/upstream/check, GET /api/v1/transactions/{id}/upstream-calls,
/// POST /api/v1/transactions/{id}/upstream-recheck and the public POST /hooks/upstream.
/// Settings changes need an admin and live authority (a live key or a signed-in admin) and are
/// audit-logged; no answer ever carries a secret.
class UpstreamController
{
public:
    UpstreamController(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher,
                       TransactionService &transactions);
    void registerRoutes(ApiRouter &router);

    /// The path the upstream posts its webhooks to.
    static constexpr const char *kHookPath = "/hooks/upstream";

private:
    /// The GET /api/v1/upstream data for `accountId`.
    QJsonObject view(qint64 accountId);

    Database &m_db;
    const Clock &m_clock;
    UpstreamDispatcher &m_dispatcher;
    TransactionService &m_transactions;
    AuditLog m_audit;
    UpstreamWebhookReceiver m_receiver;
};
