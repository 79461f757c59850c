#pragma once

#include "auth/authcontext.h"

#include <QByteArray>
#include <QCache>
#include <QMutex>

#include <utility>

struct TransactionRecord;

/// The status-check answers (GET /api/v1/transactions/{id}, the whole `{"data": record}` body) of
/// finished sales, kept serialized so that a repeated check costs no SQL and no JSON (issue 17).
/// Only SUCCESS and FAILED records of sandbox sales are kept: nothing changes such a record any more, so the
/// cache is right even when several servers share one database. A live sale's record is always read fresh (the
/// upstream may reverse it after the fact, issue 26). PENDING records are always read fresh. Bounded: at most
/// `maxEntries` answers, the least recently used dropped first. Hit and miss counts are logged
/// (category rechargedesk.http.statuscache) when the cache is destroyed, i.e. when the server stops.
/// Thread-safe: the HTTP worker threads look answers up while the server thread keeps them (issue 17).
class FinalRecordCache
{
public:
    struct Stats
    {
        qint64 hits = 0;
        qint64 misses = 0;
        qsizetype entries = 0;
        qsizetype maxEntries = 0;
    };

    /// `maxEntries` 0 keeps nothing (every check reads the database).
    explicit FinalRecordCache(qsizetype maxEntries);
    ~FinalRecordCache();
    Q_DISABLE_COPY_MOVE(FinalRecordCache)

    /// Whether find() counts a lookup that finds nothing.
    enum class MissCount
    {
        Count,
        DontCount, ///< an HTTP worker's lookup: the server thread that then reads the record counts the miss
    };
    /// The kept answer body of `caller`'s transaction `transactionId`, or a null QByteArray.
    /// Counts a hit, or a miss as `missCount` says.
    QByteArray find(const AuthContext &caller, qint64 transactionId, MissCount missCount = MissCount::Count);
    /// Counts a miss of a find() with MissCount::DontCount whose caller then read the record itself.
    void countMiss();
    /// Keeps `body` (the answer to the caller's status check of `record`) if the record is final.
    void keep(const AuthContext &caller, const TransactionRecord &record, const QByteArray &body);
    /// True when nothing can change `record` any more: SUCCESS or FAILED, and for a live sale through an
    /// upstream, its upstream state "settled" or "refused".
    static bool isFinal(const TransactionRecord &record);
    Stats stats() const;

private:
    using Key = std::pair<qint64, qint64>; ///< (account × 2 + live, transaction id)
    static Key key(const AuthContext &caller, qint64 transactionId);

    mutable QMutex m_mutex; ///< guards everything below
    QCache<Key, QByteArray> m_answers;
    qint64 m_hits = 0;
    qint64 m_misses = 0;
};
