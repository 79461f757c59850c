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
    /// Writes state, upstream id, attempts, next attempt and error of `sale`.
    void update(const UpstreamSale &sale, qint64 nowMs);
    /// Sales whose next step is due at `nowMs` (queued/sent/unknown: send; pending: poll), oldest due first.
    /// A `sent` sale is due only after its call's time limit and backoff: its answer was lost (say, the
    /// database refused to record it), so the same request goes again.
    QList<UpstreamSale> due(qint64 nowMs, int limit);
    /// The earliest next_attempt_at of a sale still waiting on the upstream; nullopt when none.
    std::optional<qint64> nextDueAt();
    /// Puts every `queued` or `sent` sale (a first call that may have been on the wire when the server
    /// stopped, or one in flight) back to `unknown`, due now: it is re-sent with the same reference_id.
    void resumeInFlight(qint64 nowMs);
    /// The account of a sale (its batched writes lock that account's live wallet, CommitBatcher lockOrder).
    qint64 accountOf(qint64 transactionId);
    /// Live sales of an account still unknown at the upstream (queued, sent, unknown).
    qint64 unknownCount(qint64 accountId);

private:
    std::optional<UpstreamSale> one(const QString &where, const QVariantList &values);
    Database &m_db;
};
