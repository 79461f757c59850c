#include "settlewaiters.h"

#include "services/settlementservice.h"

SettleWaiters::SettleWaiters(SettlementService &settlements, QObject *parent) : QObject(parent)
{
    connect(&settlements, &SettlementService::settled, this, &SettleWaiters::settled);
}

bool SettleWaiters::wait(qint64 transactionId, int seconds, std::function<void()> answer)
{
    if (m_waiters.size() >= kMaxWaiting)
        return false;
    auto waiter = std::make_shared<Waiter>();
    waiter->transactionId = transactionId;
    waiter->answer = std::move(answer);
    waiter->timer.setSingleShot(true);
    Waiter *key = waiter.get();
    connect(&waiter->timer, &QTimer::timeout, this, [this, key] { finish(key); });
    waiter->timer.start(qBound(1, seconds, kMaxWaitSeconds) * 1000);
    m_byTransaction.insert(transactionId, key);
    m_waiters.insert(key, std::move(waiter));
    return true;
}

void SettleWaiters::settled(qint64 transactionId)
{
    const QList<Waiter *> waiting = m_byTransaction.values(transactionId);
    for (Waiter *waiter : waiting)
        finish(waiter);
}

void SettleWaiters::finish(Waiter *waiter)
{
    const std::shared_ptr<Waiter> own = m_waiters.take(waiter);
    if (!own)
        return;
    m_byTransaction.remove(own->transactionId, waiter);
    own->timer.stop();
    own->answer();
    // Released after this event: finish() may run inside the waiter's own timer signal.
    QMetaObject::invokeMethod(
        this, [own] {}, Qt::QueuedConnection);
}
