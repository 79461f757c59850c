#pragma once

#include "answer.h"
#include "entities/collection.h"
#include "entities/user.h"

class ApiClient;

/// Typed calls of the shop's people (api-conventions.md "Beyond the spec": users and PIN sign-in); owns the routes.
class UsersApi
{
public:
    explicit UsersApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/users (admin): the collection path, for table models that page through it.
    static QString listPath();
    /// GET /api/v1/audit-log (admin): who did what, newest first; the path for table models.
    static QString auditLogPath();

    /// GET /api/v1/users: every user of the account.
    TypedCall<Collection<User>> list();
    /// POST /api/v1/users (live admin): a new user; `pin` is digits as text (clerk 4-6, admin 6).
    TypedCall<User> create(const QString &name, const QString &role, const QString &pin);
    /// POST /api/v1/users/{id}/reset-pin (live admin).
    TypedCall<User> resetPin(qint64 id, const QString &pin);
    /// POST /api/v1/users/{id}/deactivate (live admin).
    TypedCall<User> deactivate(qint64 id);
    /// POST /api/v1/users/sign-in: a session for `name` with `pin`.
    TypedCall<UserSignIn> signIn(const QString &name, const QString &pin);
    /// POST /api/v1/users/sign-out: ends the session the client sends (X-Session-Token).
    TypedCall<UserSignOut> signOut();

private:
    ApiClient &m_api;
};
