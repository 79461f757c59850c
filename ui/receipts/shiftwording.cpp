#include "shiftwording.h"

#include "clock.h"

#include <QLocale>

QString ShiftWording::differenceText(std::optional<Paise> difference)
{
    if (!difference)
        return QStringLiteral("—");
    if (*difference < 0)
        return tr("Short %1").arg(Money::formatIndian(-*difference));
    if (*difference > 0)
        return tr("Over %1").arg(Money::formatIndian(*difference));
    return Money::formatIndian(0);
}

ReportTone ShiftWording::differenceTone(std::optional<Paise> difference)
{
    if (!difference || *difference == 0)
        return ReportTone::Plain;
    return *difference < 0 ? ReportTone::Short : ReportTone::Over;
}

QColor ShiftWording::toneColour(ReportTone tone)
{
    switch (tone) {
    case ReportTone::Short:
        return {0xb4, 0x23, 0x18};
    case ReportTone::Over:
        return {0xb5, 0x47, 0x08};
    case ReportTone::Plain:
        break;
    }
    return {};
}

QString ShiftWording::moneyText(std::optional<Paise> paise, const QString &none)
{
    return paise ? Money::formatIndian(*paise) : none;
}

QString ShiftWording::stateText(const QString &state)
{
    if (state == QLatin1String("open"))
        return tr("Open");
    if (state == QLatin1String("closed"))
        return tr("Closed");
    return state;
}

QString ShiftWording::tenderName(const QString &tender)
{
    if (tender == QLatin1String("cash"))
        return tr("Cash");
    if (tender == QLatin1String("upi"))
        return tr("UPI");
    return tr("Not recorded");
}

QString ShiftWording::directionText(const QString &direction)
{
    return direction == QLatin1String("in") ? tr("In") : tr("Out");
}

QString ShiftWording::timeText(const QDateTime &instant, const QDate &day)
{
    if (!instant.isValid())
        return {};
    const QDateTime ist = IstTime::toIst(instant);
    if (day.isValid() && ist.date() == day)
        return IstTime::timeOfDay(instant);
    return QLocale().toString(ist, QStringLiteral("d MMM yyyy HH:mm"));
}
