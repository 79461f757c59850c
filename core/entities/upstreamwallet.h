#pragma once

#include "money.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/// The shop's float as its RechargeDesk upstream (the distributor) sees it, beside the shop's own live wallet (issue
/// 30, "The shop's float and the distributor's books agree"): the upstream's GET /api/v1/wallet for our key, our live
/// balance, their difference and what explains it (sales the upstream does not know, sales still pending, approved
/// fund requests not yet credited here…), and what is left unexplained. The `upstream_wallet` entity of
/// GET /api/v1/upstreams/{name}/wallet (docs/api/openapi.yaml). Money in paise; times IST "YYYY-MM-DD HH:MM:SS".
struct UpstreamWallet
{
    static constexpr int kMaxTransactionIds = 20; ///< ids listed per explanation, at most

    /// One reason for part of the difference.
    struct Explanation
    {
        /// "unknown_at_upstream" (sales debited here the upstream never took), "pending" (sales still pending
        /// here that the upstream already settled or refunded), "fund_request_not_credited" (approved upstream, not
        /// yet credited here), or another kind a newer server names.
        QString kind;
        qint64 count = 0;
        Paise amount = 0;             ///< the part of the difference it explains (local − upstream sense)
        QList<qint64> transactionIds; ///< at most kMaxTransactionIds (our transaction ids or fund request ids)

        friend bool operator==(const Explanation &, const Explanation &) = default;
        /// {kind, count, amount "₹", transaction_ids [..]}.
        QJsonObject toJson() const;
        static std::optional<Explanation> fromJson(const QJsonObject &json, QString *error);
    };

    QString upstream;                ///< the upstream's name
    std::optional<Paise> balance;    ///< the upstream's figure for us (live); null when it could not be asked
    Paise localBalance = 0;          ///< our live wallet
    std::optional<Paise> difference; ///< localBalance − balance; null with balance
    QList<Explanation> explained;
    std::optional<Paise> unexplained; ///< difference − Σ explained; null with balance
    QDateTime checkedAt;              ///< when the upstream was asked (the answer is cached 30 s)
    QString error;                    ///< why the upstream could not be asked; "" (null) when it answered

    /// {entity "upstream_wallet", upstream, balance|null, local_balance, difference|null, explained [..],
    /// unexplained|null, checked_at, error|null}.
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly; nullopt with *error naming a missing or mistyped field.
    static std::optional<UpstreamWallet> fromJson(const QJsonObject &json, QString *error);
};
