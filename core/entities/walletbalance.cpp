#include "entities/walletbalance.h"

#include "answerreader.h"

QJsonObject WalletBalance::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("wallet")},
                       {QStringLiteral("mode"), mode},
                       {QStringLiteral("balance"), Money::format(balance)},
                       {QStringLiteral("balance_paise"), balance}};
}

std::optional<WalletBalance> WalletBalance::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("wallet"));
    WalletBalance wallet;
    wallet.mode = in.string(u"mode");
    wallet.balance = in.integer(u"balance_paise");
    if (in.ok() && in.money(u"balance") != wallet.balance)
        in.fail(u"balance", QStringLiteral("does not match balance_paise"));
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return wallet;
}
