#pragma once

#include <QDateTime>
#include <QMutex>
#include <QMutexLocker>
#include <QString>

/// Source of the current time, so tests can drive expiry and settlement (architecture.md, "Seams").
class Clock
{
public:
    virtual ~Clock() = default;
    /// The current instant, in UTC.
    virtual QDateTime nowUtc() const = 0;
    /// The current instant as milliseconds since the Unix epoch (UTC).
    qint64 nowMs() const { return nowUtc().toMSecsSinceEpoch(); }
};

/// The system clock.
class SystemClock final : public Clock
{
public:
    QDateTime nowUtc() const override;
};

/// A clock that only moves when told to; starts at the given instant. Safe to read on one thread
/// (the webhook delivery thread) while a test moves it on another.
class ManualClock final : public Clock
{
public:
    explicit ManualClock(QDateTime start);
    QDateTime nowUtc() const override
    {
        const QMutexLocker lock(&m_mutex);
        return m_now;
    }
    /// Moves the clock forward by `ms` milliseconds.
    void advanceMs(qint64 ms)
    {
        const QMutexLocker lock(&m_mutex);
        m_now = m_now.addMSecs(ms);
    }
    void set(const QDateTime &now)
    {
        const QMutexLocker lock(&m_mutex);
        m_now = now.toUTC();
    }

private:
    mutable QMutex m_mutex;
    QDateTime m_now;
};

namespace IstTime {

/// Offset of India Standard Time from UTC, in seconds (+05:30).
inline constexpr int kOffsetSeconds = 5 * 3600 + 30 * 60;

/// Formats an instant as the spec's `datetime` in IST: "YYYY-MM-DD HH:MM:SS"
/// (api-conventions.md, "Names and money").
QString format(const QDateTime &instant);
/// Same, from milliseconds since the Unix epoch.
QString formatMs(qint64 epochMs);
/// Parses "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DD" as IST; invalid QDateTime on failure.
QDateTime parse(const QString &text);
/// The instant as IST wall-clock time (offset +05:30), whatever the machine's time zone is. Every
/// date or time of day shown to a person goes through IST: never QTime::currentTime() or
/// QDate::currentDate(), which follow the machine (often UTC on kiosks).
QDateTime toIst(const QDateTime &instant);
/// The IST calendar date of the instant, e.g. today: IstTime::dateOf(clock.nowUtc()).
QDate dateOf(const QDateTime &instant);
/// The instant that is IST wall-clock `time` on the IST calendar `date`, e.g. the IST midnight that starts a
/// day: IstTime::at(date, QTime(0, 0)). IST has no daylight saving, so every pair names one instant.
QDateTime at(const QDate &date, const QTime &time);
/// The IST time of day of the instant for people: "14:02", or "14:02:09" with seconds.
QString timeOfDay(const QDateTime &instant, bool withSeconds = false);

} // namespace IstTime
