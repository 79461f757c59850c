#pragma once

#include "users/auditlog.h"
#include "users/userservice.h"

class ApiRouter;
class Clock;
class Database;

/// Clerks and admins of the shop (issue 5 item 2, issue 6 item 6), beyond the spec:
/// POST /api/v1/users/sign-in (pos) {"name", "pin"} -> session; POST /api/v1/users/sign-out
/// (pos, header X-Session-Token); and for admin keys GET /api/v1/users, POST /api/v1/users
/// {"name", "role", "pin"} (201), POST /api/v1/users/{id}/reset-pin {"pin"} and
/// POST /api/v1/users/{id}/deactivate. Admin writes are audited with the signed-in user (or key).
class UsersController
{
public:
    UsersController(Database &db, const Clock &clock);
    void registerRoutes(ApiRouter &router);

private:
    AuditLog m_audit;
    UserService m_users;
};
