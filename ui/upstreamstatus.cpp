#include "upstreamstatus.h"

#include "clock.h"

UpstreamStatus UpstreamStatus::from(const UpstreamInfo &info)
{
    const auto instant = [](qint64 ms) {
        return ms > 0 ? IstTime::toIst(QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC)) : QDateTime();
    };
    UpstreamStatus status;
    status.configured = info.configured;
    status.baseUrl = info.baseUrl;
    status.keyId = info.keyId;
    status.state = info.state;
    status.since = instant(info.sinceMs);
    status.lastContact = instant(info.lastContactMs);
    status.lastError = info.lastError;
    if (!info.webhookPath.isEmpty())
        status.webhookPath = info.webhookPath;
    status.unknownSales = info.unknownSales;
    status.attentionSales = info.attentionSales;
    status.attentionAfterS = info.attentionAfterS;
    return status;
}

QString UpstreamStatus::statusBarText() const
{
    if (!configured)
        return {};
    if (state == QLatin1String("online"))
        return tr("Upstream online");
    if (state == QLatin1String("unreachable"))
        return since.isValid() ? tr("Upstream unreachable since %1").arg(istClock(since)) : tr("Upstream unreachable");
    return tr("Upstream not contacted yet");
}

QString UpstreamStatus::attentionText() const
{
    if (attentionSales <= 0)
        return {};
    return attentionSales == 1 ? tr("1 sale needs attention") : tr("%1 sales need attention").arg(attentionSales);
}

QString UpstreamStatus::attentionToolTip() const
{
    const qint64 minutes = (attentionAfterS + 59) / 60;
    const QString age = minutes > 0 ? tr("Live sales the upstream has not ended in %1 minutes.").arg(minutes)
                                    : tr("Live sales the upstream has not ended for a long time.");
    return age + QLatin1Char(' ') +
           tr("An admin checks them in Back office → History → Needs attention and ends them by hand.");
}

QString UpstreamStatus::description() const
{
    if (!configured)
        return tr("Not configured: live sales are refused until an upstream is saved here.");
    const QString contact = lastContact.isValid() ? tr(" Last contact %1 IST.").arg(istClock(lastContact)) : QString();
    if (state == QLatin1String("online"))
        return tr("Online.") + contact;
    if (state == QLatin1String("unreachable")) {
        QString text = since.isValid() ? tr("Unreachable since %1 IST.").arg(istClock(since)) : tr("Unreachable.");
        if (!lastError.isEmpty())
            text += QLatin1Char(' ') + tr("Last error: %1").arg(lastError);
        return text + contact;
    }
    return tr("Configured, not contacted yet: the first live sale or Check will try it.");
}

QString UpstreamStatus::istClock(const QDateTime &instant)
{
    return IstTime::timeOfDay(instant);
}
