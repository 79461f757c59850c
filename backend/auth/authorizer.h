#pragma once

#include "authcontext.h"

#include <optional>

class Authenticator;
class ContactTracker;
class SessionResolver;
struct ApiRequest;

/// Who may call a route. Every route of the ApiRouter declares one, and the Authorizer applies
/// it before the handler runs, so no handler can forget the role check (issue 12, "Roles are
/// the server's word"). See docs/operations.md, "Keys, sessions and roles".
enum class Access
{
    Public,   ///< anyone, without credentials
    Pos,      ///< any valid key of the account (pos or admin scope)
    Person,   ///< any valid key of the account with a signed-in person's session (issue 28: shifts are a person's)
    Admin,    ///< admin authority (AuthContext::hasAdminAuthority)
    LiveAdmin ///< live admin authority (AuthContext::hasLiveAuthority): changes what live money uses
};

/// Authenticates the key of a request (Authenticator) and resolves its X-Session-Token, then
/// checks the route's Access. The rule, in one place:
/// - a session token that is sent must be valid (known, unexpired, of the key's account, of an
///   active user) on every authenticated route, else 401 AUTHENTICATION_ERROR `session_invalid`;
/// - Person routes need a person's session (any role): without one 403 `session_required`;
/// - Admin routes need an admin's session (with any key of the account) or an admin-scope key
///   used without a session; a clerk's session is 403 `admin_role_required`, a pos key without
///   a session 403 `admin_scope_required`;
/// - LiveAdmin routes additionally refuse a test admin key without a session: 403
///   `live_authority_required` (a test key changes only test-mode things);
/// - issue 30: a suspended shop's key is 403 `account_suspended` on every route not kept open for it
///   (`openWhileSuspended`: reading its sales and wallet, asking for funds), and every call of a shop's key marks its
///   last contact (ContactTracker) once the key is verified.
class Authorizer
{
public:
    Authorizer(Authenticator &authenticator, SessionResolver &sessions)
        : m_authenticator(authenticator), m_sessions(sessions)
    {}

    /// The caller of `request` for a route of `access` (not Public). Throws ApiError 401, 403 or
    /// 429 as above and as Authenticator::authenticate(); DatabaseError on storage failure.
    AuthContext authorize(Access access, const ApiRequest &request, bool openWhileSuspended = false);

    /// The caller of `request` for a route of `access` as authorize() would find it, decided from memory alone, on
    /// any thread (HttpWorkerPool's workers): an empty context for Public; for Pos, a key verified recently and sent
    /// without a session token (Authenticator::cachedCaller). Nothing whenever the answer needs the database (a
    /// session token, an unknown or unverified key, an Admin route) or would be an error: then authorize() on the
    /// server thread decides, with its throttles and errors.
    std::optional<AuthContext> authorizeFromMemory(Access access, const ApiRequest &request,
                                                   bool openWhileSuspended = false) const;

    /// Where the calls of shops' keys are marked (issue 30, last contact); none by default.
    void setContactTracker(ContactTracker *contacts) { m_contacts = contacts; }

    /// The 403 for a LiveAdmin action refused to `caller` (also for a handler whose check
    /// depends on the body, e.g. which shop settings change).
    static void requireLiveAuthority(const AuthContext &caller);
    /// Issue 30: the 403 `distributor_only` for a caller of a shop's account (every /api/v1/shops route; whatever the
    /// key's scope).
    static void requireDistributor(const AuthContext &caller);

private:
    Authenticator &m_authenticator;
    SessionResolver &m_sessions;
    ContactTracker *m_contacts = nullptr;
};
