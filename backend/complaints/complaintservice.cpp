#include "complaintservice.h"

#include "apierror.h"
#include "auth/authorizer.h"
#include "clock.h"
#include "money.h"
#include "sandboxcomplaints.h"
#include "services/saleterms.h"
#include "services/settlementservice.h"
#include "store/database.h"
#include "store/transactionrepository.h"
#include "upstream/upstreamdispatcher.h"
#include "upstream/upstreamsalerepository.h"
#include "users/auditlog.h"
#include "users/shopsettings.h"
#include "validators.h"
#include "webhooks/webhookoutbox.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcComplaints, "rechargedesk.complaints")

namespace {

QDateTime instant(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

/// Who acts, as a complaint shows it: the signed-in person's name, else "key:<key_id>".
QString who(const AuthContext &caller)
{
    return caller.hasSession() ? caller.userName : QStringLiteral("key:") + caller.keyId;
}

ApiError complaintNotFound(qint64 id)
{
    return ApiError::notFound(QStringLiteral("complaint_not_found"),
                              QStringLiteral("no complaint %1 for this account").arg(id));
}

ApiError complaintOpen(const StoredComplaint &open)
{
    return ApiError::conflict(QStringLiteral("complaint_open"),
                              QStringLiteral("transaction %1 already has complaint %2 (%3): one complaint per sale "
                                             "until it is resolved")
                                  .arg(open.transactionId)
                                  .arg(open.id)
                                  .arg(open.state));
}

ApiError alreadyResolved(const StoredComplaint &c)
{
    return ApiError::conflict(QStringLiteral("complaint_resolved"),
                              QStringLiteral("complaint %1 is already resolved (%2)").arg(c.id).arg(c.state));
}

/// Text of at most `max` characters after trimming (`lines`: newlines allowed), else 400 `reason` naming `field`.
QString checkedText(const QString &text, int max, const QString &field, const QString &reason, bool lines)
{
    const QString trimmed = text.trimmed();
    if (trimmed.size() > max || !Validators::isPlainText(trimmed, lines))
        throw ApiError::badRequest(field, reason,
                                   QStringLiteral("%1 must be at most %2 characters%3")
                                       .arg(field)
                                       .arg(max)
                                       .arg(lines ? QString() : QStringLiteral(" on one line")));
    return trimmed;
}

} // namespace

Complaint ComplaintService::present(const StoredComplaint &s) const
{
    const qint64 now = m_clock.nowMs();
    const qint64 until = s.resolved() ? s.resolvedAtMs : now;
    Complaint c;
    c.id = s.id;
    c.transactionId = s.transactionId;
    c.referenceId = s.referenceId;
    c.number = s.number;
    c.operatorCode = s.operatorCode;
    c.amount = s.amount;
    c.saleStatus = TransactionNames::status(s.saleStatus);
    c.mode = ModeNames::mode(s.mode);
    c.reason = s.reason;
    c.note = s.note;
    c.state = s.state;
    c.resolution = s.resolution;
    c.operatorReference = s.operatorReference;
    c.raisedBy = s.raisedBy;
    c.raisedAt = instant(s.raisedAtMs);
    c.resolvedBy = s.resolvedBy;
    if (s.resolved())
        c.resolvedAt = instant(s.resolvedAtMs);
    c.deadlineAt = instant(s.deadlineAtMs);
    c.ageSeconds = qMax(qint64(0), (until - s.raisedAtMs) / 1000);
    c.pastDeadline = until > s.deadlineAtMs;
    if (s.mode == Mode::Live)
        c.upstream = Complaint::Upstream{s.upstreamName, s.upstreamComplaintId, s.upstreamNote};
    return c;
}

void ComplaintService::route(StoredComplaint &c, qint64 nowMs)
{
    if (c.mode == Mode::Test) {
        // The sandbox decides after the shop's settle delay, as it settles a PENDING sale; `other` is a person's.
        c.nextStepAtMs = SandboxComplaintDecision::of(c.reason, c.transactionId)
                             ? nowMs + qMax(qint64(0), m_terms.settleDelayMs(c.accountId))
                             : 0;
        return;
    }
    const std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(c.transactionId);
    if (!sale) {
        c.upstreamNote = QStringLiteral("this live sale was never sent to an upstream: resolve it by hand");
        return;
    }
    c.upstreamName = sale->upstreamName;
    const std::optional<UpstreamSettings> upstream = m_dispatcher.upstream(sale->upstreamName);
    if (!upstream) {
        c.upstreamNote = QStringLiteral("the upstream %1 that sold it is not configured any more: resolve it by hand")
                             .arg(sale->upstreamName);
    } else if (!upstream->offers.complaints) {
        c.upstreamNote = QStringLiteral("the upstream %1 takes no complaints through its API (a spec-only aggregator): "
                                        "raise it with the aggregator (its dashboard or support), then resolve it here "
                                        "by hand")
                             .arg(sale->upstreamName);
    } else if (sale->upstreamId <= 0) {
        c.upstreamNote = QStringLiteral("the upstream %1 has not answered this sale with its transaction id yet: "
                                        "resolve it by hand")
                             .arg(sale->upstreamName);
    } else {
        c.nextStepAtMs = qMax(qint64(1), nowMs); // sent by the follow-up right after the commit
    }
}

Complaint ComplaintService::raise(const AuthContext &caller, qint64 transactionId, const QString &reason,
                                  const QString &note)
{
    if (!Complaint::reasons().contains(reason))
        throw ApiError::badRequest(
            QStringLiteral("reason"), QStringLiteral("invalid_reason"),
            QStringLiteral("reason must be one of %1").arg(Complaint::reasons().join(QStringLiteral(", "))));
    const QString words =
        checkedText(note, Complaint::kMaxNote, QStringLiteral("note"), QStringLiteral("invalid_note"), true);
    if (reason == QLatin1String("other") && words.isEmpty())
        throw ApiError::badRequest(QStringLiteral("note"), QStringLiteral("note_required"),
                                   QStringLiteral("a complaint for another reason needs a note saying what is wrong"));
    const qint64 now = m_clock.nowMs();
    StoredComplaint c;
    ComplaintRepository complaints(m_db);
    try {
        WriteTransaction transaction(m_db);
        const std::optional<StoredTransaction> sale =
            TransactionRepository(m_db).find(caller.accountId, caller.mode, transactionId);
        if (!sale)
            throw ApiError::notFound(QStringLiteral("transaction_not_found"),
                                     QStringLiteral("no transaction %1 for this account").arg(transactionId));
        if (sale->record.status == TransactionStatus::Failed)
            throw ApiError::conflict(QStringLiteral("not_complainable"),
                                     QStringLiteral("transaction %1 is FAILED (its money was given back): only a "
                                                    "SUCCESS or PENDING sale takes a complaint")
                                         .arg(transactionId));
        if (const std::optional<StoredComplaint> open = complaints.unresolvedOfSale(transactionId))
            throw complaintOpen(*open);
        c.accountId = caller.accountId;
        c.mode = caller.mode;
        c.transactionId = transactionId;
        c.reason = reason;
        c.note = words;
        c.raisedBy = who(caller);
        c.raisedAtMs = now;
        c.deadlineAtMs = now + m_settings.complaintDeadlineMs(caller.accountId);
        route(c, now);
        c.id = complaints.insert(c, now);
        m_audit.record(
            caller.accountId, caller.actor(), QStringLiteral("complaint.raise"),
            QStringLiteral("complaint %1 about transaction %2 (%3, %4): %5%6")
                .arg(c.id)
                .arg(transactionId)
                .arg(sale->record.number.isEmpty() ? TransactionNames::type(sale->record.type) : sale->record.number,
                     Money::format(sale->record.billAmount), reason,
                     words.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(words)));
        enqueueWebhook(c.id);
        transaction.commit();
    } catch (const DatabaseError &error) {
        // Another request raised one between the check and the insert (the partial unique index refused it).
        if (!error.isUniqueViolation())
            throw;
        if (const std::optional<StoredComplaint> open = complaints.unresolvedOfSale(transactionId))
            throw complaintOpen(*open);
        throw;
    }
    m_outbox.wake();
    if (c.nextStepAtMs > 0 && m_schedule)
        m_schedule(c.nextStepAtMs);
    return get(caller, c.id);
}

Complaint ComplaintService::get(const AuthContext &caller, qint64 id)
{
    const std::optional<StoredComplaint> c = ComplaintRepository(m_db).find(caller.accountId, caller.mode, id);
    if (!c)
        throw complaintNotFound(id);
    return present(*c);
}

QList<Complaint> ComplaintService::list(const AuthContext &caller, const ComplaintFilter &filter)
{
    QList<Complaint> complaints;
    for (const StoredComplaint &stored : ComplaintRepository(m_db).list(caller.accountId, caller.mode, filter))
        complaints.append(present(stored));
    return complaints;
}

Complaint ComplaintService::resolve(const AuthContext &caller, qint64 id, const ComplaintResolution &resolution)
{
    if (resolution.outcome != QLatin1String("credited") && resolution.outcome != QLatin1String("rejected"))
        throw ApiError::badRequest(QStringLiteral("outcome"), QStringLiteral("invalid_outcome"),
                                   QStringLiteral("outcome must be credited (the sale is reversed and its money given "
                                                  "back) or rejected"));
    const QString words = checkedText(resolution.words, Complaint::kMaxNote, QStringLiteral("words"),
                                      QStringLiteral("invalid_words"), true);
    if (resolution.outcome == QLatin1String("rejected") && words.isEmpty())
        throw ApiError::badRequest(QStringLiteral("words"), QStringLiteral("words_required"),
                                   QStringLiteral("a rejected complaint needs words saying why (the customer is "
                                                  "told them)"));
    const QString reference =
        checkedText(resolution.operatorReference, Complaint::kMaxOperatorReference,
                    QStringLiteral("operator_reference"), QStringLiteral("invalid_operator_reference"), false);
    const std::optional<StoredComplaint> c = ComplaintRepository(m_db).find(caller.accountId, caller.mode, id);
    if (!c)
        throw complaintNotFound(id);
    // A live sale's credit moves live money: a test admin key alone may not (as the live sale terms).
    if (c->mode == Mode::Live)
        Authorizer::requireLiveAuthority(caller);
    if (c->resolved() || !finish(*c, resolution.outcome, words, reference, who(caller), caller.actor()))
        throw alreadyResolved(*c);
    return get(caller, id);
}

void ComplaintService::decideInSandbox(const StoredComplaint &c)
{
    const std::optional<SandboxComplaintDecision> decision = SandboxComplaintDecision::of(c.reason, c.transactionId);
    if (!decision) {
        StoredComplaint waiting = c;
        waiting.nextStepAtMs = 0;
        WriteTransaction transaction(m_db);
        ComplaintRepository(m_db).updateStep(waiting, m_clock.nowMs());
        transaction.commit();
        return;
    }
    finish(c, decision->state, decision->words, decision->operatorReference, QStringLiteral("sandbox"),
           QStringLiteral("sandbox"));
}

bool ComplaintService::takeUpstreamAnswer(const StoredComplaint &c, const QJsonObject &upstream, qint64 nextPollAtMs)
{
    const QString state = upstream.value(QStringLiteral("state")).toString();
    if (Complaint::isResolvedState(state)) {
        const auto text = [&upstream](const char *field) {
            return upstream.value(QLatin1String(field)).toString().trimmed();
        };
        const QString upstreamActor = QStringLiteral("upstream:") + c.upstreamName;
        return finish(c, state, text("resolution").left(Complaint::kMaxNote),
                      text("operator_reference").left(Complaint::kMaxOperatorReference), upstreamActor, upstreamActor);
    }
    StoredComplaint taken = c;
    const qint64 upstreamId = upstream.value(QStringLiteral("id")).toInteger();
    if (upstreamId > 0)
        taken.upstreamComplaintId = upstreamId;
    taken.state = QStringLiteral("with_upstream");
    taken.upstreamNote.clear();
    taken.nextStepAtMs = nextPollAtMs;
    WriteTransaction transaction(m_db);
    ComplaintRepository complaints(m_db);
    // As stored now: the upstream's webhook and the answer to the send may both say it was taken.
    const std::optional<StoredComplaint> stored = complaints.findById(c.id);
    const bool newlyTaken = stored && stored->state != QLatin1String("with_upstream");
    if (complaints.updateStep(taken, m_clock.nowMs()) && newlyTaken)
        enqueueWebhook(c.id);
    transaction.commit();
    if (newlyTaken)
        m_outbox.wake();
    return false;
}

bool ComplaintService::recordStep(const StoredComplaint &c)
{
    WriteTransaction transaction(m_db);
    const bool written = ComplaintRepository(m_db).updateStep(c, m_clock.nowMs());
    transaction.commit();
    return written;
}

UpstreamWebhookReceiver::Result ComplaintService::fromUpstreamWebhook(const QString &upstreamName,
                                                                      const QJsonObject &payload)
{
    const QString state = payload.value(QStringLiteral("state")).toString();
    const qint64 upstreamId = payload.value(QStringLiteral("id")).toInteger();
    if (payload.value(QStringLiteral("entity")).toString() != QLatin1String("complaint") ||
        !Complaint::states().contains(state) || upstreamId <= 0)
        throw ApiError::badRequest(QStringLiteral("data.payload"), QStringLiteral("not_a_complaint"),
                                   QStringLiteral("data.payload of an event.complaint is not a complaint"));
    ComplaintRepository complaints(m_db);
    std::optional<StoredComplaint> c = complaints.findByUpstream(upstreamName, upstreamId);
    if (!c) {
        // Its answer may come before ours was written: the sale it names (its reference_id is ours, rd-…).
        const QString reference = payload.value(QStringLiteral("reference_id")).toString();
        const std::optional<UpstreamSale> sale =
            reference.isEmpty() ? std::nullopt : UpstreamSaleRepository(m_db).findByReference(reference);
        if (sale && sale->upstreamName == upstreamName)
            c = complaints.unresolvedOfSale(sale->transactionId);
        if (c && c->upstreamComplaintId > 0 && c->upstreamComplaintId != upstreamId)
            c.reset(); // another complaint of the upstream's
    }
    if (!c)
        throw ApiError::notFound(QStringLiteral("unknown_upstream_complaint"),
                                 QStringLiteral("no complaint of this server was sent to the upstream %1 as its "
                                                "complaint %2")
                                     .arg(upstreamName)
                                     .arg(upstreamId));
    if (c->resolved())
        return UpstreamWebhookReceiver::Result::Unchanged;
    const bool resolved = takeUpstreamAnswer(*c, payload, c->nextStepAtMs);
    return resolved ? UpstreamWebhookReceiver::Result::Settled : UpstreamWebhookReceiver::Result::Unchanged;
}

bool ComplaintService::finish(const StoredComplaint &c, const QString &state, const QString &words,
                              const QString &operatorReference, const QString &resolvedBy, const QString &actor)
{
    const qint64 now = m_clock.nowMs();
    std::function<void()> announce;
    {
        WriteTransaction transaction(m_db);
        if (!ComplaintRepository(m_db).resolve(c.id, state, words, operatorReference, resolvedBy, now))
            return false;
        const bool credited = state == QLatin1String("credited");
        if (credited)
            announce = creditSale(c, now);
        m_audit.record(
            c.accountId, actor, QStringLiteral("complaint.resolve"),
            QStringLiteral("complaint %1 about transaction %2 %3%4%5")
                .arg(c.id)
                .arg(c.transactionId)
                .arg(credited
                         ? QStringLiteral("credited (the sale reversed, %1 refunded once)").arg(Money::format(c.amount))
                         : QStringLiteral("rejected"),
                     words.isEmpty() ? QString() : QStringLiteral(": ") + words,
                     operatorReference.isEmpty() ? QString()
                                                 : QStringLiteral(" (operator reference %1)").arg(operatorReference)));
        enqueueWebhook(c.id);
        transaction.commit();
    }
    if (announce)
        announce();
    m_outbox.wake();
    qCInfo(lcComplaints, "complaint %lld about sale %lld: %s by %s", c.id, c.transactionId, qPrintable(state),
           qPrintable(resolvedBy));
    return true;
}

std::function<void()> ComplaintService::creditSale(const StoredComplaint &c, qint64 nowMs)
{
    // A live sale: exactly as its upstream's report of FAILED (a waiting sale ends FAILED, a SUCCESS one is reversed;
    // each refunded once; the reversal's source "complaint").
    const UpstreamDispatcher::Report report =
        m_dispatcher.takeOverReportIn(c.transactionId, TransactionStatus::Failed, QStringLiteral("complaint"), nowMs);
    if (report != UpstreamDispatcher::Report::NotOurs)
        return [this, id = c.transactionId, report] { m_dispatcher.announceReport(id, report); };
    // A sandbox sale: the same reversal of SettlementService (SUCCESS), or its settle of a PENDING one as FAILED.
    const std::optional<StoredTransaction> sale = TransactionRepository(m_db).findById(c.transactionId);
    if (!sale || sale->record.status == TransactionStatus::Failed)
        return {}; // already given back: credited without a second refund
    bool changed = false;
    if (sale->record.status == TransactionStatus::Success) {
        changed = m_settlements.reverseOne(c.transactionId, nowMs);
        if (changed)
            m_audit.record(sale->accountId, QStringLiteral("sandbox"), QStringLiteral("transaction.reversal"),
                           QStringLiteral("Transaction %1 reversed by complaint %2: FAILED after SUCCESS, %3 refunded")
                               .arg(c.transactionId)
                               .arg(c.id)
                               .arg(Money::format(sale->record.paid)));
    } else {
        changed = m_settlements.settleOne(c.transactionId, TransactionStatus::Failed, QString(), nowMs);
    }
    if (!changed)
        return {};
    return [this, id = c.transactionId] { m_settlements.announce(id); };
}

void ComplaintService::enqueueWebhook(qint64 id)
{
    const std::optional<StoredComplaint> c = ComplaintRepository(m_db).findById(id);
    if (c)
        m_outbox.enqueueEvent(c->accountId, c->mode, WebhookOutbox::complaintEventType(), c->transactionId,
                              present(*c).toJson());
}
