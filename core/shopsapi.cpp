#include "shopsapi.h"

#include "answerreader.h"
#include "entities/entityfields.h"

#include <QJsonArray>

namespace {

QString shopPath(qint64 id)
{
    return ShopsApi::listPath() + QLatin1Char('/') + QString::number(id);
}

QString rupees(Paise amount)
{
    return QString::number(amount / Money::kPaisePerRupee);
}

QUrlQuery rangeQuery(const QDate &from, const QDate &to)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("from"), from.toString(Qt::ISODate));
    query.addQueryItem(QStringLiteral("to"), to.toString(Qt::ISODate));
    return query;
}

} // namespace

std::optional<IssuedShopKey> IssuedShopKey::fromJson(const QJsonObject &json, QString *error)
{
    const QJsonObject keyJson =
        json.value(QStringLiteral("key")).isObject() ? json.value(QStringLiteral("key")).toObject() : json;
    AnswerReader in(keyJson, QStringLiteral("shop key"));
    IssuedShopKey key;
    key.keyId = in.string(u"key_id");
    key.secret = in.string(u"key_secret");
    key.mode = EntityFields::oneOf(in, u"mode", {u"test", u"live"});
    key.scope = in.string(u"scope");
    AnswerReader outer(json, QStringLiteral("shop key"));
    for (const QJsonValue &line : outer.array(u"connect")) {
        if (!line.isString())
            outer.fail(u"connect", QStringLiteral("is not a list of lines"));
        key.connect.append(line.toString());
    }
    if (!in.ok())
        return EntityFields::failed<IssuedShopKey>(in, error);
    if (!outer.ok())
        return EntityFields::failed<IssuedShopKey>(outer, error);
    return key;
}

std::optional<ShopCreated> ShopCreated::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("new shop"));
    EntityFields::expectEntity(in, u"shop_created");
    const QJsonObject shopJson = in.object(u"shop");
    if (!in.ok())
        return EntityFields::failed<ShopCreated>(in, error);
    const std::optional<Shop> shop = Shop::fromJson(shopJson, error);
    if (!shop)
        return std::nullopt;
    const std::optional<IssuedShopKey> key = IssuedShopKey::fromJson(json, error);
    if (!key)
        return std::nullopt;
    return ShopCreated{*shop, *key};
}

std::optional<ShopMargins> ShopMargins::fromJson(const QJsonObject &json, QString *error)
{
    const QJsonObject outer =
        json.value(QStringLiteral("margins")).isObject() ? json.value(QStringLiteral("margins")).toObject() : json;
    AnswerReader in(outer, QStringLiteral("margins"));
    const QJsonObject rates = in.object(u"discount_basis_points");
    ShopMargins margins;
    for (auto it = rates.constBegin(); it != rates.constEnd(); ++it) {
        if (!it.value().isDouble())
            in.fail(u"discount_basis_points", QStringLiteral("%1 is not a number").arg(it.key()));
        margins.discountBasisPoints.insert(it.key(), it.value().toInt());
    }
    if (!in.ok())
        return EntityFields::failed<ShopMargins>(in, error);
    return margins;
}

const QStringList &ShopsApi::ListQuery::sortKeys()
{
    static const QStringList keys{QStringLiteral("name"),         QStringLiteral("balance"),
                                  QStringLiteral("sales"),        QStringLiteral("success_rate"),
                                  QStringLiteral("last_contact"), QStringLiteral("state")};
    return keys;
}

QUrlQuery ShopsApi::ListQuery::toUrlQuery() const
{
    QUrlQuery query;
    if (!q.trimmed().isEmpty())
        query.addQueryItem(QStringLiteral("q"), q.trimmed());
    if (!state.isEmpty())
        query.addQueryItem(QStringLiteral("state"), state);
    if (!sort.isEmpty()) {
        query.addQueryItem(QStringLiteral("sort"), sort);
        query.addQueryItem(QStringLiteral("order"), descending ? QStringLiteral("desc") : QStringLiteral("asc"));
    }
    return query;
}

QString ShopsApi::listPath()
{
    return QStringLiteral("/api/v1/shops");
}

