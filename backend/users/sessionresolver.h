#pragma once

#include "userrepository.h"

#include <QString>

#include <optional>

class Clock;
class Database;

/// Finds the signed-in user behind a request's `X-Session-Token` header (a token from
/// POST /api/v1/users/sign-in). Cheap to construct. Sessions belong to the account of the API key
/// they were made with.
class SessionResolver
{
public:
    /// The request header that carries a session token.
    static constexpr const char *kHeader = "X-Session-Token";

    SessionResolver(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}

    /// SHA-256 of a session token, lower-case hex: the form stored in user_sessions.
    static QString hashToken(const QString &token);

    /// The active user whose unexpired session `token` (as sent in the header) belongs to the
    /// account; nullopt when the token is unknown, expired, another account's, over-long, or its
    /// user was deactivated. Throws DatabaseError only. The Authorizer calls this for every
    /// request that carries the header.
    std::optional<UserInfo> userForToken(qint64 accountId, const QString &token);

private:
    Database &m_db;
    const Clock &m_clock;
};
