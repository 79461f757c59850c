#include "upstreamsaleinfo.h"

#include <algorithm>

UpstreamSaleInfo UpstreamSaleInfo::fromRecord(const TransactionRecord &record)
{
    UpstreamSaleInfo sale;
    const std::optional<SaleUpstream> upstream = record.upstreamSale();
    if (!upstream)
        return sale;
    sale.present = true;
    sale.state = upstream->state;
    sale.referenceId = upstream->referenceId;
    sale.upstreamTransactionId = upstream->transactionId.value_or(0);
    sale.attempts = upstream->attempts;
    if (upstream->error) {
        sale.errorCode = upstream->error->code;
        sale.errorDescription = upstream->error->description;
    }
    return sale;
}

bool UpstreamSaleInfo::isUnknownState(const QString &state)
{
    return state == QLatin1String("queued") || state == QLatin1String("sent") || state == QLatin1String("unknown");
}

bool UpstreamSaleInfo::isWaiting() const
{
    return isUnknown() || state == QLatin1String("pending");
}

QString UpstreamSaleInfo::stateText() const
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

QString UpstreamSaleInfo::knownErrorText() const
{
    // The server keeps the upstream's reason (snake_case), else its code, else http_<status>.
    const QString code = errorCode.toLower();
    const auto among = [&code](std::initializer_list<const char *> names) {
        return std::any_of(names.begin(), names.end(),
                           [&code](const char *name) { return code == QLatin1String(name); });
    };
    if (among({"insufficient_balance", "http_402"}))
        return tr("The distributor's wallet is short — nothing was charged to the customer. Ask the distributor to "
                  "top up, then sell again.");
    if (among({"invalid_credentials", "missing_credentials", "malformed_credentials", "key_revoked",
               "authentication_error", "permission_error", "http_401", "http_403"}))
        return tr("The upstream did not accept this shop's key — nothing was charged to the customer. An admin "
                  "should check Back office → Settings → Upstream.");
    if (among({"reference_id_reused", "conflict_error", "http_409"}))
        return tr("The upstream already has a different sale under this reference — nothing was charged to the "
                  "customer. Sell again.");
    if (among({"bad_request_error", "http_400", "http_422"})) {
        return errorDescription.isEmpty()
                   ? tr("The upstream refused the sale's details — nothing was charged to the customer.")
                   : tr("The upstream refused the sale's details (%1) — nothing was charged to the customer.")
                         .arg(errorDescription);
    }
    return {};
}

QString UpstreamSaleInfo::errorText() const
{
    if (const QString known = knownErrorText(); !known.isEmpty())
        return known;
    if (!errorDescription.isEmpty())
        return tr("The upstream said: %1").arg(errorDescription);
    return errorCode.isEmpty() ? QString() : tr("The upstream said: %1").arg(errorCode);
}

QString UpstreamSaleInfo::refusalText() const
{
    if (const QString known = knownErrorText(); !known.isEmpty())
        return known;
    const QString why = errorDescription.isEmpty() ? errorCode : errorDescription;
    return why.isEmpty() ? tr("The upstream refused the sale — nothing was charged to the customer.")
                         : tr("The upstream refused the sale (%1) — nothing was charged to the customer.").arg(why);
}
