#pragma once

#include "auth/authcontext.h"

#include <QByteArray>
#include <QCache>
#include <QMutex>

#include <utility>

struct TransactionRecord;

/// The status-check answers (GET /api/v1/transactions/{id}, the whole `{"data": record}` body) of
/// finished sales, kept serialized so that a repeated check costs no SQL and no JSON (issue 17).
/// Only SUCCESS and FAILED records of sandbox sales are kept. A live sale's record is always read fresh (the
/// upstream may reverse it after the fact, issue 26). PENDING records are always read fresh. A sandbox SUCCESS is
/// reversed only by a credited complaint (issue 29), which this server announces (SettlementService::settled):
/// forget() drops its answer then. (Several servers on one database: another server's kept answer of that sale stays
/// until it is dropped as least recently used — a test sale's, never live money.) Bounded: at most
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
    /// Drops the kept answer of transaction `transactionId` (whoever's): its record changed (issue 29).
    void forget(qint64 transactionId);
    /// True when nothing but a complaint can change `record` any more: SUCCESS or FAILED of a sandbox sale.
    static bool isFinal(const TransactionRecord &record);
    Stats stats() const;

private:
    /// A kept answer and whose it is (account × 2 + live): a caller of another account or mode never gets it.
    struct Kept
    {
        qint64 owner = 0;
        QByteArray body;
    };
    static qint64 owner(const AuthContext &caller);

    mutable QMutex m_mutex;         ///< guards everything below
    QCache<qint64, Kept> m_answers; ///< by transaction id
    qint64 m_hits = 0;
    qint64 m_misses = 0;
};
