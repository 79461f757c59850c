#include "upstreamfundrequestfollowup.h"

#include "clock.h"
#include "fundrequestinput.h"
#include "store/database.h"
#include "upstream/upstreamdispatcher.h"
#include "upstreamfundrequestservice.h"

#include <QJsonDocument>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcFundSteps, "rechargedesk.fundrequests.followup")

using namespace Qt::StringLiterals;

namespace {

/// The body sent for `request`, the same at every attempt.
QByteArray bodyOf(const StoredUpstreamFundRequest &r)
{
    FundRequestInput input;
    input.amount = r.amount;
    input.method = r.method;
    input.utr = r.utr;
    input.note = r.note;
    input.slipType = r.slip.isEmpty() ? QString() : r.slipType;
    input.slip = r.slip;
    QJsonObject body = input.toJson();
    body.insert(QStringLiteral("reference_id"), r.referenceId);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

} // namespace

UpstreamFundRequestFollowUp::UpstreamFundRequestFollowUp(Database &db, const Clock &clock,
                                                         UpstreamFundRequestService &requests,
                                                         UpstreamDispatcher &dispatcher,
                                                         UpstreamFundRequestTiming timing, QObject *parent)
    : QObject(parent), m_db(db), m_clock(clock), m_requests(requests), m_dispatcher(dispatcher),
      m_client(clock, timing.timeoutMs),
      m_rounds(
          db, clock, timing, QStringLiteral("fund request"),
          [this](qint64 now, int limit, qint64 claimUntilMs) {
              QList<std::function<void()>> steps;
              for (const StoredUpstreamFundRequest &request :
                   UpstreamFundRequestRepository(m_db).claimDue(now, limit, claimUntilMs))
                  steps.append([this, request] { act(request); });
              return steps;
          },
          [this] { return UpstreamFundRequestRepository(m_db).nextDueAt(); }, this)
{}

void UpstreamFundRequestFollowUp::start()
{
    m_rounds.start();
}

qint64 UpstreamFundRequestFollowUp::claimMs() const
{
    return m_rounds.claimMs();
}

void UpstreamFundRequestFollowUp::sendNow(const StoredUpstreamFundRequest &request, const UpstreamSettings &upstream,
                                          std::function<void()> done)
{
    send(request, upstream, std::move(done));
}

void UpstreamFundRequestFollowUp::act(const StoredUpstreamFundRequest &r)
{
    if (m_inFlight.contains(r.id))
        return;
    const std::optional<UpstreamSettings> upstream = m_dispatcher.upstream(r.upstreamName);
    if (!upstream || !upstream->offers.fundRequests) {
        StoredUpstreamFundRequest later = r;
        later.nextCheckAtMs = m_clock.nowMs() + m_rounds.pollDelayMs(4); // it may be configured again
        qCWarning(lcFundSteps, "fund request %lld: the upstream %s takes no fund requests now", r.id,
                  qPrintable(r.upstreamName));
        return recordOrWarn(later);
    }
    if (r.state == QLatin1String("pending") && r.remoteId > 0)
        return poll(r, *upstream);
    send(r, *upstream, {});
}

void UpstreamFundRequestFollowUp::send(StoredUpstreamFundRequest r, const UpstreamSettings &upstream,
                                       std::function<void()> done)
{
    r.attempts += 1;
    m_inFlight.insert(r.id);
    m_client.call(upstream, "POST", QStringLiteral("/fund-requests"), bodyOf(r),
                  [this, r, done = std::move(done)](const UpstreamAnswer &answer) {
                      m_inFlight.remove(r.id);
                      try {
                          const QJsonObject taken = FollowUpRounds::dataOf(answer);
                          if ((answer.httpStatus == 200 || answer.httpStatus == 201) &&
                              FollowUpRounds::isEntity(taken, "fund_request"_L1)) {
                              m_requests.takeAnswer(r, taken, m_clock.nowMs() + m_rounds.pollDelayMs(1));
                              qCInfo(lcFundSteps, "fund request %lld: taken by the upstream %s as its request %lld",
                                     r.id, qPrintable(r.upstreamName), taken.value(QStringLiteral("id")).toInteger());
                          } else if (FollowUpRounds::noAnswer(answer)) {
                              later(r, false);
                          } else {
                              StoredUpstreamFundRequest refused = r;
                              refused.state = QStringLiteral("refused");
                              refused.reason = answer.inWords().left(300);
                              refused.nextCheckAtMs = 0;
                              qCInfo(lcFundSteps, "fund request %lld refused by the upstream %s: %s", r.id,
                                     qPrintable(r.upstreamName), qPrintable(refused.reason));
                              recordOrWarn(refused);
                          }
                      } catch (const std::exception &e) {
                          qCWarning(lcFundSteps, "fund request %lld: cannot record the upstream's answer: %s", r.id,
                                    e.what());
                      }
                      if (done)
                          done();
                      m_rounds.arm();
                  });
}

void UpstreamFundRequestFollowUp::poll(StoredUpstreamFundRequest r, const UpstreamSettings &upstream)
{
    r.attempts += 1;
    m_inFlight.insert(r.id);
    m_client.call(upstream, "GET", QStringLiteral("/fund-requests/%1").arg(r.remoteId), {},
                  [this, r](const UpstreamAnswer &answer) {
                      m_inFlight.remove(r.id);
                      try {
                          const QJsonObject there = FollowUpRounds::dataOf(answer);
                          if (answer.httpStatus == 200 && FollowUpRounds::isEntity(there, "fund_request"_L1))
                              m_requests.takeAnswer(r, there, m_clock.nowMs() + m_rounds.pollDelayMs(r.attempts));
                          else
                              later(r, true);
                      } catch (const std::exception &e) {
                          qCWarning(lcFundSteps, "fund request %lld: cannot record the upstream's answer: %s", r.id,
                                    e.what());
                      }
                      m_rounds.arm();
                  });
}

void UpstreamFundRequestFollowUp::later(StoredUpstreamFundRequest r, bool polling)
{
    r.nextCheckAtMs =
        m_clock.nowMs() + (polling ? m_rounds.pollDelayMs(r.attempts) : m_rounds.retryDelayMs(r.attempts));
    recordOrWarn(r);
}

void UpstreamFundRequestFollowUp::recordOrWarn(const StoredUpstreamFundRequest &r)
{
    if (!m_requests.recordStep(r))
        qCInfo(lcFundSteps, "fund request %lld was decided meanwhile", r.id);
}
