#include "complaintfollowup.h"

#include "clock.h"
#include "complaintservice.h"
#include "store/database.h"
#include "upstream/upstreamdispatcher.h"
#include "upstream/upstreamsalerepository.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QUrlQuery>

Q_LOGGING_CATEGORY(lcComplaintSteps, "rechargedesk.complaints.followup")

namespace {
constexpr int kRoundSize = 50;
constexpr qint64 kRetryAfterErrorMs = 1000;
constexpr qint64 kPollsPerLease = 3;
/// A claim outlasts the call's time limit by at least this much (ms): the time to write its answer.
constexpr qint64 kAnswerMarginMs = 5'000;
/// Before scaling, in ms: sends that found no answer, and polls of a complaint with the upstream.
constexpr qint64 kRetrySchedule[] = {2'000, 5'000, 10'000, 30'000, 60'000, 300'000};
constexpr qint64 kPollSchedule[] = {60'000, 300'000, 900'000, 3'600'000};

template <std::size_t N> qint64 fromSchedule(const qint64 (&schedule)[N], int attempts, double scale)
{
    const std::size_t index = std::min<std::size_t>(std::size_t(qMax(1, attempts) - 1), N - 1);
    return qMax(qint64(10), qint64(double(schedule[index]) * scale));
}

/// {"data": {...}} of an answer, or an empty object.
QJsonObject dataOf(const UpstreamAnswer &answer)
{
    return QJsonDocument::fromJson(answer.body).object().value(QStringLiteral("data")).toObject();
}

bool isComplaint(const QJsonObject &json)
{
    return json.value(QStringLiteral("entity")).toString() == QLatin1String("complaint") &&
           json.value(QStringLiteral("id")).toInteger() > 0;
}

/// No answer that decides anything: none at all, a 5xx, or a 429.
bool noAnswer(const UpstreamAnswer &answer)
{
    return answer.httpStatus == 0 || answer.httpStatus >= 500 || answer.httpStatus == 429;
}

} // namespace

ComplaintFollowUp::ComplaintFollowUp(Database &db, const Clock &clock, ComplaintService &complaints,
                                     UpstreamDispatcher &dispatcher, ComplaintFollowUpTiming timing, QObject *parent)
    : QObject(parent), m_db(db), m_clock(clock), m_complaints(complaints), m_dispatcher(dispatcher), m_timing(timing),
      m_client(clock, timing.timeoutMs)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ComplaintFollowUp::onTimer);
    m_complaints.setStepScheduler([this](qint64 atMs) { scheduleAt(atMs); });
}

void ComplaintFollowUp::start()
{
    onTimer();
}

void ComplaintFollowUp::scheduleAt(qint64 atMs)
{
    if (m_timer.isActive() && m_armedForMs <= atMs)
        return;
    m_armedForMs = atMs;
    m_timer.start(int(qBound(qint64(0), atMs - m_clock.nowMs(), qint64(24 * 3600 * 1000))));
}

void ComplaintFollowUp::onTimer()
{
    try {
        QList<StoredComplaint> due;
        {
            const qint64 now = m_clock.nowMs();
            WriteTransaction transaction(m_db);
            due = ComplaintRepository(m_db).claimDue(
                now, kRoundSize, now + qMax(m_timing.leaseMs, m_timing.timeoutMs + kAnswerMarginMs));
            transaction.commit();
        }
        for (const StoredComplaint &complaint : std::as_const(due)) {
            try {
                act(complaint);
            } catch (const std::exception &e) {
                qCWarning(lcComplaintSteps, "complaint %lld: step failed, tried again after the lease: %s",
                          complaint.id, e.what());
            }
        }
        arm();
    } catch (const std::exception &e) {
        qCWarning(lcComplaintSteps, "complaint round failed, retrying: %s", e.what());
        m_armedForMs = m_clock.nowMs() + kRetryAfterErrorMs;
        m_timer.start(int(kRetryAfterErrorMs));
    }
}

void ComplaintFollowUp::arm()
{
    std::optional<qint64> next;
    try {
        next = ComplaintRepository(m_db).nextDueAt();
    } catch (const std::exception &e) {
        qCWarning(lcComplaintSteps, "cannot read the next complaint step: %s", e.what());
        next = m_clock.nowMs() + kRetryAfterErrorMs;
    }
    // Never asleep for long: another server may raise a complaint, or die holding a claim, at any time.
    const qint64 now = m_clock.nowMs();
    const qint64 at = now + qMax(qint64(100), m_timing.leaseMs / kPollsPerLease);
    m_timer.stop();
    scheduleAt(next ? qMin(at, qMax(*next, now)) : at);
}

void ComplaintFollowUp::act(StoredComplaint c)
{
    if (c.mode == Mode::Test) {
        m_complaints.decideInSandbox(c);
        return;
    }
    if (m_inFlight.contains(c.id))
        return;
    const std::optional<UpstreamSettings> upstream = m_dispatcher.upstream(c.upstreamName);
    if (!upstream || !upstream->offers.complaints)
        return toAdmin(c, QStringLiteral("the upstream %1 takes no complaints through its API any more: resolve it "
                                         "by hand")
                              .arg(c.upstreamName));
    if (c.upstreamComplaintId > 0)
        return poll(c, *upstream);
    const std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(c.transactionId);
    if (!sale || sale->upstreamId <= 0 || sale->upstreamName != c.upstreamName)
        return toAdmin(c, QStringLiteral("the upstream %1 does not know this sale by its transaction id: resolve it by "
                                         "hand")
                              .arg(c.upstreamName));
    send(c, *upstream, sale->upstreamId);
}

