#pragma once

class ApiRouter;
class Database;

/// GET /healthz (no auth): {"status": "ok"} with 200 when the database answers, 503 otherwise.
class HealthController
{
public:
    explicit HealthController(Database &db) : m_db(db) {}
    void registerRoutes(ApiRouter &router);

private:
    Database &m_db;
};
