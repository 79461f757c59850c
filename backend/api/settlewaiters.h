#pragma once

#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

class SettlementService;

/// Status checks that wait for a PENDING sale to end (GET /api/v1/transactions/{id}?wait_s=N, a long poll; issue 27:
/// the terminal learns a sale's end when the server does). Each waiter is answered once: when SettlementService
/// announces that its sale settled on this server (sandbox settle, upstream answer, webhook, statement, resolve,
/// reversal), or when its wait runs out — whichever comes first. A sale settled by another server on the same
/// PostgreSQL database is seen at the wait's end. Lives on the server thread.
class SettleWaiters final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettleWaiters)

public:
    /// At most this many status checks wait at once; more are answered at once (each holds a connection).
    static constexpr int kMaxWaiting = 2000;
    /// The longest wait a client may ask for, in seconds.
    static constexpr int kMaxWaitSeconds = 30;

    explicit SettleWaiters(SettlementService &settlements, QObject *parent = nullptr);

    /// Runs @p answer once, on this thread: after sale @p transactionId settles here, or after @p seconds (1 to
    /// kMaxWaitSeconds). False (and @p answer not kept) when kMaxWaiting checks already wait: answer at once.
    /// @p answer must not throw.
    bool wait(qint64 transactionId, int seconds, std::function<void()> answer);

    /// Status checks waiting now.
    int waiting() const { return int(m_waiters.size()); }

private:
    struct Waiter
    {
        qint64 transactionId = 0;
        std::function<void()> answer;
        QTimer timer;
    };

    void settled(qint64 transactionId);
    void finish(Waiter *waiter);

    QMultiHash<qint64, Waiter *> m_byTransaction;
    QHash<Waiter *, std::shared_ptr<Waiter>> m_waiters;
};
