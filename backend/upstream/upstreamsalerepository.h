#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

class Database;

/// Where one live sale stands with the upstream (upstream-contract.md, "Terms").
enum class UpstreamState
{
    Queued, ///< committed with the sale; its first call may already be on the wire (made without a commit)
    Sent,   ///< a re-send on the wire
    Unknown,
    Pending,
    Settled,
    Refused
};

namespace UpstreamStates {
QString name(UpstreamState state);                          ///< "queued", "sent", …
std::optional<UpstreamState> fromName(const QString &name); ///< from "queued", …
/// True for queued, sent and unknown: no definite answer yet ("still unknown at the upstream").
bool isUnknown(UpstreamState state);
} // namespace UpstreamStates

/// One upstream_sales row: the exact request to (re-)send and the state machine around it.
struct UpstreamSale
{
    qint64 transactionId = 0;
    QString referenceId; ///< rd-<server_id>-<transaction_id>, the same at every attempt
    UpstreamState state = UpstreamState::Queued;
    qint64 upstreamId = 0; ///< the upstream's transaction_id; 0 until it answered with a record
    int attempts = 0;      ///< calls made so far (sends and polls)
    qint64 nextAttemptAtMs = 0;
    QString errorCode; ///< the upstream's refusal reason, or our note for an unknown outcome
    QString errorDescription;
    QString endpoint;       ///< path under the base URL, e.g. "/recharge/mobile/initiate-transaction"
    QByteArray requestBody; ///< the JSON sent, byte for byte the same at every attempt
    /// The claim on the sale's next call (several servers on one database): which server holds it and until
    /// when (UTC ms). Nobody else calls the upstream for the sale before `leaseUntilMs`; written by insert() only
    /// (claim(), claimDue() and update() change it afterwards).
    QString leaseOwner;
    qint64 leaseUntilMs = 0;

    /// The "upstream" extension object of a transaction record (upstream-contract.md).
    QJsonObject toJson() const;
};

/// The upstream_sales table. Writes run inside the caller's transaction. Throws DatabaseError.
class UpstreamSaleRepository
{
public:
    explicit UpstreamSaleRepository(Database &db) : m_db(db) {}

    void insert(const UpstreamSale &sale, qint64 nowMs);
    std::optional<UpstreamSale> find(qint64 transactionId);
    std::optional<UpstreamSale> findByReference(const QString &referenceId);
    std::optional<UpstreamSale> findByUpstreamId(qint64 upstreamId);
    /// Writes state, upstream id, attempts, next attempt and error of `sale`. A non-empty `releasedBy` also ends
    /// that server's lease on the sale in the same statement (its call was answered: next_attempt_at alone tells
    /// when the sale is due again); another server's lease stays.
    void update(const UpstreamSale &sale, qint64 nowMs, const QString &releasedBy = {});
    /// Claims, inside the caller's write transaction, the sales whose next step is due at `nowMs` (queued/sent/
    /// unknown: send; pending: poll) and whose lease is over (nobody holds it, or its holder died), oldest due
    /// first, at most `limit`: each gets the lease of `owner` until `leaseUntilMs` (UTC ms), so exactly one server
    /// makes the call. On PostgreSQL the rows are read FOR UPDATE SKIP LOCKED: servers claiming at the same moment
    /// take different sales and never wait for each other. A sale whose answer was lost (say, the database
    /// refused to record it) keeps its lease and goes again when the lease is over.
    QList<UpstreamSale> claimDue(qint64 nowMs, int limit, const QString &owner, qint64 leaseUntilMs);
    /// Claims one sale still waiting on the upstream for `owner` until `leaseUntilMs` (UTC ms), inside the
    /// caller's write transaction: true when its lease was over at `nowMs` or already `owner`'s; false (nothing
    /// written) when another server holds it or the sale is settled, refused or unknown.
    bool claim(qint64 transactionId, qint64 nowMs, const QString &owner, qint64 leaseUntilMs);
    /// The earliest time (UTC ms) any server may act on a sale still waiting on the upstream: its
    /// next_attempt_at, or its lease's end when later; nullopt when none waits.
    std::optional<qint64> nextDueAt();
    /// After `owner` (re)starts: its own `queued` or `sent` sales of before (a first call that may have been on
    /// the wire when it stopped), and those without any owner (written before leases), go back to `unknown`, due
    /// now, and `owner`'s leases end: they are re-sent with the same reference_id at once. Another server's
    /// leases are left alone: they end by themselves (claimDue()).
    void resumeInFlight(qint64 nowMs, const QString &owner);
    /// The account of a sale (its batched writes lock that account's live wallet, CommitBatcher lockOrder).
    qint64 accountOf(qint64 transactionId);
    /// Live sales of an account still unknown at the upstream (queued, sent, unknown).
    qint64 unknownCount(qint64 accountId);

private:
    std::optional<UpstreamSale> one(const QString &where, const QVariantList &values);
    Database &m_db;
};
