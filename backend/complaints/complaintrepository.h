#pragma once

#include "auth/authcontext.h"
#include "entities/dayendreportdata.h"
#include "entities/transactionrecord.h"
#include "money.h"

#include <QList>
#include <QString>

#include <optional>

class Database;

/// A complaints row (migration 18) with the fields of its sale that a complaint shows. Times UTC ms (0: none).
struct StoredComplaint
{
    qint64 id = 0;
    qint64 accountId = 0;
    Mode mode = Mode::Test;
    qint64 transactionId = 0;
    QString reason;
    QString note;
    QString state = QStringLiteral("open"); ///< open, with_upstream, credited, rejected
    QString resolution;
    QString operatorReference;
    QString raisedBy;
    qint64 raisedAtMs = 0;
    QString resolvedBy;
    qint64 resolvedAtMs = 0;
    qint64 deadlineAtMs = 0;
    QString upstreamName;           ///< the upstream that sold the sale (live sales); "" for a test sale
    qint64 upstreamComplaintId = 0; ///< the upstream's complaint id once it took the complaint
    QString upstreamNote;           ///< why it stays with the shop's admin, in words; "" when none
    qint64 nextStepAtMs = 0;        ///< when its next step is due (the sandbox's decision, a send or a poll); 0: none
    int attempts = 0;               ///< calls made to the upstream for it
    // Of its sale (read only):
    QString referenceId;
    QString number;
    QString operatorCode;
    Paise amount = 0;
    TransactionStatus saleStatus = TransactionStatus::Success;

    bool resolved() const { return state == QLatin1String("credited") || state == QLatin1String("rejected"); }
};

/// Which complaints to list (GET /api/v1/complaints): the unresolved first, then the resolved, each newest first.
struct ComplaintFilter
{
    QString state;            ///< one state, "unresolved" (open and with_upstream), or "" for all
    qint64 transactionId = 0; ///< only this sale's; 0: any
    /// Keyset cursor: continue after the complaint `beforeId` of the unresolved (false) or resolved (true) part.
    bool resolvedPart = false;
    qint64 beforeId = 0;
    int limit = 50;
};

/// The complaints table (migration 18). Writes run inside the caller's transaction. Every call throws DatabaseError
/// (isUniqueViolation() when a second unresolved complaint is raised for a sale: the partial unique index).
class ComplaintRepository
{
public:
    explicit ComplaintRepository(Database &db) : m_db(db) {}

    /// Inserts `complaint` (its sale fields ignored); returns its id.
    qint64 insert(const StoredComplaint &complaint, qint64 nowMs);
    /// The account's complaint of this mode and id.
    std::optional<StoredComplaint> find(qint64 accountId, Mode mode, qint64 id);
    /// Any complaint by id (the follow-up's steps).
    std::optional<StoredComplaint> findById(qint64 id);
    /// The sale's unresolved complaint (open or with_upstream), if any.
    std::optional<StoredComplaint> unresolvedOfSale(qint64 transactionId);
    /// The complaint that the upstream `upstreamName` knows as `upstreamComplaintId`.
    std::optional<StoredComplaint> findByUpstream(const QString &upstreamName, qint64 upstreamComplaintId);
    /// The account's complaints of this mode matching `filter`: the unresolved part newest first, then the resolved
    /// part newest first, at most filter.limit.
    QList<StoredComplaint> list(qint64 accountId, Mode mode, const ComplaintFilter &filter);
    /// Resolves an unresolved complaint: state `state` (credited / rejected), the words, the reference, who and when;
    /// its next step cleared. False (nothing written) when it was resolved already.
    bool resolve(qint64 id, const QString &state, const QString &resolution, const QString &operatorReference,
                 const QString &resolvedBy, qint64 nowMs);
    /// Writes the follow-up fields of an unresolved complaint (state open / with_upstream, upstream name, complaint id
    /// and note, next step, attempts). False when it was resolved meanwhile.
    bool updateStep(const StoredComplaint &complaint, qint64 nowMs);
    /// Claims up to `limit` complaints whose next step is due at `nowMs`, for this server: their next step moves to
    /// `leaseUntilMs`, so no other server takes them before (PostgreSQL: FOR UPDATE SKIP LOCKED). Returns them as they
    /// were (their next step as it was due).
    QList<StoredComplaint> claimDue(qint64 nowMs, int limit, qint64 leaseUntilMs);
    /// The earliest next step of any complaint; nullopt when none is due ever.
    std::optional<qint64> nextDueAt();
    /// The day-end report's counts of [fromMs, toMs) (one IST day): raised in it, unresolved at its end, credited and
    /// rejected in it.
    DayEndReportData::Complaints dayCounts(qint64 accountId, Mode mode, qint64 fromMs, qint64 toMs);

private:
    std::optional<StoredComplaint> one(const QString &where, const QVariantList &values);
    QList<StoredComplaint> many(const QString &where, const QVariantList &values);

    Database &m_db;
};
