#include "entities/shop.h"

#include "answerreader.h"
#include "entities/entityfields.h"

#include <QJsonArray>

#include <cmath>

std::optional<double> Shop::Today::successRate() const
{
    const qint64 finished = success + failed;
    if (finished <= 0)
        return std::nullopt;
    return std::round(1000.0 * double(success) / double(finished)) / 10.0;
}

QJsonObject Shop::Today::toJson() const
{
    const std::optional<double> rate = successRate();
    return QJsonObject{{QStringLiteral("sales"), sales},
                       {QStringLiteral("success"), success},
                       {QStringLiteral("failed"), failed},
                       {QStringLiteral("pending"), pending},
                       {QStringLiteral("success_rate"), rate ? QJsonValue(*rate) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("sold"), Money::format(sold)}};
}

std::optional<Shop::Today> Shop::Today::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("shop today"));
    Today today;
    today.sales = in.integer(u"sales");
    today.success = in.integer(u"success");
    today.failed = in.integer(u"failed");
    today.pending = in.integer(u"pending");
    today.sold = in.money(u"sold");
    const QJsonValue rate = json.value(QStringLiteral("success_rate"));
    if (!rate.isNull() && !rate.isUndefined() && !rate.isDouble())
        in.fail(u"success_rate", QStringLiteral("is not a number or null"));
    if (!in.ok())
        return EntityFields::failed<Today>(in, error);
    return today;
}

const QStringList &Shop::states()
{
    static const QStringList names{QStringLiteral("active"), QStringLiteral("suspended")};
    return names;
}

QJsonObject Shop::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("shop")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("owner"), owner},
                       {QStringLiteral("mobile"), mobile},
                       {QStringLiteral("circle_code"), circleCode},
                       {QStringLiteral("gstin"), gstin},
                       {QStringLiteral("state"), state},
                       {QStringLiteral("suspended_reason"),
                        suspendedReason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(suspendedReason)},
                       {QStringLiteral("suspended_at"),
                        suspendedAt.isValid() ? EntityFields::dateTime(suspendedAt) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("balance"), Money::format(balance)},
                       {QStringLiteral("credit_limit"), Money::format(creditLimit)},
                       {QStringLiteral("available"), Money::format(available())},
                       {QStringLiteral("today"), today.toJson()},
                       {QStringLiteral("last_contact_at"),
                        lastContactAt.isValid() ? EntityFields::dateTime(lastContactAt) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("created_at"), EntityFields::dateTime(createdAt)}};
}

std::optional<Shop> Shop::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("shop"));
    EntityFields::expectEntity(in, u"shop");
    Shop s;
    s.id = in.integer(u"id");
    s.name = in.string(u"name");
    s.owner = in.string(u"owner");
    s.mobile = in.string(u"mobile");
    s.circleCode = in.string(u"circle_code");
    s.gstin = in.string(u"gstin");
    s.state = EntityFields::oneOf(in, u"state", {u"active", u"suspended"});
    s.suspendedReason = in.optionalString(u"suspended_reason").value_or(QString());
    s.suspendedAt = EntityFields::optionalDateTime(in, u"suspended_at").value_or(QDateTime());
    s.balance = in.money(u"balance");
    s.creditLimit = in.money(u"credit_limit");
    s.lastContactAt = EntityFields::optionalDateTime(in, u"last_contact_at").value_or(QDateTime());
    s.createdAt = in.dateTime(u"created_at");
    const QJsonObject today = in.object(u"today");
    if (in.ok()) {
        QString why;
        const std::optional<Today> decoded = Today::fromJson(today, &why);
        if (decoded)
            s.today = *decoded;
        else
            in.fail(u"today", why);
    }
    if (!in.ok())
        return EntityFields::failed<Shop>(in, error);
    return s;
}

QJsonObject ShopDetail::toJson() const
{
    QJsonObject json = shop.toJson();
    QJsonObject basisPoints;
    for (auto it = discountBasisPoints.cbegin(); it != discountBasisPoints.cend(); ++it)
        basisPoints.insert(it.key(), it.value());
    json.insert(QStringLiteral("margins"), QJsonObject{{QStringLiteral("discount_basis_points"), basisPoints}});
    QJsonArray keyArray;
    for (const ApiKey &key : keys)
        keyArray.append(key.toJson());
    json.insert(QStringLiteral("keys"), keyArray);
    return json;
}

std::optional<ShopDetail> ShopDetail::fromJson(const QJsonObject &json, QString *error)
{
    QString why;
    std::optional<Shop> shop = Shop::fromJson(json, &why);
    if (!shop) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    AnswerReader in(json, QStringLiteral("shop"));
    ShopDetail detail;
    detail.shop = std::move(*shop);
    const QJsonObject margins = in.object(u"margins");
    if (in.ok()) {
        AnswerReader marginsIn(margins, QStringLiteral("shop margins"));
        const QJsonObject basisPoints = marginsIn.object(u"discount_basis_points");
        for (auto it = basisPoints.begin(); marginsIn.ok() && it != basisPoints.end(); ++it) {
            if (!it.value().isDouble())
                marginsIn.fail(u"discount_basis_points", QStringLiteral("%1 is not a number").arg(it.key()));
            else
                detail.discountBasisPoints.insert(it.key(), it.value().toInt());
        }
        if (!marginsIn.ok())
            in.fail(u"margins", marginsIn.error());
    }
    if (in.ok())
        detail.keys = in.list<ApiKey>(u"keys", &ApiKey::fromJson);
    if (!in.ok())
        return EntityFields::failed<ShopDetail>(in, error);
    return detail;
}
