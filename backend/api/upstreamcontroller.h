#pragma once

#include "entities/upstreaminfo.h"
#include "upstream/upstreamresolver.h"
#include "upstream/upstreamwebhookreceiver.h"
#include "users/auditlog.h"

#include <QJsonObject>

class ApiReply;
class ApiRequest;
class ApiRouter;
class OperatorCatalog;
class Clock;
class Database;
class SettlementService;
class TransactionService;
class UpstreamDispatcher;

/// The upstream endpoints of issue 11 and 26 (docs/upstream-contract.md, "HTTP API"): GET /api/v1/upstreams,
/// PUT/DELETE /api/v1/upstreams/{name}, POST /api/v1/upstreams/{name}/check, the single-upstream GET/PUT/DELETE
/// /api/v1/upstream and POST /api/v1/upstream/check (the upstream named `default`), GET
/// /api/v1/transactions/{id}/upstream-calls, POST /api/v1/transactions/{id}/upstream-recheck, POST
/// /api/v1/transactions/{id}/resolve (issue 26: a live admin ends a PENDING live sale by hand) and the public POST
/// /hooks/upstream/{name} (and /hooks/upstream for `default`). Settings changes need an admin and live authority (a
/// live key or a signed-in admin) and are audit-logged; no answer ever carries a secret.
class UpstreamController
{
public:
    UpstreamController(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher,
                       TransactionService &transactions, SettlementService &settlements,
                       const OperatorCatalog &catalog);
    void registerRoutes(ApiRouter &router);
    /// The receiver of /hooks/upstream/{name} (the server wires its complaint handler, issue 29).
    UpstreamWebhookReceiver &receiver() { return m_receiver; }

    /// The path the upstream posts its webhooks to.
    static constexpr const char *kHookPath = "/hooks/upstream";

private:
    /// What is known of the upstream `name` (not configured: `configured` false).
    UpstreamInfo info(const QString &name);
    /// The GET /api/v1/upstream data of the upstream `name` for `accountId` (its counts are the account's).
    QJsonObject view(qint64 accountId, const QString &name);
    /// PUT: stores the upstream `name`, reads what it offers, then answers view().
    void set(const ApiRequest &request, const ApiReply &reply, const QString &name);
    /// DELETE: forgets the upstream `name` (404 for another name than `default` that does not exist).
    void clear(const ApiRequest &request, const ApiReply &reply, const QString &name);
    /// POST …/check: a plans lookup at the upstream `name`, then its offers read again (409 when not configured).
    void check(const ApiReply &reply, const QString &name);

    Database &m_db;
    const Clock &m_clock;
    UpstreamDispatcher &m_dispatcher;
    TransactionService &m_transactions;
    const OperatorCatalog &m_catalog;
    AuditLog m_audit;
    UpstreamResolver m_resolver;
    UpstreamWebhookReceiver m_receiver;
};
