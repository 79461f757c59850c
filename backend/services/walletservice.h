#pragma once

#include "auth/authcontext.h"
#include "store/walletrepository.h"

class Clock;
class Database;

/// A wallet's state: the balance row and, for checking, the sum of its ledger (paise).
struct WalletSummary
{
    Mode mode = Mode::Test;
    Paise balance = 0;
    Paise ledgerSum = 0;
    Paise creditLimit = 0; ///< issue 30: how far below zero a shop's live wallet may go (0 for every other wallet)
};

/// Wallet top-ups and reads (api-conventions.md, "Wallet"). Test wallets are topped up freely;
/// live top-ups must say who and why, and are kept in the ledger with both.
class WalletService
{
public:
    /// Largest single top-up: ₹10,00,000.00 (a guard against a typo of extra zeros).
    static constexpr Paise kMaxTopup = 1'000'000LL * 100;

    WalletService(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}

    /// Credits `amount` paise (1 .. kMaxTopup) to the account's wallet of `mode` with a ledger
    /// row naming `actor` and `note`. Throws ApiError 400 for a bad amount, or an empty note or
    /// actor on a live wallet; DatabaseError on storage failure. Returns the new balance.
    Paise topup(qint64 accountId, Mode mode, Paise amount, const QString &note, const QString &actor);
    WalletSummary summary(qint64 accountId, Mode mode);
    /// Ledger rows newest first, keyset-paginated by `beforeId`.
    QList<LedgerEntry> ledger(qint64 accountId, Mode mode, int limit, qint64 beforeId);
    /// Ledger rows of one transaction, oldest first.
    QList<LedgerEntry> ledgerForTransaction(qint64 transactionId);

private:
    Database &m_db;
    const Clock &m_clock;
};
