#include "authorizer.h"

#include "apierror.h"
#include "authenticator.h"
#include "http/apirequest.h"
#include "users/sessionresolver.h"

namespace {

void requireAdminAuthority(const AuthContext &caller)
{
    if (caller.hasAdminAuthority())
        return;
    if (caller.hasSession())
        throw ApiError::forbidden(
            QStringLiteral("admin_role_required"),
            QStringLiteral("%1 is signed in as a clerk; this needs an admin to sign in").arg(caller.userName));
    throw ApiError::forbidden(QStringLiteral("admin_scope_required"),
                              QStringLiteral("this needs an admin: sign in as an admin, or use an API key with the "
                                             "admin scope"));
}

} // namespace

AuthContext Authorizer::authorize(Access access, const ApiRequest &request)
{
    Q_ASSERT(access != Access::Public);
    AuthContext caller = m_authenticator.authenticate(request.header("authorization"), request.peer);
    const QString token = QString::fromLatin1(request.header(SessionResolver::kHeader)).trimmed();
    if (!token.isEmpty()) {
        const std::optional<UserInfo> user = m_sessions.userForToken(caller.accountId, token);
        if (!user)
            throw ApiError::unauthenticated(QStringLiteral("session_invalid"),
                                            QStringLiteral("the session has ended (signed out, expired after 12 hours, "
                                                           "or the user was deactivated): sign in again"));
        caller.userId = user->id;
        caller.userName = user->name;
        caller.userAdmin = user->role == UserRole::Admin;
    }
    if (access == Access::Person && !caller.hasSession())
        throw ApiError::forbidden(QStringLiteral("session_required"),
                                  QStringLiteral("this belongs to a person: sign in with your name and PIN first"));
    if (access == Access::Admin || access == Access::LiveAdmin)
        requireAdminAuthority(caller);
    if (access == Access::LiveAdmin)
        requireLiveAuthority(caller);
    return caller;
}

std::optional<AuthContext> Authorizer::authorizeFromMemory(Access access, const ApiRequest &request) const
{
    if (access == Access::Public)
        return AuthContext{};
    if (access != Access::Pos || !request.header(SessionResolver::kHeader).trimmed().isEmpty())
        return std::nullopt;
    return m_authenticator.cachedCaller(request.header("authorization"));
}

void Authorizer::requireLiveAuthority(const AuthContext &caller)
{
    requireAdminAuthority(caller);
    if (!caller.hasLiveAuthority())
        throw ApiError::forbidden(QStringLiteral("live_authority_required"),
                                  QStringLiteral("this changes what live sales use: sign in as an admin, or use a live "
                                                 "admin key (a test key changes only test-mode settings)"));
}
