#pragma once

class ApiRouter;
class AuditLog;
class WalletService;

/// Beyond the spec (api-conventions.md, "Wallet"): GET /api/v1/wallet (the caller's balance for
/// its key's mode), and for admin keys GET /api/v1/wallet/ledger (limit, cursor) and
/// POST /api/v1/wallet/topups {"amount": rupees, "note": text}; a top-up names the signed-in
/// person (or the key) in the ledger and the audit log.
class WalletController
{
public:
    WalletController(WalletService &wallets, AuditLog &audit) : m_wallets(wallets), m_audit(audit) {}
    void registerRoutes(ApiRouter &router);

private:
    WalletService &m_wallets;
    AuditLog &m_audit;
};
