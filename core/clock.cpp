#include "clock.h"

#include <QTimeZone>

QDateTime SystemClock::nowUtc() const
{
    return QDateTime::currentDateTimeUtc();
}

ManualClock::ManualClock(QDateTime start) : m_now(start.toUTC())
{}

namespace IstTime {

QDateTime toIst(const QDateTime &instant)
{
    return instant.toOffsetFromUtc(kOffsetSeconds);
}

QString format(const QDateTime &instant)
{
    return toIst(instant).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QDate dateOf(const QDateTime &instant)
{
    return toIst(instant).date();
}

QDateTime at(const QDate &date, const QTime &time)
{
    return QDateTime(date, time, QTimeZone(kOffsetSeconds));
}

QString timeOfDay(const QDateTime &instant, bool withSeconds)
{
    return toIst(instant).toString(withSeconds ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm"));
}

QString formatMs(qint64 epochMs)
{
    return format(QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC));
}

QDateTime parse(const QString &text)
{
    const QTimeZone ist(kOffsetSeconds);
    QDateTime result = QDateTime::fromString(text, QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (!result.isValid() && text.size() == 10)
        result = QDateTime(QDate::fromString(text, QStringLiteral("yyyy-MM-dd")), QTime(0, 0));
    if (!result.isValid())
        return {};
    result.setTimeZone(ist);
    return result;
}

} // namespace IstTime
