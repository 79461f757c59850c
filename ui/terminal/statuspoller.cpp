#include "statuspoller.h"

#include "apiclient.h"
#include "transactionsapi.h"

#include <QElapsedTimer>

namespace {
/// The API client's time limit less this is what a check asks the server to wait (the answer must come first).
constexpr int kWaitMarginSeconds = 5;
/// The longest wait the server grants (GET /api/v1/transactions/{id}, wait_s).
constexpr int kMaxWaitSeconds = 30;
/// A PENDING answer this much before the asked wait ran out did not wait: the server does not know wait_s.
constexpr qint64 kWaitSlackMs = 1500;
} // namespace

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

int StatusPoller::waitSeconds() const
{
    return qBound(0, m_api.timeoutSeconds() - kWaitMarginSeconds, kMaxWaitSeconds);
}

void StatusPoller::check()
{
    const qint64 id = m_transactionId;
    const int wait = waitSeconds();
    QElapsedTimer asked;
    asked.start();
    m_call = TransactionsApi(m_api).get(id, wait).then(
        this, [this, id, wait, asked](const Answer<TransactionRecord> &answer) {
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
            if (answer.ok() && wait > 0 && asked.elapsed() >= wait * 1000 - kWaitSlackMs) {
                // The server waited the whole time: ask again at once, it answers when the sale ends.
                m_delayMs = 0;
                m_timer.start(0);
                emit stillPending(0);
                return;
            }
            schedule();
        });
}

void StatusPoller::schedule()
{
    m_delayMs = nextDelayMs(m_delayMs);
    m_timer.start(m_delayMs);
    emit stillPending(m_delayMs);
}
