#include "numbersapi.h"

TypedCall<NumberInfo> NumbersApi::lookup(const QString &phoneNumber) const
{
    return {m_api.get(QStringLiteral("/api/v1/numbers/") + QString::fromLatin1(QUrl::toPercentEncoding(phoneNumber))),
            &NumberInfo::fromJson};
}
