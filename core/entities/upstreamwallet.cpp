#include "entities/upstreamwallet.h"

#include "answerreader.h"
#include "entities/entityfields.h"

#include <QJsonArray>

namespace {

QJsonValue moneyOrNull(const std::optional<Paise> &amount)
{
    return amount ? QJsonValue(Money::format(*amount)) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject UpstreamWallet::Explanation::toJson() const
{
    QJsonArray ids;
    for (const qint64 id : transactionIds)
        ids.append(id);
    return QJsonObject{{QStringLiteral("kind"), kind},
                       {QStringLiteral("count"), count},
                       {QStringLiteral("amount"), Money::format(amount)},
                       {QStringLiteral("transaction_ids"), ids}};
}

std::optional<UpstreamWallet::Explanation> UpstreamWallet::Explanation::fromJson(const QJsonObject &json,
                                                                                 QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream wallet explanation"));
    Explanation e;
    e.kind = in.string(u"kind");
    e.count = in.integer(u"count");
    e.amount = in.money(u"amount");
    const QJsonArray ids = in.array(u"transaction_ids");
    for (const QJsonValue &id : ids) {
        if (!id.isDouble()) {
            in.fail(u"transaction_ids", QStringLiteral("holds a value that is not a number"));
            break;
        }
        e.transactionIds.append(id.toInteger());
    }
    if (!in.ok())
        return EntityFields::failed<Explanation>(in, error);
    return e;
}

QJsonObject UpstreamWallet::toJson() const
{
    QJsonArray items;
    for (const Explanation &e : explained)
        items.append(e.toJson());
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("upstream_wallet")},
                       {QStringLiteral("upstream"), upstream},
                       {QStringLiteral("balance"), moneyOrNull(balance)},
                       {QStringLiteral("local_balance"), Money::format(localBalance)},
                       {QStringLiteral("difference"), moneyOrNull(difference)},
                       {QStringLiteral("explained"), items},
                       {QStringLiteral("unexplained"), moneyOrNull(unexplained)},
                       {QStringLiteral("checked_at"), EntityFields::dateTime(checkedAt)},
                       {QStringLiteral("error"), error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error)}};
}

std::optional<UpstreamWallet> UpstreamWallet::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("upstream wallet"));
    EntityFields::expectEntity(in, u"upstream_wallet");
    UpstreamWallet w;
    w.upstream = in.string(u"upstream");
    w.balance = in.optionalMoney(u"balance");
    w.localBalance = in.money(u"local_balance");
    w.difference = in.optionalMoney(u"difference");
    w.explained = in.list<Explanation>(u"explained", &Explanation::fromJson);
    w.unexplained = in.optionalMoney(u"unexplained");
    w.checkedAt = in.dateTime(u"checked_at");
    w.error = in.optionalString(u"error").value_or(QString());
    if (!in.ok())
        return EntityFields::failed<UpstreamWallet>(in, error);
    return w;
}
