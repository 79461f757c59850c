#include "salesapi.h"

TypedCall<TransactionRecord> SalesApi::initiate(ProductKind kind, const QJsonObject &body) const
{
    return {m_api.post(initiatePath(kind), body), &TransactionRecord::fromJson};
}

QString SalesApi::initiatePath(ProductKind kind)
{
    switch (kind) {
    case ProductKind::Mobile:
        return QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
    case ProductKind::Dth:
        return QStringLiteral("/api/v1/recharge/dth/initiate-transaction");
    case ProductKind::Voucher:
        return QStringLiteral("/api/v1/voucher/appstore/initiate-transaction");
    }
    Q_UNREACHABLE();
}
