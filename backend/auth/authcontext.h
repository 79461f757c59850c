#pragma once

#include <QString>

#include <optional>

/// Test keys run against the sandbox and the test wallet; live keys against the configured
/// fulfilment provider and the live wallet (api-conventions.md, "Authentication").
enum class Mode
{
    Test,
    Live
};

/// pos: the spec's endpoints, status checks, own wallet. admin: everything.
enum class Scope
{
    Pos,
    Admin
};

namespace ModeNames {
QString mode(Mode mode);                               ///< "test" / "live"
QString scope(Scope scope);                            ///< "pos" / "admin"
std::optional<Mode> modeFromString(const QString &);   ///< from "test" / "live"
std::optional<Scope> scopeFromString(const QString &); ///< from "pos" / "admin"
} // namespace ModeNames

/// Who is calling: the account, the key and what it may do, and the signed-in person when the
/// request carries a valid X-Session-Token. Made by the Authenticator (key part) and the
/// Authorizer (person part).
struct AuthContext
{
    qint64 accountId = 0;
    QString keyId;
    Mode mode = Mode::Test;
    Scope scope = Scope::Pos;
    qint64 userId = 0;      ///< the signed-in person's id; 0 without a session
    QString userName;       ///< the signed-in person's name; empty without a session
    bool userAdmin = false; ///< the signed-in person is an admin
    /// Issue 30: the key's account is one of the distributor's shops (a row of `shops`), not the server's own account.
    bool shop = false;
    /// Issue 30: the key's account is a suspended shop (its calls answer 403 account_suspended but on the routes kept
    /// open, ApiRouter::keepOpenWhileSuspended).
    bool suspended = false;

    /// True when a person signed in (the request carried a valid session token).
    bool hasSession() const { return userId != 0; }
    /// Admin power: an admin's session (whatever the key's scope), or an admin-scope key used
    /// without any session (an integration outside the terminal). A clerk's session never has it.
    bool hasAdminAuthority() const { return hasSession() ? userAdmin : scope == Scope::Admin; }
    /// Power over what live money uses (live sale terms, users, catalogue, upstream): an admin
    /// who proved a PIN (admin session), or a live admin-scope key without a session. A test
    /// admin key alone changes only test-mode things.
    bool hasLiveAuthority() const { return hasSession() ? userAdmin : scope == Scope::Admin && mode == Mode::Live; }
    /// Who acts, for the audit log: "user:<name>" with a session, else "key:<key_id>".
    QString actor() const;
};
