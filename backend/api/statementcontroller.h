#pragma once

#include "upstream/statementreconciler.h"
#include "users/auditlog.h"

#include <QMap>
#include <QString>

class ApiRouter;
class Clock;
class Database;
class UpstreamDispatcher;

/// The statement endpoints of issue 26 ("By the upstream's statement"; docs/upstream-contract.md, "HTTP API"):
/// POST /api/v1/upstreams/{name}/statements (live admin) reconciles a CSV statement of that upstream
/// (StatementReconciler) and answers the stored run with its lines for a person; GET
/// /api/v1/upstreams/{name}/statements (admin) lists the runs newest first; GET
/// /api/v1/upstreams/{name}/statements/{id} (admin) answers one run with its lines. An unknown upstream name is 404
/// `unknown_upstream`. The POST's body may be up to ServerOptions::maxStatementBytes (8 MiB by default), granted at the
/// request head to live admins only (kImportPath).
class StatementController
{
public:
    StatementController(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher);
    void registerRoutes(ApiRouter &router);

    /// The statement import's method and route pattern (its larger body limit is granted for them).
    static constexpr const char *kImportMethod = "POST";
    static constexpr const char *kImportPath = "/api/v1/upstreams/{name}/statements";
    /// Most runs GET /api/v1/upstreams/{name}/statements lists.
    static constexpr int kMaxListed = 200;
    /// Longest file_name, in characters.
    static constexpr int kMaxFileName = 255;

    /// The `columns` member of an import body as a field → header name map. Throws ApiError 400 naming `columns` or
    /// `columns.<field>` when it is not an object of non-empty strings of at most 100 characters.
    static QMap<QString, QString> columnsOf(const QJsonValue &value);

private:
    /// The upstream named in the path; throws ApiError 404 `unknown_upstream` when there is none of that name.
    QString upstreamOf(const QString &name);

    Database &m_db;
    UpstreamDispatcher &m_dispatcher;
    AuditLog m_audit;
    StatementReconciler m_reconciler;
};
