#include "statuspoller.h"

#include "apiclient.h"
#include "transactionsapi.h"

StatusPoller::StatusPoller(ApiClient &api, QObject *parent) : QObject(parent), m_api(api)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &StatusPoller::check);
}

int StatusPoller::nextDelayMs(int currentMs)
{
    if (currentMs <= 0)
        return 1000;
    return currentMs >= kMaxDelayMs / 2 ? kMaxDelayMs : currentMs * 2;
}

void StatusPoller::start(qint64 transactionId)
{
    stop();
    m_transactionId = transactionId;
    m_delayMs = m_firstDelayMs;
    m_timer.start(m_delayMs);
}

void StatusPoller::stop()
{
    m_timer.stop();
    if (m_call)
        m_call->abort();
    m_call = nullptr;
    m_transactionId = 0;
}

void StatusPoller::checkNow()
{
    if (!isActive() || m_call)
        return;
    m_timer.stop();
    check();
}

void StatusPoller::check()
{
    const qint64 id = m_transactionId;
    m_call = TransactionsApi(m_api).get(id).then(this, [this, id](const Answer<TransactionRecord> &answer) {
        m_call = nullptr;
        if (id != m_transactionId)
            return;
        if (answer.ok() && answer.value->status != TransactionStatus::Pending) {
            m_transactionId = 0;
            emit settled(*answer.value);
            return;
        }
        if (answer.ok())
            emit pendingRecord(*answer.value);
        schedule();
    });
}

void StatusPoller::schedule()
{
    m_delayMs = nextDelayMs(m_delayMs);
    m_timer.start(m_delayMs);
    emit stillPending(m_delayMs);
}
