#include "shopapi.h"

namespace {
const QString kShopPath = QStringLiteral("/api/v1/shop");
}

TypedCall<ShopInfo> ShopApi::get() const
{
    return {m_api.get(kShopPath), &ShopInfo::fromJson};
}

TypedCall<ShopInfo> ShopApi::update(const QJsonObject &changes) const
{
    return {m_api.put(kShopPath, changes), &ShopInfo::fromJson};
}
