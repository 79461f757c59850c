#include "commitbatcher.h"

#include "apierror.h"
#include "store/database.h"

#include <QLoggingCategory>
#include <QTimer>

#include <algorithm>

Q_LOGGING_CATEGORY(lcBatch, "rechargedesk.batch")

CommitBatcher::CommitBatcher(Database &db, QObject *parent) : QObject(parent), m_db(db)
{}

void CommitBatcher::submit(Work work, Done done, qint64 lockOrder)
{
    if (m_refusing) { // on the next turn, as a batch would answer: callers may rely on that
        QTimer::singleShot(0, this, [done = std::move(done)] {
            done(std::make_exception_ptr(ApiError(503, QStringLiteral("GATEWAY_ERROR"),
                                                  QStringLiteral("server_stopping"),
                                                  QStringLiteral("The server is stopping; send the request again in "
                                                                 "a moment (the same reference_id is safe)."))));
        });
        return;
    }
    m_queue.push_back(Job{std::move(work), std::move(done), nullptr, lockOrder});
    if (!m_scheduled) {
        m_scheduled = true;
        QTimer::singleShot(0, this, &CommitBatcher::flush);
    }
}

void CommitBatcher::flush()
{
    m_scheduled = false;
    std::vector<Job> batch;
    if (m_queue.size() > size_t(kMaxBatch)) {
        batch.assign(std::make_move_iterator(m_queue.begin()), std::make_move_iterator(m_queue.begin() + kMaxBatch));
        m_queue.erase(m_queue.begin(), m_queue.begin() + kMaxBatch);
        m_scheduled = true;
        QTimer::singleShot(0, this, &CommitBatcher::flush);
    } else {
        batch.swap(m_queue);
    }
    if (batch.empty())
        return;
    std::stable_sort(batch.begin(), batch.end(), [](const Job &a, const Job &b) { return a.lockOrder < b.lockOrder; });

    std::exception_ptr batchError;
    try {
        m_db.begin();
        for (Job &job : batch) {
            const QString savepoint = QStringLiteral("w");
            m_db.savepoint(savepoint);
            try {
                job.work();
                m_db.releaseSavepoint(savepoint);
            } catch (...) {
                job.error = std::current_exception();
                m_db.rollbackToSavepoint(savepoint);
                m_db.releaseSavepoint(savepoint);
            }
        }
        m_db.commit();
        ++m_batches;
        m_writes += batch.size();
    } catch (const std::exception &e) {
        qCCritical(lcBatch, "batch of %zu writes not committed: %s", batch.size(), e.what());
        batchError = std::current_exception();
        try {
            m_db.rollback();
        } catch (const std::exception &rollbackError) {
            qCWarning(lcBatch, "rollback failed: %s", rollbackError.what());
        }
    }
    for (Job &job : batch)
        job.done(batchError ? batchError : job.error);
}
