#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <limits>
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
    /// rd-<server_id>-<transaction_id> at the first upstream, the same at every attempt there; "-<n>" added when the
    /// sale moved to its n-th upstream after definite failures (a new reference for a new upstream).
    QString referenceId;
    QString upstreamName = QStringLiteral("default"); ///< the upstream it is sent to now
    /// The upstreams that definitely refused or failed it before, oldest first, as JSON objects {"upstream",
    /// "reference_id", "outcome", "error": {"code", "description"}}: their words are kept.
    QJsonArray tried;
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
    /// What its upstream had promised when the sale was written (docs/upstream-contract.md, "Kinds of upstream"):
    /// sendOnce unless a re-send of the same reference_id was promised to be the same sale (then it is never sent
    /// again, whatever happens); statusCheck when GET /transactions/{id} may be asked.
    bool sendOnce = true;
    bool statusCheck = false;
    /// A person ended the sale (POST /transactions/{id}/resolve): who, why, when (UTC ms); empty / 0 otherwise.
    QString resolvedBy;
    QString resolutionNote;
    qint64 resolvedAtMs = 0;
    /// The upstream reversed the sale after reporting SUCCESS: when (UTC ms; 0 never) and how it said so ("webhook",
    /// "statement").
    qint64 reversedAtMs = 0;
    QString reversalSource;
    /// The upstream reported `mismatchReported` ("SUCCESS") for a sale we hold as FAILED: left for a person.
    QString mismatchReported;
    QString mismatchSource;
    qint64 mismatchAtMs = 0;

    /// next_attempt_at of a sale nobody may call the upstream for again: it ends by the upstream's webhook, its
    /// statement or a person (a sent-once sale whose outcome is unknown, or PENDING where there is no status check).
    static constexpr qint64 kNever = std::numeric_limits<qint64>::max();

    /// True while the sale waits for its end at the upstream (queued, sent, unknown, pending).
    bool waiting() const;
    /// The "upstream" extension object of a transaction record (docs/upstream-contract.md, "A live sale");
    /// `attention`: it has waited longer than serve --upstream-attention-after-s.
    QJsonObject toJson(bool attention = false) const;
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
    /// update(), only while the sale still waits on the upstream (queued, sent, unknown, pending) under the reference
    /// of `sale`: false (nothing written) when it was ended, or moved to another upstream, since `sale` was read.
    bool updateWaiting(const UpstreamSale &sale, qint64 nowMs, const QString &releasedBy = {});
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
    /// the wire when it stopped), and those without any owner (written before leases), go back to `unknown`, and
    /// `owner`'s leases end. Those whose upstream promised an idempotent reference_id are due now (re-sent with
    /// the same reference_id at once); sent-once sales are never due again (UpstreamSale::kNever): they may have
    /// been sold. Another server's leases are left alone: they end by themselves (claimDue()).
    void resumeInFlight(qint64 nowMs, const QString &owner);
    /// The account of a sale (its batched writes lock that account's live wallet, CommitBatcher lockOrder).
    qint64 accountOf(qint64 transactionId);
    /// Live sales of an account still unknown at the upstream (queued, sent, unknown).
    qint64 unknownCount(qint64 accountId);
    /// Live sales of an account still waiting on the upstream (queued, sent, unknown, pending) whose transaction was
    /// created at or before `createdBeforeMs` (UTC ms): the sales that need attention.
    qint64 attentionCount(qint64 accountId, qint64 createdBeforeMs);
    /// Records, inside the caller's write transaction, that a person ended the sale: state settled, who, why and
    /// when; no lease is left on it.
    void recordResolution(qint64 transactionId, const QString &by, const QString &note, qint64 nowMs);
    /// Moves, inside the caller's write transaction, a sale to its next upstream after a definite failure at the
    /// one before: upstream name, reference, request body, promises, `tried`, state queued with no attempts; no
    /// lease is left on it.
    void moveOn(const UpstreamSale &sale, qint64 nowMs);
    /// Records, inside the caller's write transaction, that the upstream reversed the sale (reported by `source`).
    void recordReversal(qint64 transactionId, const QString &source, qint64 nowMs);
    /// Records, inside the caller's write transaction, that the upstream reported `reported` for the sale while we
    /// hold another final status (by `source`); false when that very report was recorded already.
    bool recordMismatch(qint64 transactionId, const QString &reported, const QString &source, qint64 nowMs);

private:
    /// update() and updateWaiting(): true when the row was written.
    bool write(const UpstreamSale &sale, qint64 nowMs, const QString &releasedBy, bool whileWaiting);
    std::optional<UpstreamSale> one(const QString &where, const QVariantList &values);
    Database &m_db;
};
