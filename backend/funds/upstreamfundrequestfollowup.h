#pragma once

#include "upstream/followuprounds.h"
#include "upstream/upstreamclient.h"
#include "upstreamfundrequestrepository.h"

#include <QObject>
#include <QSet>

#include <functional>

class Clock;
class Database;
class UpstreamDispatcher;
class UpstreamFundRequestService;

/// How the fund request follow-up waits and retries.
using UpstreamFundRequestTiming = FollowUpTiming;

/// Takes each of the shop's fund requests to its upstream (issue 30) to its end; the step's time is a row, so a
/// restart resumes it:
/// - `sending`: POST {base_url}/fund-requests with the same body and reference_id every time (the upstream promises
///   that the same reference_id is the same request), through UpstreamClient; taken, it is `pending` with the
///   upstream's id; refused (a 4xx other than 429), `refused` with the upstream's words; no answer or a 5xx: sent
///   again later (2 s, 5 s, 10 s, 30 s, 1 min, then every 5 min, times the retry scale);
/// - `pending`: GET {base_url}/fund-requests/{its id} on a slowing schedule (1 min, 5 min, 15 min, then hourly, times
///   the retry scale) until decided there — its `event.fund_request` webhook usually comes first.
/// Several servers on one database: a due step is claimed (its time moved past the lease) before it is taken; the
/// timer looks at the shared table at least three times per lease.
class UpstreamFundRequestFollowUp final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamFundRequestFollowUp)

public:
    UpstreamFundRequestFollowUp(Database &db, const Clock &clock, UpstreamFundRequestService &requests,
                                UpstreamDispatcher &dispatcher, UpstreamFundRequestTiming timing,
                                QObject *parent = nullptr);

    /// Takes the steps already due and arms the timer (ApiServer::listen()).
    void start();
    /// How long a step claimed now is held (UTC ms from now): the call's time limit and a margin, or the lease.
    qint64 claimMs() const;
    /// Sends the new request `request` to `upstream` at once (the submit route's deferred answer); `done` runs on
    /// this thread once its answer (or none) is recorded.
    void sendNow(const StoredUpstreamFundRequest &request, const UpstreamSettings &upstream,
                 std::function<void()> done);

private:
    void act(const StoredUpstreamFundRequest &request);
    void send(StoredUpstreamFundRequest request, const UpstreamSettings &upstream, std::function<void()> done);
    void poll(StoredUpstreamFundRequest request, const UpstreamSettings &upstream);
    /// The step found no answer: the same step again later.
    void later(StoredUpstreamFundRequest request, bool polling);
    void recordOrWarn(const StoredUpstreamFundRequest &request);

    Database &m_db;
    const Clock &m_clock;
    UpstreamFundRequestService &m_requests;
    UpstreamDispatcher &m_dispatcher;
    UpstreamClient m_client;
    FollowUpRounds m_rounds;
    QSet<qint64> m_inFlight;
};
