#pragma once

#include "money.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

class Database;

/// An upstream_fund_requests row (migration 21): a fund request this server sent (or is sending) to a RechargeDesk
/// upstream for one of its accounts. Times UTC ms (0: none).
struct StoredUpstreamFundRequest
{
    qint64 id = 0;
    qint64 accountId = 0; ///< whose live wallet an approval credits
    QString upstreamName;
    QString referenceId; ///< fr-<server id>-<id>, sent with every attempt
    qint64 remoteId = 0; ///< the upstream's id; 0 until it answered
    Paise amount = 0;
    QString method;
    QString utr;
    QString note;
    QString slipType; ///< "" when none
    QByteArray slip;  ///< the image, kept until the upstream took the request
    QString state = QStringLiteral("sending");
    QString reason;
    qint64 creditedAtMs = 0;
    qint64 nextCheckAtMs = 0; ///< the follow-up's next send or poll; 0: none
    int attempts = 0;         ///< calls made to the upstream for it
    QString actor;
    qint64 createdAtMs = 0;

    /// True for approved, rejected and refused.
    bool isFinal() const;
};

/// The upstream_fund_requests table (migration 21). Writes run inside the caller's transaction; every call throws
/// DatabaseError.
class UpstreamFundRequestRepository
{
public:
    explicit UpstreamFundRequestRepository(Database &db) : m_db(db) {}

    /// Inserts `request` with reference_id fr-`serverId`-<its id>; returns the id.
    qint64 insert(const StoredUpstreamFundRequest &request, const QString &serverId, qint64 nowMs);
    std::optional<StoredUpstreamFundRequest> find(qint64 id);
    /// The request the upstream `upstreamName` knows as `remoteId`.
    std::optional<StoredUpstreamFundRequest> findByRemote(const QString &upstreamName, qint64 remoteId);
    std::optional<StoredUpstreamFundRequest> findByReference(const QString &referenceId);
    /// The account's requests to `upstreamName`, newest first, at most `limit`, with id < `beforeId` when > 0.
    QList<StoredUpstreamFundRequest> list(qint64 accountId, const QString &upstreamName, int limit, qint64 beforeId);
    /// The account's requests to `upstreamName` not credited here: (reference_id, remote_id) pairs.
    QList<StoredUpstreamFundRequest> notCredited(qint64 accountId, const QString &upstreamName);
    /// Writes the state of a request still waiting (sending / pending): state, remote id, reason, next check,
    /// attempts; the slip is dropped once it need not be sent again (taken or refused). False when it was final
    /// meanwhile.
    bool updateWaiting(const StoredUpstreamFundRequest &request, qint64 nowMs);
    /// Marks a waiting request approved and credited at `nowMs` — once: false (nothing written) when it was
    /// credited or final already (UPDATE … WHERE credited_at IS NULL).
    bool markCredited(qint64 id, qint64 remoteId, qint64 nowMs);
    /// Records the ledger row of the credit: the newest row of the account's live wallet (inside the write
    /// transaction that posted it).
    void setLedgerToNewest(qint64 id, qint64 accountId);
    /// Claims up to `limit` waiting requests whose next check is due at `nowMs`: their next check moves to
    /// `leaseUntilMs` so that no other server takes them before (PostgreSQL: FOR UPDATE SKIP LOCKED). Returns them
    /// as they were.
    QList<StoredUpstreamFundRequest> claimDue(qint64 nowMs, int limit, qint64 leaseUntilMs);
    /// The earliest next check of any waiting request; nullopt when none.
    std::optional<qint64> nextDueAt();

    /// One row of the wallet comparison: the account's live sales sent to `upstreamName` matching `condition` (SQL
    /// over `t` transactions and `u` upstream_sales, from UpstreamWalletCheck's fixed list), as (id, paid) oldest
    /// first.
    QList<std::pair<qint64, Paise>> liveSales(qint64 accountId, const QString &upstreamName, const QString &condition);

private:
    QList<StoredUpstreamFundRequest> many(const QString &where, const QVariantList &values);
    std::optional<StoredUpstreamFundRequest> one(const QString &where, const QVariantList &values);

    Database &m_db;
};
