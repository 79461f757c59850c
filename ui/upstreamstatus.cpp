#include "upstreamstatus.h"

#include "clock.h"

UpstreamStatus UpstreamStatus::fromJson(const QJsonObject &data)
{
    const auto text = [&data](const char *name) { return data.value(QLatin1String(name)).toString(); };
    UpstreamStatus status;
    status.configured = data.value(QStringLiteral("configured")).toBool();
    status.baseUrl = text("base_url");
    status.keyId = text("key_id");
    status.state = text("state");
    if (status.state.isEmpty())
        status.state = status.configured ? QStringLiteral("unknown") : QStringLiteral("not_configured");
    status.since = parseTime(text("since"));
    status.lastContact = parseTime(text("last_contact"));
    status.lastError = text("last_error");
    if (const QString path = text("webhook_path"); !path.isEmpty())
        status.webhookPath = path;
    status.unknownSales = data.value(QStringLiteral("unknown_sales")).toInteger();
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

QDateTime UpstreamStatus::parseTime(const QString &text)
{
    if (text.isEmpty())
        return {};
    if (text.contains(QLatin1Char('T'))) {
        QDateTime instant = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!instant.isValid())
            instant = QDateTime::fromString(text, Qt::ISODate);
        if (instant.isValid() && instant.timeSpec() == Qt::LocalTime) // no offset given: IST, as every API time
            instant = IstTime::at(instant.date(), instant.time());
        return instant;
    }
    return IstTime::parse(text.left(19));
}

QString UpstreamStatus::istClock(const QDateTime &instant)
{
    return IstTime::timeOfDay(instant);
}
