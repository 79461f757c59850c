#pragma once

#include "entities/transactionrecord.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

class ApiCall;
class ApiClient;

/// Follows a PENDING sale until it settles: GET /api/v1/transactions/{id}?wait_s=N (api-conventions.md,
/// "Beyond the spec"; issue 27), a long poll that the server answers when the sale ends there or after N seconds
/// (N: the API client's time limit less 5 s), asked again at once while the server keeps waiting, so the screen
/// learns the end when the server does. A server that answered PENDING without waiting (one from before the long
/// poll) is asked after 1 s, then 2 s, 4 s, … capped at 30 s. Network and server errors only stretch the wait; the
/// poller never gives up on its own (the sale is on the server and will settle).
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
    /// True while a check is on its way (waiting at the server, for a long poll).
    bool isChecking() const { return !m_call.isNull(); }
    /// The wait before the next check, in milliseconds (for the screen's "checking again in"); 0 while the server
    /// itself waits for the end.
    int currentDelayMs() const { return m_delayMs; }
    /// Seconds a check asks the server to wait for the end (0: the server is not asked to wait).
    int waitSeconds() const;

signals:
    /// The transaction left PENDING; `record` is the spec's transaction record.
    void settled(const TransactionRecord &record);
    /// A check found it still PENDING (or could not reach the server); the next one is scheduled `nextDelayMs`
    /// from now (0: at once, the server waits for the end).
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