TypedCall<ShopCreated> ShopsApi::add(const NewShop &shop) const
{
    QJsonObject body{{QStringLiteral("name"), shop.name},
                     {QStringLiteral("owner"), shop.owner},
                     {QStringLiteral("mobile"), shop.mobile},
                     {QStringLiteral("circle_code"), shop.circleCode}};
    if (!shop.gstin.isEmpty())
        body.insert(QStringLiteral("gstin"), shop.gstin);
    return {m_api.post(listPath(), body), &ShopCreated::fromJson};
}

TypedCall<ShopDetail> ShopsApi::get(qint64 id) const
{
    return {m_api.get(shopPath(id)), &ShopDetail::fromJson};
}

TypedCall<Shop> ShopsApi::topUp(qint64 id, Paise amount, const QString &method, const QString &reference,
                                const QString &note) const
{
    QJsonObject body{{QStringLiteral("amount"), rupees(amount)}, {QStringLiteral("method"), method}};
    if (!reference.isEmpty())
        body.insert(QStringLiteral("reference"), reference);
    if (!note.isEmpty())
        body.insert(QStringLiteral("note"), note);
    return {m_api.post(shopPath(id) + QStringLiteral("/topups"), body), &Shop::fromJson};
}

TypedCall<Shop> ShopsApi::setCreditLimit(qint64 id, Paise limit) const
{
    return {m_api.put(shopPath(id) + QStringLiteral("/credit-limit"),
                      QJsonObject{{QStringLiteral("credit_limit"), rupees(limit)}}),
            &Shop::fromJson};
}

TypedCall<ShopMargins> ShopsApi::margins(qint64 id) const
{
    return {m_api.get(shopPath(id) + QStringLiteral("/margins")), &ShopMargins::fromJson};
}

TypedCall<ShopMargins> ShopsApi::setMargins(qint64 id, const QMap<QString, int> &basisPoints) const
{
    QJsonObject rates;
    for (auto it = basisPoints.cbegin(); it != basisPoints.cend(); ++it)
        rates.insert(it.key(), it.value());
    return {m_api.put(shopPath(id) + QStringLiteral("/margins"),
                      QJsonObject{{QStringLiteral("discount_basis_points"), rates}}),
            &ShopMargins::fromJson};
}

TypedCall<Shop> ShopsApi::suspend(qint64 id, const QString &reason) const
{
    return {m_api.post(shopPath(id) + QStringLiteral("/suspend"), QJsonObject{{QStringLiteral("reason"), reason}}),
            &Shop::fromJson};
}

TypedCall<Shop> ShopsApi::resume(qint64 id) const
{
    return {m_api.post(shopPath(id) + QStringLiteral("/resume"), QJsonObject()), &Shop::fromJson};
}

TypedCall<Collection<ApiKey>> ShopsApi::keys(qint64 id) const
{
    return {m_api.get(shopPath(id) + QStringLiteral("/keys")), &Collection<ApiKey>::fromJson};
}

TypedCall<IssuedShopKey> ShopsApi::createKey(qint64 id, const QString &name, const QString &mode) const
{
    return {m_api.post(shopPath(id) + QStringLiteral("/keys"),
                       QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("mode"), mode}}),
            &IssuedShopKey::fromJson};
}

TypedCall<IssuedShopKey> ShopsApi::rotateKey(qint64 id, const QString &keyId) const
{
    return {m_api.post(shopPath(id) + QStringLiteral("/keys/%1/rotate").arg(keyId), QJsonObject()),
            &IssuedShopKey::fromJson};
}

TypedCall<ApiKey> ShopsApi::revokeKey(qint64 id, const QString &keyId) const
{
    return {m_api.remove(shopPath(id) + QStringLiteral("/keys/") + keyId), &ApiKey::fromJson};
}

TypedCall<ShopStatement> ShopsApi::statement(qint64 id, const QDate &from, const QDate &to, int limit,
                                             const QString &cursor) const
{
    QUrlQuery query = rangeQuery(from, to);
    query.addQueryItem(QStringLiteral("limit"), QString::number(limit));
    if (!cursor.isEmpty())
        query.addQueryItem(QStringLiteral("cursor"), cursor);
    return {m_api.get(shopPath(id) + QStringLiteral("/statement"), query), &ShopStatement::fromJson};
}

ApiCall *ShopsApi::statementCsv(qint64 id, const QDate &from, const QDate &to) const
{
    QUrlQuery query = rangeQuery(from, to);
    query.addQueryItem(QStringLiteral("format"), QStringLiteral("csv"));
    return m_api.get(shopPath(id) + QStringLiteral("/statement"), query);
}
