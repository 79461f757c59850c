#include "upstreamsale.h"

UpstreamSale UpstreamSale::fromRecord(const QJsonObject &record)
{
    UpstreamSale sale;
    const QJsonValue value = record.value(QStringLiteral("upstream"));
    if (!value.isObject())
        return sale;
    const QJsonObject upstream = value.toObject();
    sale.present = true;
    sale.state = upstream.value(QStringLiteral("state")).toString();
    sale.referenceId = upstream.value(QStringLiteral("reference_id")).toString();
    sale.upstreamTransactionId = upstream.value(QStringLiteral("transaction_id")).toInteger();
    sale.attempts = upstream.value(QStringLiteral("attempts")).toInteger();
    const QJsonObject error = upstream.value(QStringLiteral("error")).toObject();
    sale.errorCode = error.value(QStringLiteral("code")).toString();
    sale.errorDescription = error.value(QStringLiteral("description")).toString();
    return sale;
}

bool UpstreamSale::isUnknownState(const QString &state)
{
    return state == QLatin1String("queued") || state == QLatin1String("sent") || state == QLatin1String("unknown");
}

bool UpstreamSale::isWaiting() const
{
    return isUnknown() || state == QLatin1String("pending");
}

QString UpstreamSale::stateText() const
{
    if (state == QLatin1String("queued"))
        return tr("Queued: not yet sent to the upstream");
    if (state == QLatin1String("sent"))
        return tr("Sent: waiting for the upstream's first answer");
    if (state == QLatin1String("unknown"))
        return tr("Unknown: no definite answer yet; being sent again with the same reference");
    if (state == QLatin1String("pending"))
        return tr("Pending at the upstream: waiting for the operator's answer");
    if (state == QLatin1String("settled"))
        return tr("Settled by the upstream");
    if (state == QLatin1String("refused"))
        return tr("Refused by the upstream (refunded)");
    return state;
}

QString UpstreamSale::errorText() const
{
    const QString code = errorCode.toUpper();
    if (code == QLatin1String("INSUFFICIENT_BALANCE"))
        return tr("The distributor's wallet is short — nothing was charged to the customer. Ask the distributor to "
                  "top up, then sell again.");
    if (code == QLatin1String("AUTHENTICATION_ERROR") || code == QLatin1String("PERMISSION_ERROR"))
        return tr("The upstream did not accept this shop's key — nothing was charged to the customer. An admin "
                  "should check Back office → Settings → Upstream.");
    if (code == QLatin1String("CONFLICT_ERROR"))
        return tr("The upstream already has a different sale under this reference — nothing was charged to the "
                  "customer. Sell again.");
    if (code == QLatin1String("BAD_REQUEST_ERROR") || code == QLatin1String("VALIDATION_ERROR")) {
        return errorDescription.isEmpty()
                   ? tr("The upstream refused the sale's details — nothing was charged to the customer.")
                   : tr("The upstream refused the sale's details (%1) — nothing was charged to the customer.")
                         .arg(errorDescription);
    }
    if (!errorDescription.isEmpty())
        return tr("The upstream answered: %1").arg(errorDescription);
    return errorCode.isEmpty() ? QString() : tr("The upstream answered %1.").arg(errorCode);
}
