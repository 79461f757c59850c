#include "complaintrepository.h"

#include "entities/complaint.h"
#include "store/database.h"

namespace {

const QString kSelect = QStringLiteral(
    "SELECT c.id, c.account_id, c.mode, c.transaction_id, c.reason, c.note, c.state, c.resolution,"
    " c.operator_reference, c.raised_by, c.raised_at, c.resolved_by, c.resolved_at, c.deadline_at, c.upstream_name,"
    " c.upstream_complaint_id, c.upstream_note, c.next_step_at, c.attempts, COALESCE(t.reference_id, ''), t.number,"
    " t.operator_code, t.bill_amount, t.status FROM complaints c JOIN transactions t ON t.id = c.transaction_id");

const QString kUnresolved = QStringLiteral("c.state IN ('open', 'with_upstream')");

StoredComplaint readComplaint(const QSqlQuery &q)
{
    StoredComplaint c;
    c.id = q.value(0).toLongLong();
    c.accountId = q.value(1).toLongLong();
    c.mode = ModeNames::modeFromString(q.value(2).toString()).value_or(Mode::Test);
    c.transactionId = q.value(3).toLongLong();
    c.reason = q.value(4).toString();
    c.note = q.value(5).toString();
    c.state = q.value(6).toString();
    c.resolution = q.value(7).toString();
    c.operatorReference = q.value(8).toString();
    c.raisedBy = q.value(9).toString();
    c.raisedAtMs = q.value(10).toLongLong();
    c.resolvedBy = q.value(11).toString();
    c.resolvedAtMs = q.value(12).toLongLong();
    c.deadlineAtMs = q.value(13).toLongLong();
    c.upstreamName = q.value(14).toString();
    c.upstreamComplaintId = q.value(15).toLongLong();
    c.upstreamNote = q.value(16).toString();
    c.nextStepAtMs = q.value(17).toLongLong();
    c.attempts = q.value(18).toInt();
    c.referenceId = q.value(19).toString();
    c.number = q.value(20).toString();
    c.operatorCode = q.value(21).toString();
    c.amount = q.value(22).toLongLong();
    c.saleStatus = TransactionNames::statusFromString(q.value(23).toString()).value_or(TransactionStatus::Success);
    return c;
}

qint64 scalar(QSqlQuery &q)
{
    const qint64 value = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    return value;
}

} // namespace

qint64 ComplaintRepository::insert(const StoredComplaint &c, qint64 nowMs)
{
    return m_db.insertReturningId(
        QStringLiteral("INSERT INTO complaints (account_id, mode, transaction_id, reason, note, state, raised_by,"
                       " raised_at, deadline_at, upstream_name, upstream_complaint_id, upstream_note, next_step_at,"
                       " attempts, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {c.accountId, ModeNames::mode(c.mode), c.transactionId, c.reason, textValue(c.note), c.state, c.raisedBy,
         c.raisedAtMs, c.deadlineAtMs, textValue(c.upstreamName), c.upstreamComplaintId, textValue(c.upstreamNote),
         c.nextStepAtMs, c.attempts, nowMs});
}

std::optional<StoredComplaint> ComplaintRepository::one(const QString &where, const QVariantList &values)
{
    QSqlQuery &q = m_db.run(kSelect + QStringLiteral(" WHERE ") + where, values);
    std::optional<StoredComplaint> complaint;
    if (q.next())
        complaint = readComplaint(q);
    q.finish();
    return complaint;
}

QList<StoredComplaint> ComplaintRepository::many(const QString &where, const QVariantList &values)
{
    QSqlQuery &q = m_db.run(kSelect + QStringLiteral(" WHERE ") + where, values);
    QList<StoredComplaint> complaints;
    while (q.next())
        complaints.append(readComplaint(q));
    q.finish();
    return complaints;
}

std::optional<StoredComplaint> ComplaintRepository::find(qint64 accountId, Mode mode, qint64 id)
{
    return one(QStringLiteral("c.id = ? AND c.account_id = ? AND c.mode = ?"), {id, accountId, ModeNames::mode(mode)});
}

std::optional<StoredComplaint> ComplaintRepository::findById(qint64 id)
{
    return one(QStringLiteral("c.id = ?"), {id});
}

std::optional<StoredComplaint> ComplaintRepository::unresolvedOfSale(qint64 transactionId)
{
    // Served by the partial unique index complaints_unresolved_sale.
    return one(QStringLiteral("c.transaction_id = ? AND ") + kUnresolved, {transactionId});
}

std::optional<StoredComplaint> ComplaintRepository::findByUpstream(const QString &upstreamName,
                                                                   qint64 upstreamComplaintId)
{
    return one(QStringLiteral("c.upstream_name = ? AND c.upstream_complaint_id = ?"),
               {upstreamName, upstreamComplaintId});
}

