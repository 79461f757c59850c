#pragma once

#include <QJsonObject>

class ApiRouter;
class WalletService;
struct LedgerEntry;

/// Beyond the spec (api-conventions.md, "Wallet"): GET /api/v1/wallet (the caller's balance for
/// its key's mode), and for admin keys GET /api/v1/wallet/ledger (limit, cursor) and
/// POST /api/v1/wallet/topups {"amount": rupees, "note": text}.
class WalletController
{
public:
    explicit WalletController(WalletService &wallets) : m_wallets(wallets) {}
    void registerRoutes(ApiRouter &router);
    /// One ledger row as JSON: entity ledger_entry, id, kind, amount (₹ and paise), transaction_id,
    /// note, actor, datetime (IST).
    static QJsonObject ledgerJson(const LedgerEntry &entry);

private:
    WalletService &m_wallets;
};
