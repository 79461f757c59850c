#include "retryschedule.h"

#include <QRandomGenerator>

#include <algorithm>
#include <cmath>

const QList<qint64> &RetrySchedule::baseDelaysMs()
{
    static const QList<qint64> delays{
        5LL * 1000,         5LL * 60 * 1000,    30LL * 60 * 1000,   2LL * 3600 * 1000,  5LL * 3600 * 1000,
        10LL * 3600 * 1000, 14LL * 3600 * 1000, 20LL * 3600 * 1000, 24LL * 3600 * 1000,
    };
    return delays;
}

std::optional<qint64> RetrySchedule::delayMs(int retryIndex, double unitRandom) const
{
    const QList<qint64> &delays = baseDelaysMs();
    if (retryIndex < 0 || retryIndex >= delays.size())
        return std::nullopt;
    const double jitter = 0.8 + 0.4 * std::clamp(unitRandom, 0.0, 1.0);
    return std::max<qint64>(0, std::llround(double(delays.at(retryIndex)) * m_scale * jitter));
}

std::optional<qint64> RetrySchedule::delayMs(int retryIndex) const
{
    return delayMs(retryIndex, QRandomGenerator::global()->generateDouble());
}
