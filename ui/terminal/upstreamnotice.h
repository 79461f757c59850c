#pragma once

#include "entities/transactionrecord.h"

#include <QDateTime>
#include <QLabel>
#include <QTimer>

class Clock;

/// On the sale result: what the upstream is doing with a live sale (issue 11). While the sale
/// waits on the upstream (queued, sent, unknown or pending) it reads "Waiting for the operator —
/// 1:05" with the time since the sale in m:ss, ticking every second; when the upstream refused
/// the sale it gives the upstream's error in plain words (UpstreamSaleInfo::errorText). Hidden for
/// sales without an upstream (test mode, sandbox) and for settled ones. The time comes from `clock`.
class UpstreamNotice final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamNotice)

public:
    explicit UpstreamNotice(const Clock &clock, QWidget *parent = nullptr);

    /// Shows what `record` (a spec transaction record) says about its upstream.
    void showRecord(const TransactionRecord &record);
    /// True while the elapsed time ticks.
    bool isTicking() const { return m_tick.isActive(); }

    /// "m:ss" for a number of seconds (negative reads as 0).
    static QString elapsedText(qint64 seconds);

private:
    void updateWaiting();

    const Clock &m_clock;
    QTimer m_tick;
    QDateTime m_started;
};
