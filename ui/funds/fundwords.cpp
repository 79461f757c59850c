#include "fundwords.h"

#include <QUrl>

QString FundWords::distributorText(const UpstreamInfo &upstream)
{
    const QUrl url(upstream.baseUrl);
    const QString host = url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
    return host.isEmpty() ? tr("upstream “%1”").arg(upstream.name) : tr("%1 (upstream “%2”)").arg(host, upstream.name);
}

QString FundWords::methodText(const QString &method)
{
    if (method == QLatin1String("upi"))
        return tr("UPI");
    if (method == QLatin1String("bank"))
        return tr("Bank transfer");
    if (method == QLatin1String("cash_deposit"))
        return tr("Cash deposit");
    return method;
}

QString FundWords::stateText(const UpstreamFundRequest &request)
{
    const QString &state = request.state;
    if (state == QLatin1String("sending"))
        return tr("Sending");
    if (state == QLatin1String("pending"))
        return tr("Waiting for the distributor");
    if (state == QLatin1String("approved"))
        return request.creditedAt.isValid() ? tr("Approved — credited") : tr("Approved — crediting here");
    if (state == QLatin1String("rejected"))
        return request.reason.isEmpty() ? tr("Rejected") : tr("Rejected: %1").arg(request.reason);
    if (state == QLatin1String("refused"))
        return request.reason.isEmpty() ? tr("Refused") : tr("Refused: %1").arg(request.reason);
    return state;
}

QString FundWords::differenceText(Paise difference)
{
    if (difference > 0)
        return tr("%1 more here than at the distributor").arg(Money::formatIndian(difference));
    if (difference < 0)
        return tr("%1 less here than at the distributor").arg(Money::formatIndian(-difference));
    return tr("The same here and at the distributor");
}

QString FundWords::directionText(Paise amount)
{
    if (amount > 0)
        return tr("%1 more here").arg(Money::formatIndian(amount));
    if (amount < 0)
        return tr("%1 less here").arg(Money::formatIndian(-amount));
    return Money::formatIndian(0);
}

QString FundWords::explanationText(const UpstreamWallet::Explanation &explanation)
{
    const qint64 count = explanation.count;
    const QString amount = directionText(explanation.amount);
    const bool one = count == 1;
    if (explanation.kind == QLatin1String("unknown_at_upstream"))
        return one ? tr("1 sale not known at the distributor: %1").arg(amount)
                   : tr("%1 sales not known at the distributor: %2").arg(count).arg(amount);
    if (explanation.kind == QLatin1String("pending"))
        return one ? tr("1 sale still pending here: %1").arg(amount)
                   : tr("%1 sales still pending here: %2").arg(count).arg(amount);
    if (explanation.kind == QLatin1String("mismatch"))
        return one ? tr("1 sale failed here but successful at the distributor: %1").arg(amount)
                   : tr("%1 sales failed here but successful at the distributor: %2").arg(count).arg(amount);
    if (explanation.kind == QLatin1String("fund_request_not_credited"))
        return one ? tr("1 approved fund request not credited here yet: %1").arg(amount)
                   : tr("%1 approved fund requests not credited here yet: %2").arg(count).arg(amount);
    return tr("%1 × %2: %3").arg(count).arg(explanation.kind, amount);
}

QString FundWords::unexplainedText(Paise unexplained)
{
    return tr("Unexplained %1 — look into it").arg(directionText(unexplained));
}