QList<StoredComplaint> ComplaintRepository::list(qint64 accountId, Mode mode, const ComplaintFilter &filter)
{
    const auto part = [&](bool resolved, qint64 beforeId, int limit) {
        QString where = QStringLiteral("c.account_id = ? AND c.mode = ? AND ") +
                        (resolved ? QStringLiteral("c.state IN ('credited', 'rejected')") : kUnresolved);
        QVariantList values{accountId, ModeNames::mode(mode)};
        if (!filter.state.isEmpty() && filter.state != QLatin1String("unresolved")) {
            where += QStringLiteral(" AND c.state = ?");
            values << filter.state;
        }
        if (filter.transactionId > 0) {
            where += QStringLiteral(" AND c.transaction_id = ?");
            values << filter.transactionId;
        }
        if (beforeId > 0) {
            where += QStringLiteral(" AND c.id < ?");
            values << beforeId;
        }
        where += QStringLiteral(" ORDER BY c.id DESC LIMIT ?");
        values << limit;
        return many(where, values);
    };
    const bool wantsUnresolved = filter.state.isEmpty() || !Complaint::isResolvedState(filter.state);
    const bool wantsResolved = filter.state.isEmpty() || Complaint::isResolvedState(filter.state);
    QList<StoredComplaint> complaints;
    if (!filter.resolvedPart && wantsUnresolved)
        complaints = part(false, filter.beforeId, filter.limit);
    if (complaints.size() < filter.limit && wantsResolved)
        complaints += part(true, filter.resolvedPart ? filter.beforeId : 0, filter.limit - int(complaints.size()));
    return complaints;
}

bool ComplaintRepository::resolve(qint64 id, const QString &state, const QString &resolution,
                                  const QString &operatorReference, const QString &resolvedBy, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("UPDATE complaints SET state = ?, resolution = ?, operator_reference = ?, resolved_by = ?,"
                       " resolved_at = ?, next_step_at = 0, updated_at = ? WHERE id = ? AND state IN ('open',"
                       " 'with_upstream')"),
        {state, textValue(resolution), textValue(operatorReference), resolvedBy, nowMs, nowMs, id});
    const bool done = q.numRowsAffected() > 0;
    q.finish();
    return done;
}

bool ComplaintRepository::updateStep(const StoredComplaint &c, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("UPDATE complaints SET state = ?, upstream_name = ?, upstream_complaint_id = ?,"
                       " upstream_note = ?, next_step_at = ?, attempts = ?, updated_at = ? WHERE id = ? AND state IN"
                       " ('open', 'with_upstream')"),
        {c.state, textValue(c.upstreamName), c.upstreamComplaintId, textValue(c.upstreamNote), c.nextStepAtMs,
         c.attempts, nowMs, c.id});
    const bool done = q.numRowsAffected() > 0;
    q.finish();
    return done;
}

QList<StoredComplaint> ComplaintRepository::claimDue(qint64 nowMs, int limit, qint64 leaseUntilMs)
{
    // The due rows first (PostgreSQL locks them until the claim commits, skipping those another server claims), then
    // their next step moved past the lease.
    const QString lock = m_db.isPostgres() ? QStringLiteral(" FOR UPDATE OF c SKIP LOCKED") : QString();
    const QList<StoredComplaint> due = many(QStringLiteral("c.next_step_at > 0 AND c.next_step_at <= ? AND ") +
                                                kUnresolved + QStringLiteral(" ORDER BY c.next_step_at LIMIT ?") + lock,
                                            {nowMs, limit});
    for (const StoredComplaint &c : due)
        m_db.run(QStringLiteral("UPDATE complaints SET next_step_at = ? WHERE id = ?"), {leaseUntilMs, c.id}).finish();
    return due;
}

std::optional<qint64> ComplaintRepository::nextDueAt()
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT MIN(next_step_at) FROM complaints WHERE next_step_at > 0"));
    std::optional<qint64> due;
    if (q.next() && !q.value(0).isNull())
        due = q.value(0).toLongLong();
    q.finish();
    return due;
}

DayEndReportData::Complaints ComplaintRepository::dayCounts(qint64 accountId, Mode mode, qint64 fromMs, qint64 toMs)
{
    const QString m = ModeNames::mode(mode);
    DayEndReportData::Complaints counts;
    counts.raised = scalar(m_db.run(QStringLiteral("SELECT COUNT(*) FROM complaints WHERE account_id = ? AND mode = ?"
                                                   " AND raised_at >= ? AND raised_at < ?"),
                                    {accountId, m, fromMs, toMs}));
    counts.open = scalar(m_db.run(QStringLiteral("SELECT COUNT(*) FROM complaints WHERE account_id = ? AND mode = ?"
                                                 " AND raised_at < ? AND (resolved_at = 0 OR resolved_at >= ?)"),
                                  {accountId, m, toMs, toMs}));
    counts.credited = scalar(m_db.run(QStringLiteral("SELECT COUNT(*) FROM complaints WHERE account_id = ? AND"
                                                     " mode = ? AND state = 'credited' AND resolved_at >= ? AND"
                                                     " resolved_at < ?"),
                                      {accountId, m, fromMs, toMs}));
    counts.rejected = scalar(m_db.run(QStringLiteral("SELECT COUNT(*) FROM complaints WHERE account_id = ? AND"
                                                     " mode = ? AND state = 'rejected' AND resolved_at >= ? AND"
                                                     " resolved_at < ?"),
                                      {accountId, m, fromMs, toMs}));
    return counts;
}
