#include "walletservice.h"

#include "apierror.h"
#include "clock.h"
#include "shops/shoprepository.h"
#include "store/database.h"

Paise WalletService::topup(qint64 accountId, Mode mode, Paise amount, const QString &note, const QString &actor)
{
    if (amount <= 0 || amount > kMaxTopup)
        throw ApiError::badRequest(
            QStringLiteral("amount"), QStringLiteral("amount_out_of_range"),
            QStringLiteral("a top-up must be between %1 and %2").arg(Money::format(1), Money::format(kMaxTopup)));
    if (mode == Mode::Live && (note.trimmed().isEmpty() || actor.trimmed().isEmpty()))
        throw ApiError::badRequest(QStringLiteral("note"), QStringLiteral("missing_field"),
                                   QStringLiteral("a live top-up must say why (note) and who (actor)"));
    WalletRepository wallets(m_db);
    WriteTransaction transaction(m_db);
    wallets.post(accountId, mode, amount, LedgerKind::Topup, 0, note.trimmed(), actor.trimmed(), m_clock.nowMs());
    const Paise balance = wallets.balance(accountId, mode);
    transaction.commit();
    return balance;
}

WalletSummary WalletService::summary(qint64 accountId, Mode mode)
{
    WalletRepository wallets(m_db);
    return WalletSummary{mode, wallets.balance(accountId, mode), wallets.ledgerSum(accountId, mode),
                         mode == Mode::Live ? ShopRepository(m_db).creditLimit(accountId) : 0};
}

QList<LedgerEntry> WalletService::ledger(qint64 accountId, Mode mode, int limit, qint64 beforeId)
{
    return WalletRepository(m_db).ledger(accountId, mode, limit, beforeId);
}

QList<LedgerEntry> WalletService::ledgerForTransaction(qint64 transactionId)
{
    return WalletRepository(m_db).ledgerForTransaction(transactionId);
}
