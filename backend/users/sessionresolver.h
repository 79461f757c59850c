#pragma once

#include "userrepository.h"

#include <QString>

#include <optional>

class Clock;
class Database;
struct ApiRequest;

/// Finds the signed-in user behind a request's `X-Session-Token` header (a token from
/// POST /api/v1/users/sign-in) and names who acts, for the audit log. Cheap to construct: any
/// controller may own one. Sessions belong to the account of the API key they were made with.
class SessionResolver
{
public:
    /// The request header that carries a session token.
    static constexpr const char *kHeader = "X-Session-Token";

    SessionResolver(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}

    /// SHA-256 of a session token, lower-case hex: the form stored in user_sessions.
    static QString hashToken(const QString &token);

    /// The active user whose unexpired session token the request carries, for the caller's
    /// account; nullopt when there is no header, or the token is unknown, expired, another
    /// account's, or its user was deactivated. Throws DatabaseError only.
    std::optional<UserInfo> userFor(const ApiRequest &request);
    /// Who is acting: "user:<name>" with a valid session, else "key:<key_id>".
    QString actorFor(const ApiRequest &request);
    /// actorFor() for an admin write: additionally throws ApiError 403 PERMISSION_ERROR
    /// (reason `admin_role_required`) when the request carries the session of a clerk, so a
    /// terminal's admin key never lets a signed-in clerk act as an admin.
    QString adminActorFor(const ApiRequest &request);

private:
    Database &m_db;
    const Clock &m_clock;
};
