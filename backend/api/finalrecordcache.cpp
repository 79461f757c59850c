#include "finalrecordcache.h"

#include "entities/transactionrecord.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcStatusCache, "rechargedesk.http.statuscache")

FinalRecordCache::FinalRecordCache(qsizetype maxEntries) : m_answers(maxEntries)
{}

FinalRecordCache::~FinalRecordCache()
{
    const Stats s = stats();
    const qint64 lookups = s.hits + s.misses;
    qCInfo(lcStatusCache, "status cache: %lld hits, %lld misses (hit rate %.1f %%), %lld of at most %lld answers kept",
           s.hits, s.misses, lookups > 0 ? 100.0 * double(s.hits) / double(lookups) : 0.0,
           static_cast<long long>(s.entries), static_cast<long long>(s.maxEntries));
}

qint64 FinalRecordCache::owner(const AuthContext &caller)
{
    return caller.accountId * 2 + (caller.mode == Mode::Live ? 1 : 0);
}

QByteArray FinalRecordCache::find(const AuthContext &caller, qint64 transactionId, MissCount missCount)
{
    const QMutexLocker lock(&m_mutex);
    if (const Kept *kept = m_answers.object(transactionId); kept && kept->owner == owner(caller)) {
        ++m_hits;
        return kept->body;
    }
    if (missCount == MissCount::Count)
        ++m_misses;
    return QByteArray();
}

void FinalRecordCache::countMiss()
{
    const QMutexLocker lock(&m_mutex);
    ++m_misses;
}

void FinalRecordCache::keep(const AuthContext &caller, const TransactionRecord &record, const QByteArray &body)
{
    if (!isFinal(record))
        return;
    const QMutexLocker lock(&m_mutex);
    if (m_answers.maxCost() > 0)
        m_answers.insert(record.transactionId, new Kept{owner(caller), body});
}

void FinalRecordCache::forget(qint64 transactionId)
{
    const QMutexLocker lock(&m_mutex);
    m_answers.remove(transactionId);
}

bool FinalRecordCache::isFinal(const TransactionRecord &record)
{
    if (record.status == TransactionStatus::Pending)
        return false;
    // A live sale is never final for good: the upstream may reverse a SUCCESS later (its webhook or its statement,
    // issue 26), on any server of several sharing the database. Only sandbox sales are kept.
    return record.upstream.isEmpty();
}

FinalRecordCache::Stats FinalRecordCache::stats() const
{
    const QMutexLocker lock(&m_mutex);
    return Stats{m_hits, m_misses, m_answers.size(), m_answers.maxCost()};
}