void ComplaintFollowUp::send(StoredComplaint c, const UpstreamSettings &upstream, qint64 upstreamSaleId)
{
    c.attempts += 1;
    QJsonObject body{{QStringLiteral("reason"), c.reason}};
    if (!c.note.isEmpty())
        body.insert(QStringLiteral("note"), c.note);
    m_inFlight.insert(c.id);
    m_client.call(
        upstream, "POST", QStringLiteral("/transactions/%1/complaints").arg(upstreamSaleId),
        QJsonDocument(body).toJson(QJsonDocument::Compact),
        [this, c, upstream, upstreamSaleId](const UpstreamAnswer &answer) {
            m_inFlight.remove(c.id);
            try {
                const QJsonObject taken = dataOf(answer);
                if ((answer.httpStatus == 200 || answer.httpStatus == 201) && isComplaint(taken)) {
                    m_complaints.takeUpstreamAnswer(c, taken, m_clock.nowMs() + pollDelayMs(1));
                    qCInfo(lcComplaintSteps, "complaint %lld: taken by the upstream %s as its complaint %lld", c.id,
                           qPrintable(c.upstreamName), taken.value(QStringLiteral("id")).toInteger());
                } else if (answer.httpStatus == 409 &&
                           UpstreamError::of(answer.body).reason == QLatin1String("complaint_open")) {
                    adopt(c, upstream, upstreamSaleId);
                } else if (noAnswer(answer)) {
                    later(c, false);
                } else {
                    toAdmin(c, QStringLiteral("the upstream %1 refused the complaint (%2): resolve it by hand")
                                   .arg(c.upstreamName, answer.inWords()));
                }
            } catch (const std::exception &e) {
                qCWarning(lcComplaintSteps, "complaint %lld: cannot record the upstream's answer: %s", c.id, e.what());
            }
            arm();
        });
}

void ComplaintFollowUp::adopt(StoredComplaint c, const UpstreamSettings &upstream, qint64 upstreamSaleId)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("transaction_id"), QString::number(upstreamSaleId));
    query.addQueryItem(QStringLiteral("state"), QStringLiteral("unresolved"));
    m_inFlight.insert(c.id);
    m_client.call(upstream, "GET", QStringLiteral("/complaints?") + query.toString(QUrl::FullyEncoded), {},
                  [this, c](const UpstreamAnswer &answer) {
                      m_inFlight.remove(c.id);
                      try {
                          const QJsonArray items = dataOf(answer).value(QStringLiteral("items")).toArray();
                          const QJsonObject open = items.isEmpty() ? QJsonObject() : items.first().toObject();
                          if (answer.httpStatus == 200 && isComplaint(open))
                              m_complaints.takeUpstreamAnswer(c, open, m_clock.nowMs() + pollDelayMs(1));
                          else
                              later(c, false); // resolved there meanwhile, or no answer: send again, and see
                      } catch (const std::exception &e) {
                          qCWarning(lcComplaintSteps, "complaint %lld: cannot record the upstream's answer: %s", c.id,
                                    e.what());
                      }
                      arm();
                  });
}

void ComplaintFollowUp::poll(StoredComplaint c, const UpstreamSettings &upstream)
{
    c.attempts += 1;
    m_inFlight.insert(c.id);
    m_client.call(upstream, "GET", QStringLiteral("/complaints/%1").arg(c.upstreamComplaintId), {},
                  [this, c](const UpstreamAnswer &answer) {
                      m_inFlight.remove(c.id);
                      try {
                          const QJsonObject there = dataOf(answer);
                          if (answer.httpStatus == 200 && isComplaint(there))
                              m_complaints.takeUpstreamAnswer(c, there, m_clock.nowMs() + pollDelayMs(c.attempts));
                          else if (answer.httpStatus == 404)
                              toAdmin(c, QStringLiteral("the upstream %1 no longer knows its complaint %2: resolve it "
                                                        "by hand")
                                             .arg(c.upstreamName)
                                             .arg(c.upstreamComplaintId));
                          else
                              later(c, true);
                      } catch (const std::exception &e) {
                          qCWarning(lcComplaintSteps, "complaint %lld: cannot record the upstream's answer: %s", c.id,
                                    e.what());
                      }
                      arm();
                  });
}

void ComplaintFollowUp::later(StoredComplaint c, bool polling)
{
    c.nextStepAtMs = m_clock.nowMs() + (polling ? pollDelayMs(c.attempts) : retryDelayMs(c.attempts));
    recordOrWarn(c);
}

void ComplaintFollowUp::toAdmin(StoredComplaint c, const QString &note)
{
    c.state = QStringLiteral("open");
    c.upstreamNote = note;
    c.nextStepAtMs = 0;
    qCInfo(lcComplaintSteps, "complaint %lld stays with the shop's admin: %s", c.id, qPrintable(note));
    recordOrWarn(c);
}

void ComplaintFollowUp::recordOrWarn(const StoredComplaint &c)
{
    if (!m_complaints.recordStep(c))
        qCInfo(lcComplaintSteps, "complaint %lld was resolved meanwhile", c.id);
}

qint64 ComplaintFollowUp::retryDelayMs(int attempts) const
{
    return fromSchedule(kRetrySchedule, attempts, m_timing.retryScale);
}

qint64 ComplaintFollowUp::pollDelayMs(int attempts) const
{
    return fromSchedule(kPollSchedule, attempts, m_timing.retryScale);
}
