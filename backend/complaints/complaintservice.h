#pragma once

#include "auth/authcontext.h"
#include "complaintrepository.h"
#include "entities/complaint.h"
#include "upstream/upstreamwebhookreceiver.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

class AuditLog;
class Clock;
class Database;
class SaleTerms;
class SettlementService;
class ShopSettings;
class UpstreamDispatcher;
class WebhookOutbox;

/// How a person (or the sandbox, or the upstream) ends a complaint, before the service's checks.
struct ComplaintResolution
{
    QString outcome;           ///< "credited" or "rejected"
    QString words;             ///< why; required for rejected
    QString operatorReference; ///< the operator's reference; "" when none
};

/// Complaints about sales (issue 29, "Complaints"). A clerk (any key of the account) raises one about a SUCCESS or
/// PENDING sale of the caller's account and mode; at most one per sale is unresolved. Where it goes:
/// - a test sale's: the sandbox decides it after the shop's sandbox settle delay (SandboxComplaintDecision);
/// - a live sale's whose upstream is a RechargeDesk server that offers complaints: it is sent there (the
///   ComplaintFollowUp's step), becomes `with_upstream`, and ends by that upstream's `event.complaint` webhook or by
///   polling it;
/// - any other live sale's (a spec-only aggregator): it stays `open` with the shop's admin, who resolves it by hand.
/// Resolving needs admin authority (live admin authority for a live sale's). Credited reverses the sale exactly as an
/// upstream's reversal does (UpstreamDispatcher::takeOverReportIn, SettlementService::reverseOne for a sandbox sale:
/// FAILED, failed_after_pending, refunded once, the sale's own webhook again), in the same transaction as the
/// complaint's change. Every change is audit-logged and sent to the account's webhook endpoint as `event.complaint`
/// with the complaint as payload. Times from the Clock; every call throws ApiError as documented and DatabaseError.
class ComplaintService
{
public:
    ComplaintService(Database &db, const Clock &clock, SettlementService &settlements, UpstreamDispatcher &dispatcher,
                     const SaleTerms &terms, ShopSettings &settings, AuditLog &audit, WebhookOutbox &outbox)
        : m_db(db), m_clock(clock), m_settlements(settlements), m_dispatcher(dispatcher), m_terms(terms),
          m_settings(settings), m_audit(audit), m_outbox(outbox)
    {}

    /// Called with the instant (UTC ms) of a new complaint's first step, after its commit (the follow-up's timer).
    void setStepScheduler(std::function<void(qint64 atMs)> scheduler) { m_schedule = std::move(scheduler); }

    /// Raises a complaint about the caller's sale `transactionId`. 400 `invalid_reason` (not one of
    /// Complaint::reasons()), `note_required` (reason other without a note), `invalid_note` (more than 300 characters,
    /// or control characters); 404 `transaction_not_found`; 409 `not_complainable` (the sale is FAILED) and
    /// `complaint_open` (the sale has an unresolved complaint; the description names it). Nothing is written unless
    /// every check passes.
    Complaint raise(const AuthContext &caller, qint64 transactionId, const QString &reason, const QString &note);
    /// The caller's complaint `id`; 404 `complaint_not_found`.
    Complaint get(const AuthContext &caller, qint64 id);
    /// The caller's complaints matching `filter` (ComplaintRepository::list's order).
    QList<Complaint> list(const AuthContext &caller, const ComplaintFilter &filter);
    /// Ends the caller's unresolved complaint `id` by a person's word. 400 `invalid_outcome`, `words_required`
    /// (rejected without words), `invalid_words` (more than 300 characters), `invalid_operator_reference` (more than
    /// 64 characters, or not one line); 404 `complaint_not_found`; 403 `live_authority_required` for a live sale's
    /// complaint without live authority (with admin authority in live mode a caller always has it: kept so that the
    /// rule holds whatever the route declares); 409 `complaint_resolved`. The caller has admin authority (the
    /// route's).
    Complaint resolve(const AuthContext &caller, qint64 id, const ComplaintResolution &resolution);

    /// The follow-up's step for a due test complaint: the sandbox's decision (nothing for `other`, which then waits
    /// for the admin).
    void decideInSandbox(const StoredComplaint &complaint);
    /// The upstream's answer about a complaint, as its entity (`complaint` JSON: the webhook's payload, a poll's or a
    /// send's answer): a resolved one ends ours (credited: the sale reversed here exactly once); an unresolved one is
    /// recorded as taken (with_upstream, its id). True when ours was resolved now.
    bool takeUpstreamAnswer(const StoredComplaint &complaint, const QJsonObject &upstreamComplaint,
                            qint64 nextPollAtMs);
    /// Records a follow-up step's outcome that resolves nothing: `complaint` as it should now stand (state, note, next
    /// step, attempts). False when it was resolved meanwhile.
    bool recordStep(const StoredComplaint &complaint);
    /// An `event.complaint` webhook of the upstream `upstreamName` (already authenticated by
    /// UpstreamWebhookReceiver) with `payload`, the upstream's complaint: matched by its id, else by its sale's
    /// reference_id (ours, rd-…); then takeUpstreamAnswer(). 404 `unknown_upstream_complaint` when it matches no
    /// complaint sent to that upstream; 400 `not_a_complaint` when the payload is not one.
    UpstreamWebhookReceiver::Result fromUpstreamWebhook(const QString &upstreamName, const QJsonObject &payload);

    /// The API's complaint for a stored one, its age and deadline as of now.
    Complaint present(const StoredComplaint &stored) const;

private:
    /// The first step of a new complaint (inside raise()'s transaction): a test sale's is the sandbox's decision
    /// after the shop's settle delay (none for `other`); a live sale's goes to its upstream at once when that offers
    /// complaints and knows the sale, else it stays with the shop's admin with a note saying why.
    void route(StoredComplaint &complaint, qint64 nowMs);
    /// Ends an unresolved complaint (credited reverses its sale) in one transaction with its audit entry (by `actor`)
    /// and webhook; false when it was resolved meanwhile.
    bool finish(const StoredComplaint &complaint, const QString &state, const QString &words,
                const QString &operatorReference, const QString &resolvedBy, const QString &actor);
    /// Inside the open transaction: reverses the complaint's sale (a live one as its upstream's reversal, a sandbox
    /// one by SettlementService); returns what to announce after the commit.
    std::function<void()> creditSale(const StoredComplaint &complaint, qint64 nowMs);
    /// Inside the open transaction: the complaint `id` as it now stands into the outbox (event.complaint).
    void enqueueWebhook(qint64 id);

    Database &m_db;
    const Clock &m_clock;
    SettlementService &m_settlements;
    UpstreamDispatcher &m_dispatcher;
    const SaleTerms &m_terms;
    ShopSettings &m_settings;
    AuditLog &m_audit;
    WebhookOutbox &m_outbox;
    std::function<void(qint64)> m_schedule;
};
