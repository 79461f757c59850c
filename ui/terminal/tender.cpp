#include "tender.h"

namespace Tenders {

QString wireName(Tender tender)
{
    return tender == Tender::Upi ? QStringLiteral("upi") : QStringLiteral("cash");
}

Tender fromWireName(const QString &text, Tender fallback)
{
    if (text == QLatin1String("upi"))
        return Tender::Upi;
    if (text == QLatin1String("cash"))
        return Tender::Cash;
    return fallback;
}

} // namespace Tenders
