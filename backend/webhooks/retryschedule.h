#pragma once

#include <QList>

#include <optional>

/// When a failed webhook is tried again (api-conventions.md, "Webhooks"): after the first try,
/// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, each with ±20 % jitter, all
/// multiplied by a scale (serve --webhook-retry-scale; 1 in production, tiny in tests).
class RetrySchedule
{
public:
    /// Tries in all: the first one plus one per schedule entry.
    static constexpr int kMaxAttempts = 10;

    /// `scale` multiplies every delay (> 0).
    explicit RetrySchedule(double scale = 1.0) : m_scale(scale) {}

    /// The unscaled delays of the schedule, in milliseconds.
    static const QList<qint64> &baseDelaysMs();
    /// Milliseconds to wait before retry number `retryIndex` (0 = the retry after the first
    /// failure), with the jitter factor 0.8 + 0.4 × `unitRandom` (`unitRandom` in [0, 1]);
    /// nullopt once the schedule is exhausted.
    std::optional<qint64> delayMs(int retryIndex, double unitRandom) const;
    /// Same with a random jitter.
    std::optional<qint64> delayMs(int retryIndex) const;
    double scale() const { return m_scale; }

private:
    double m_scale;
};
