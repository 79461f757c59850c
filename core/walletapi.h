#pragma once

#include "answer.h"
#include "entities/walletbalance.h"

/// Typed calls of the wallet (api-conventions.md, "Wallet"); owns their routes.
class WalletApi
{
public:
    explicit WalletApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/wallet: the balance of the key's mode.
    TypedCall<WalletBalance> balance() const;
    /// POST /api/v1/wallet/topups (admin): credits whole `rupees` with `note` (required for a
    /// live wallet); answers the new balance (201).
    TypedCall<WalletBalance> topUp(qint64 rupees, const QString &note) const;
    /// The path of GET /api/v1/wallet/ledger (admin; limit, cursor), for a paged list model.
    static QString ledgerPath();

private:
    ApiClient &m_api;
};
