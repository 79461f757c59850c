#include "walletrepository.h"

#include "database.h"

namespace {

QList<LedgerEntry> readLedger(QSqlQuery &q)
{
    QList<LedgerEntry> rows;
    while (q.next()) {
        LedgerEntry e;
        e.id = q.value(0).toLongLong();
        e.amount = q.value(1).toLongLong();
        e.kind = LedgerNames::kindFromString(q.value(2).toString()).value_or(LedgerKind::Topup);
        e.transactionId = q.value(3).toLongLong();
        e.note = q.value(4).toString();
        e.actor = q.value(5).toString();
        e.createdAtMs = q.value(6).toLongLong();
        e.clerk = q.value(7).toString();
        rows.append(e);
    }
    q.finish();
    return rows;
}

// A sale's rows carry no actor (the sale is the reason); its clerk comes from the sale (issue 27).
const QString kLedgerColumns = QStringLiteral(
    "SELECT l.id, l.amount, l.kind, COALESCE(l.transaction_id, 0), l.note, l.actor, l.created_at, COALESCE(t.clerk, '')"
    " FROM wallet_ledger l LEFT JOIN transactions t ON t.id = l.transaction_id");

} // namespace

void WalletRepository::ensureWallet(qint64 accountId, Mode mode)
{
    m_db.run(QStringLiteral("INSERT INTO wallets (account_id, mode, balance) VALUES (?, ?, 0)"
                            " ON CONFLICT (account_id, mode) DO NOTHING"),
             {accountId, ModeNames::mode(mode)});
}

void WalletRepository::lock(qint64 accountId, Mode mode)
{
    if (!m_db.isPostgres())
        return;
    m_db.run(QStringLiteral("SELECT balance FROM wallets WHERE account_id = ? AND mode = ? FOR UPDATE"),
             {accountId, ModeNames::mode(mode)})
        .finish();
}

Paise WalletRepository::balance(qint64 accountId, Mode mode)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT balance FROM wallets WHERE account_id = ? AND mode = ?"),
                            {accountId, ModeNames::mode(mode)});
    const Paise value = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return value;
}

Paise WalletRepository::ledgerSum(qint64 accountId, Mode mode)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT COALESCE(SUM(amount), 0) FROM wallet_ledger WHERE account_id = ? AND mode = ?"),
                 {accountId, ModeNames::mode(mode)});
    const Paise value = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return value;
}

void WalletRepository::insertLedger(qint64 accountId, Mode mode, Paise amount, LedgerKind kind, qint64 transactionId,
                                    const QString &note, const QString &actor, qint64 nowMs)
{
    m_db.run(QStringLiteral(
                 "INSERT INTO wallet_ledger (account_id, mode, amount, kind, transaction_id, note, actor, created_at)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
             {accountId, ModeNames::mode(mode), amount, LedgerNames::kind(kind),
              transactionId > 0 ? QVariant(transactionId) : QVariant(QMetaType::fromType<qlonglong>()), textValue(note),
              textValue(actor), nowMs});
}

void WalletRepository::post(qint64 accountId, Mode mode, Paise amount, LedgerKind kind, qint64 transactionId,
                            const QString &note, const QString &actor, qint64 nowMs)
{
    ensureWallet(accountId, mode);
    m_db.run(QStringLiteral("UPDATE wallets SET balance = balance + ? WHERE account_id = ? AND mode = ?"),
             {amount, accountId, ModeNames::mode(mode)});
    insertLedger(accountId, mode, amount, kind, transactionId, note, actor, nowMs);
}

bool WalletRepository::debit(qint64 accountId, Mode mode, Paise amount, qint64 transactionId, qint64 nowMs)
{
    // Issue 30: a shop's live wallet may go down to -credit_limit (its shops row, read in this statement, so inside
    // the sale's transaction); every other wallet to 0.
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE wallets SET balance = balance - ?"
                                           " WHERE account_id = ? AND mode = ? AND balance + COALESCE((SELECT"
                                           " s.credit_limit FROM shops s WHERE s.account_id = wallets.account_id"
                                           " AND wallets.mode = 'live'), 0) >= ?"),
                            {amount, accountId, ModeNames::mode(mode), amount});
    if (q.numRowsAffected() != 1)
        return false;
    insertLedger(accountId, mode, -amount, LedgerKind::Debit, transactionId, QString(), QString(), nowMs);
    return true;
}

QList<LedgerEntry> WalletRepository::ledger(qint64 accountId, Mode mode, int limit, qint64 beforeId)
{
    QSqlQuery &q =
        m_db.run(kLedgerColumns + QStringLiteral(" WHERE l.account_id = ? AND l.mode = ? AND (? = 0 OR l.id < ?)"
                                                 " ORDER BY l.id DESC LIMIT ?"),
                 {accountId, ModeNames::mode(mode), beforeId, beforeId, limit});
    return readLedger(q);
}

QList<LedgerEntry> WalletRepository::ledgerForTransaction(qint64 transactionId)
{
    QSqlQuery &q =
        m_db.run(kLedgerColumns + QStringLiteral(" WHERE l.transaction_id = ? ORDER BY l.id"), {transactionId});
    return readLedger(q);
}
