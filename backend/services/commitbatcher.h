#pragma once

#include <QObject>

#include <exception>
#include <functional>
#include <vector>

class Database;

/// Groups the write requests that arrive together into one database commit, each inside its
/// own savepoint so that one failing request rolls back only its own writes. A request's
/// `done` runs only after the COMMIT is durable (synchronous=FULL), so nothing is acknowledged
/// that a crash could lose. One fsync then serves a whole batch, which is what lets initiate
/// beat the one-commit-per-request baseline (docs/benchmarks.md).
class CommitBatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommitBatcher)

public:
    /// The write: runs inside a savepoint of the batch transaction. Throwing (ApiError or
    /// anything else) rolls back its savepoint and is handed to `done`.
    using Work = std::function<void()>;
    /// Called after the batch ends: a null exception_ptr when the work is committed, else the
    /// error (the work's own, or the COMMIT's, in which case the whole batch failed).
    using Done = std::function<void(std::exception_ptr error)>;

    static constexpr int kMaxBatch = 512;

    explicit CommitBatcher(Database &db, QObject *parent = nullptr);

    /// Queues a write; the batch runs on the next turn of this thread's event loop. Inside a batch
    /// the writes run in ascending `lockOrder` (ties in arrival order): writes that lock rows keyed
    /// by it (a sale locks its account's wallet on PostgreSQL) then take those locks in one order on
    /// every server sharing the database, so two servers' batches cannot deadlock on them.
    void submit(Work work, Done done, qint64 lockOrder = 0);

    /// True while writes wait for their batch (submitted, not yet run).
    bool hasQueuedWrites() const { return !m_queue.empty(); }
    /// For a clean stop (ApiServer::stop): from now on submit() runs nothing and hands `done` a 503
    /// GATEWAY_ERROR `server_stopping` on the next turn, so nothing commits that could no longer be answered.
    void refuseNewWrites() { m_refusing = true; }

    /// Batches committed so far and writes in them (for tests and the benchmark notes).
    quint64 batchCount() const { return m_batches; }
    quint64 writeCount() const { return m_writes; }

private:
    void flush();

    struct Job
    {
        Work work;
        Done done;
        std::exception_ptr error;
        qint64 lockOrder = 0;
    };
    Database &m_db;
    std::vector<Job> m_queue;
    bool m_scheduled = false;
    bool m_refusing = false;
    quint64 m_batches = 0;
    quint64 m_writes = 0;
};
