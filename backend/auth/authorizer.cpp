#include "authorizer.h"

#include "apierror.h"
#include "authenticator.h"
#include "http/apirequest.h"
#include "shops/contacttracker.h"
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

ApiError accountSuspended()
{
    return ApiError::forbidden(QStringLiteral("account_suspended"),
                               QStringLiteral("this shop is suspended by its distributor: its sales and wallet can be "
                                              "read and funds requested, nothing else until it is resumed"));
}

} // namespace

AuthContext Authorizer::authorize(Access access, const ApiRequest &request, bool openWhileSuspended)
{
    Q_ASSERT(access != Access::Public);
    AuthContext caller = m_authenticator.authenticate(request.header("authorization"), request.peer);
    if (caller.shop && m_contacts)
        m_contacts->mark(caller.accountId);
    if (caller.suspended && !openWhileSuspended)
        throw accountSuspended();
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

std::optional<AuthContext> Authorizer::authorizeFromMemory(Access access, const ApiRequest &request,
                                                           bool openWhileSuspended) const
{
    if (access == Access::Public)
        return AuthContext{};
    if (access != Access::Pos || !request.header(SessionResolver::kHeader).trimmed().isEmpty())
        return std::nullopt;
    std::optional<AuthContext> caller = m_authenticator.cachedCaller(request.header("authorization"));
    if (caller && caller->suspended && !openWhileSuspended)
        return std::nullopt; // the server thread answers the 403
    if (caller && caller->shop && m_contacts)
        m_contacts->mark(caller->accountId);
    return caller;
}

void Authorizer::requireDistributor(const AuthContext &caller)
{
    if (caller.shop)
        throw ApiError::forbidden(QStringLiteral("distributor_only"),
                                  QStringLiteral("only the distributor's own account manages shops; this key belongs "
                                                 "to a shop"));
}

void Authorizer::requireLiveAuthority(const AuthContext &caller)
{
    requireAdminAuthority(caller);
    if (!caller.hasLiveAuthority())
        throw ApiError::forbidden(QStringLiteral("live_authority_required"),
                                  QStringLiteral("this changes what live sales use: sign in as an admin, or use a live "
                                                 "admin key (a test key changes only test-mode settings)"));
}
