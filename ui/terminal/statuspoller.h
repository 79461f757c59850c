#pragma once

#include "entities/transactionrecord.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

class ApiCall;
class ApiClient;

/// Follows a PENDING sale until it settles: GET /api/v1/transactions/{id} (api-conventions.md,
/// "Beyond the spec") after 1 s, then 2 s, 4 s, … capped at 30 s, until the transaction_status
/// is SUCCESS or FAILED. Network and server errors only stretch the wait; the poller never gives
/// up on its own (the sale is on the server and will settle).
class StatusPoller final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatusPoller)

public:
    /// Longest wait between two checks, in milliseconds.
    static constexpr int kMaxDelayMs = 30'000;

    explicit StatusPoller(ApiClient &api, QObject *parent = nullptr);

    /// The wait after `currentMs`: doubled, capped at kMaxDelayMs.
    static int nextDelayMs(int currentMs);
    /// Wait before the first check, in milliseconds (default 1000; tests shorten it).
    void setFirstDelayMs(int ms) { m_firstDelayMs = ms; }
    int firstDelayMs() const { return m_firstDelayMs; }

    /// Starts following `transactionId` (stops following any other).
    void start(qint64 transactionId);
    /// Stops, dropping any answer in flight.
    void stop();
    /// Checks at once instead of waiting for the next scheduled check (e.g. the server is back);
    /// nothing happens when idle or while a check is in flight.
    void checkNow();
    bool isActive() const { return m_transactionId != 0; }
    /// The wait before the next check, in milliseconds (for the screen's "checking again in").
    int currentDelayMs() const { return m_delayMs; }

signals:
    /// The transaction left PENDING; `record` is the spec's transaction record.
    void settled(const TransactionRecord &record);
    /// A check found it still PENDING (or could not reach the server); the next one is scheduled.
    void stillPending(int nextDelayMs);
    /// A check read the record and it is still PENDING (its upstream state may have moved).
    void pendingRecord(const TransactionRecord &record);

private:
    void check();
    void schedule();

    ApiClient &m_api;
    QTimer m_timer;
    QPointer<ApiCall> m_call;
    qint64 m_transactionId = 0;
    int m_firstDelayMs = 1000;
    int m_delayMs = 0;
};
