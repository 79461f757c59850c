#pragma once

class ApiRouter;
class Database;

/// The load balancer's probes, no auth (issue 16):
/// - GET /healthz: {"status": "ok"} with 200 when the database answers, 503 otherwise.
/// - GET /readyz: 200 {"status": "ready", "schema_version": N} when the database answers and its applied
///   migrations are exactly the ones this binary knows; else 503 GATEWAY_ERROR with Retry-After (seconds)
///   and reason `database_unavailable`, `migrations_behind` or `migrations_ahead` (a newer server migrated
///   the database: this one should take no traffic).
class HealthController
{
public:
    /// Retry-After (seconds) of a 503 from /readyz for a schema that does not match.
    static constexpr int kSchemaRetryAfterSeconds = 10;

    explicit HealthController(Database &db) : m_db(db) {}
    void registerRoutes(ApiRouter &router);

private:
    Database &m_db;
};
