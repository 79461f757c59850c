#pragma once

class ApiKeyService;
class AuditLog;
class ApiRouter;
class Authenticator;
class SessionResolver;

/// Back-office API keys (admin scope, api-conventions.md "Authentication"):
/// GET /api/v1/keys (the account's keys, never secrets), POST /api/v1/keys {name, mode, scope}
/// (201 with key_secret, shown this once) and POST /api/v1/keys/{key_id}/revoke. A test key may
/// create only test keys; a key cannot revoke itself (409 `cannot_revoke_own_key`). Creations and
/// revocations go to the audit log with the signed-in person (or the key) as actor.
class KeysController
{
public:
    KeysController(ApiKeyService &keys, Authenticator &authenticator, SessionResolver &sessions, AuditLog &audit)
        : m_keys(keys), m_authenticator(authenticator), m_sessions(sessions), m_audit(audit) {}
    void registerRoutes(ApiRouter &router);

private:
    ApiKeyService &m_keys;
    Authenticator &m_authenticator;
    SessionResolver &m_sessions;
    AuditLog &m_audit;
};
