#include "walletapi.h"

TypedCall<WalletBalance> WalletApi::balance() const
{
    return {m_api.get(QStringLiteral("/api/v1/wallet")), &WalletBalance::fromJson};
}

TypedCall<WalletBalance> WalletApi::topUp(qint64 rupees, const QString &note) const
{
    QJsonObject body{{QStringLiteral("amount"), rupees}};
    if (!note.isEmpty())
        body.insert(QStringLiteral("note"), note);
    return {m_api.post(QStringLiteral("/api/v1/wallet/topups"), body), &WalletBalance::fromJson};
}

QString WalletApi::ledgerPath()
{
    return QStringLiteral("/api/v1/wallet/ledger");
}
