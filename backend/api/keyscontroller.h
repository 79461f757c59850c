#pragma once

class ApiKeyService;
class AuditLog;
class ApiRouter;
class Authenticator;

/// Back-office API keys (admin scope, api-conventions.md "Authentication"):
/// GET /api/v1/keys (the account's keys, never secrets), POST /api/v1/keys {name, mode, scope}
/// (201 with key_secret, shown this once) and POST /api/v1/keys/{key_id}/revoke. Creating or
/// revoking a live key needs live authority (a live admin key or an admin's session); a key cannot revoke itself (409
/// `cannot_revoke_own_key`). Creations and revocations go to the audit log with the signed-in person (or the key) as
/// actor.
class KeysController
{
public:
    KeysController(ApiKeyService &keys, Authenticator &authenticator, AuditLog &audit)
        : m_keys(keys), m_authenticator(authenticator), m_audit(audit)
    {}
    void registerRoutes(ApiRouter &router);

private:
    ApiKeyService &m_keys;
    Authenticator &m_authenticator;
    AuditLog &m_audit;
};
