#include "upstreamnotice.h"

#include "clock.h"
#include "upstreamsaleinfo.h"
#include "widgets/look.h"

UpstreamNotice::UpstreamNotice(const Clock &clock, QWidget *parent) : QLabel(parent), m_clock(clock)
{
    setObjectName(QStringLiteral("upstreamNotice"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &UpstreamNotice::updateWaiting);
    hide();
}

QString UpstreamNotice::elapsedText(qint64 seconds)
{
    seconds = qMax<qint64>(0, seconds);
    return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

void UpstreamNotice::showRecord(const TransactionRecord &record)
{
    const UpstreamSaleInfo upstream = UpstreamSaleInfo::fromRecord(record);
    const bool waiting = upstream.present && upstream.isWaiting() && record.status == TransactionStatus::Pending;
    const bool refused = upstream.present && record.status == TransactionStatus::Failed &&
                         (upstream.state == QLatin1String("refused") || upstream.hasError());
    if (waiting) {
        // The time since the sale was made (its datetime, IST), never before it was shown here.
        const QDateTime made = QDateTime::fromMSecsSinceEpoch(record.createdAtMs, Qt::UTC);
        const QDateTime now = m_clock.nowUtc();
        m_started = made.isValid() && made <= now ? made : now;
        Look::set(this, "upstreamWaiting");
        updateWaiting();
        m_tick.start();
        show();
        return;
    }
    m_tick.stop();
    if (refused) {
        setText(upstream.refusalText());
        Look::set(this, "upstreamRefused");
        show();
        return;
    }
    clear();
    hide();
}

void UpstreamNotice::updateWaiting()
{
    const qint64 seconds = m_started.secsTo(m_clock.nowUtc());
    setText(tr("Waiting for the operator — %1").arg(elapsedText(seconds)));
}
