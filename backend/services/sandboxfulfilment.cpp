#include "fulfilment.h"

FulfilmentOutcome SandboxFulfilment::decide(const SaleRequest &sale)
{
    if (sale.type == TransactionType::Voucher) {
        const QString email = sale.customerEmail.toLower();
        if (email.contains(QLatin1String("+pendingfail@")))
            return FulfilmentOutcome::PendingThenFailed;
        if (email.contains(QLatin1String("+pending@")))
            return FulfilmentOutcome::PendingThenSuccess;
        if (email.contains(QLatin1String("+failed@")))
            return FulfilmentOutcome::Failed;
        return FulfilmentOutcome::Success;
    }
    if (sale.number.endsWith(QLatin1String("0000")))
        return FulfilmentOutcome::Failed;
    if (sale.number.endsWith(QLatin1String("1111")))
        return FulfilmentOutcome::PendingThenSuccess;
    if (sale.number.endsWith(QLatin1String("2222")))
        return FulfilmentOutcome::PendingThenFailed;
    return FulfilmentOutcome::Success;
}
