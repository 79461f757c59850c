#pragma once

#include "auth/authcontext.h"
#include "entities/ledgerentry.h"
#include "money.h"

#include <QList>
#include <QString>

class Database;

/// The wallet of each account and mode: a balance row kept equal to the sum of its ledger
/// (api-conventions.md, "Wallet"). Every change writes a ledger row and moves the balance in
/// the caller's transaction. Throws DatabaseError.
class WalletRepository
{
public:
    explicit WalletRepository(Database &db) : m_db(db) {}

    /// Creates the wallet with balance 0 if it does not exist.
    void ensureWallet(qint64 accountId, Mode mode);
    /// PostgreSQL: locks the wallet row until the transaction ends (SELECT ... FOR UPDATE), so writers of
    /// one account's sales take their turns (SQLite's BEGIN IMMEDIATE already serialises all writers).
    void lock(qint64 accountId, Mode mode);
    /// Current balance in paise (0 for a missing wallet).
    Paise balance(qint64 accountId, Mode mode);
    /// Sum of the ledger in paise (for invariant checks and reports).
    Paise ledgerSum(qint64 accountId, Mode mode);
    /// Adds a ledger row of `amount` (signed) and moves the balance by it.
    void post(qint64 accountId, Mode mode, Paise amount, LedgerKind kind, qint64 transactionId, const QString &note,
              const QString &actor, qint64 nowMs);
    /// Debits `amount` (> 0) if the balance covers it, with a ledger row; false (nothing written)
    /// when it does not. Safe under concurrent writers (conditional UPDATE). Issue 30: a shop's live wallet covers down
    /// to minus its credit limit (shops.credit_limit, paise); test wallets and the distributor's have no credit.
    bool debit(qint64 accountId, Mode mode, Paise amount, qint64 transactionId, qint64 nowMs);
    /// Ledger rows newest first; `beforeId` > 0 continues after that row (keyset pagination). A sale's rows carry
    /// the sale's clerk (LedgerEntry::clerk).
    QList<LedgerEntry> ledger(qint64 accountId, Mode mode, int limit, qint64 beforeId = 0);
    /// Ledger rows of one transaction, oldest first.
    QList<LedgerEntry> ledgerForTransaction(qint64 transactionId);

private:
    void insertLedger(qint64 accountId, Mode mode, Paise amount, LedgerKind kind, qint64 transactionId,
                      const QString &note, const QString &actor, qint64 nowMs);
    Database &m_db;
};
