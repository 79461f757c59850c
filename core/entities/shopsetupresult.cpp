#include "shopsetupresult.h"

#include "entityfields.h"

QJsonObject ShopSetupRequest::toJson() const
{
    return QJsonObject{{QStringLiteral("shop_name"), shopName},
                       {QStringLiteral("shop_address"), shopAddress},
                       {QStringLiteral("admin_name"), adminName},
                       {QStringLiteral("admin_pin"), adminPin}};
}

std::optional<ShopSetupResult> ShopSetupResult::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("shop setup"));
    EntityFields::expectEntity(in, u"shop_setup");
    ShopSetupResult result;
    result.keyId = in.string(u"key_id");
    result.keySecret = in.string(u"key_secret");
    if (!in.ok())
        return EntityFields::failed<ShopSetupResult>(in, error);
    return result;
}

QJsonObject ShopSetupResult::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("shop_setup")},
                       {QStringLiteral("key_id"), keyId},
                       {QStringLiteral("key_secret"), keySecret}};
}
