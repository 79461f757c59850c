#pragma once

#include "complaintrepository.h"
#include "upstream/followuprounds.h"
#include "upstream/upstreamclient.h"

#include <QObject>
#include <QSet>

class Clock;
class ComplaintService;
class Database;
class UpstreamDispatcher;

/// How the complaint follow-up waits and retries.
using ComplaintFollowUpTiming = FollowUpTiming;

/// Takes each complaint's next step when it is due (issue 29; the step's time is a row, so a restart resumes it):
/// - a test sale's: the sandbox's decision (ComplaintService::decideInSandbox);
/// - a live sale's, not yet at its RechargeDesk upstream: POST {base_url}/transactions/{its id}/complaints with the
///   reason and note, through UpstreamClient (a 409 `complaint_open` there means an earlier send arrived: its
///   unresolved complaint of that sale is adopted); taken, it is `with_upstream`; refused (another 4xx), it stays
///   `open` with the shop's admin with the upstream's words; no answer or a 5xx: sent again later (backoff);
/// - with the upstream: GET {base_url}/complaints/{its id} on a slowing schedule (1 min, 5 min, 15 min, then hourly,
///   times the retry scale) until it is resolved there — its `event.complaint` webhook usually comes first.
/// Several servers on one database: a due step is claimed (its time moved past the lease) before it is taken, so
/// one server takes it; the timer looks at the shared table at least three times per lease.
class ComplaintFollowUp final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ComplaintFollowUp)

public:
    ComplaintFollowUp(Database &db, const Clock &clock, ComplaintService &complaints, UpstreamDispatcher &dispatcher,
                      ComplaintFollowUpTiming timing, QObject *parent = nullptr);

    /// Takes the steps already due and arms the timer (ApiServer::listen()).
    void start();
    /// Makes sure the timer fires no later than `atMs` (UTC ms).
    void scheduleAt(qint64 atMs);

private:
    void act(StoredComplaint complaint);
    void send(StoredComplaint complaint, const UpstreamSettings &upstream, qint64 upstreamSaleId);
    void poll(StoredComplaint complaint, const UpstreamSettings &upstream);
    /// After a 409 `complaint_open` at the upstream: finds its unresolved complaint of the sale and takes it over.
    void adopt(StoredComplaint complaint, const UpstreamSettings &upstream, qint64 upstreamSaleId);
    /// The step found no answer: the same step again later.
    void later(StoredComplaint complaint, bool polling);
    /// It cannot go (further) to the upstream: open with the shop's admin, `note` saying why.
    void toAdmin(StoredComplaint complaint, const QString &note);
    void recordOrWarn(const StoredComplaint &complaint);

    Database &m_db;
    const Clock &m_clock;
    ComplaintService &m_complaints;
    UpstreamDispatcher &m_dispatcher;
    UpstreamClient m_client;
    FollowUpRounds m_rounds;
    QSet<qint64> m_inFlight;
};
