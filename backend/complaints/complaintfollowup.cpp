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

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcComplaintSteps, "rechargedesk.complaints.followup")

ComplaintFollowUp::ComplaintFollowUp(Database &db, const Clock &clock, ComplaintService &complaints,
                                     UpstreamDispatcher &dispatcher, ComplaintFollowUpTiming timing, QObject *parent)
    : QObject(parent), m_db(db), m_clock(clock), m_complaints(complaints), m_dispatcher(dispatcher),
      m_client(clock, timing.timeoutMs),
      m_rounds(
          db, clock, timing, QStringLiteral("complaint"),
          [this](qint64 now, int limit, qint64 claimUntilMs) {
              QList<std::function<void()>> steps;
              for (const StoredComplaint &complaint : ComplaintRepository(m_db).claimDue(now, limit, claimUntilMs))
                  steps.append([this, complaint] { act(complaint); });
              return steps;
          },
          [this] { return ComplaintRepository(m_db).nextDueAt(); }, this)
{
    m_complaints.setStepScheduler([this](qint64 atMs) { scheduleAt(atMs); });
}

void ComplaintFollowUp::start()
{
    m_rounds.start();
}

void ComplaintFollowUp::scheduleAt(qint64 atMs)
{
    m_rounds.scheduleAt(atMs);
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
                const QJsonObject taken = FollowUpRounds::dataOf(answer);
                if ((answer.httpStatus == 200 || answer.httpStatus == 201) &&
                    FollowUpRounds::isEntity(taken, "complaint"_L1)) {
                    m_complaints.takeUpstreamAnswer(c, taken, m_clock.nowMs() + m_rounds.pollDelayMs(1));
                    qCInfo(lcComplaintSteps, "complaint %lld: taken by the upstream %s as its complaint %lld", c.id,
                           qPrintable(c.upstreamName), taken.value(QStringLiteral("id")).toInteger());
                } else if (answer.httpStatus == 409 &&
                           UpstreamError::of(answer.body).reason == QLatin1String("complaint_open")) {
                    adopt(c, upstream, upstreamSaleId);
                } else if (FollowUpRounds::noAnswer(answer)) {
                    later(c, false);
                } else {
                    toAdmin(c, QStringLiteral("the upstream %1 refused the complaint (%2): resolve it by hand")
                                   .arg(c.upstreamName, answer.inWords()));
                }
            } catch (const std::exception &e) {
                qCWarning(lcComplaintSteps, "complaint %lld: cannot record the upstream's answer: %s", c.id, e.what());
            }
            m_rounds.arm();
        });
}

void ComplaintFollowUp::adopt(StoredComplaint c, const UpstreamSettings &upstream, qint64 upstreamSaleId)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("transaction_id"), QString::number(upstreamSaleId));
    query.addQueryItem(QStringLiteral("state"), QStringLiteral("unresolved"));
    m_inFlight.insert(c.id);
    m_client.call(
        upstream, "GET", QStringLiteral("/complaints?") + query.toString(QUrl::FullyEncoded), {},
        [this, c](const UpstreamAnswer &answer) {
            m_inFlight.remove(c.id);
            try {
                const QJsonArray items = FollowUpRounds::dataOf(answer).value(QStringLiteral("items")).toArray();
                const QJsonObject open = items.isEmpty() ? QJsonObject() : items.first().toObject();
                if (answer.httpStatus == 200 && FollowUpRounds::isEntity(open, "complaint"_L1))
                    m_complaints.takeUpstreamAnswer(c, open, m_clock.nowMs() + m_rounds.pollDelayMs(1));
                else
                    later(c, false); // resolved there meanwhile, or no answer: send again, and see
            } catch (const std::exception &e) {
                qCWarning(lcComplaintSteps, "complaint %lld: cannot record the upstream's answer: %s", c.id, e.what());
            }
            m_rounds.arm();
        });
}

void ComplaintFollowUp::poll(StoredComplaint c, const UpstreamSettings &upstream)
{
    c.attempts += 1;
    m_inFlight.insert(c.id);
    m_client.call(
        upstream, "GET", QStringLiteral("/complaints/%1").arg(c.upstreamComplaintId), {},
        [this, c](const UpstreamAnswer &answer) {
            m_inFlight.remove(c.id);
            try {
                const QJsonObject there = FollowUpRounds::dataOf(answer);
                if (answer.httpStatus == 200 && FollowUpRounds::isEntity(there, "complaint"_L1))
                    m_complaints.takeUpstreamAnswer(c, there, m_clock.nowMs() + m_rounds.pollDelayMs(c.attempts));
                else if (answer.httpStatus == 404)
                    toAdmin(c, QStringLiteral("the upstream %1 no longer knows its complaint %2: resolve it "
                                              "by hand")
                                   .arg(c.upstreamName)
                                   .arg(c.upstreamComplaintId));
                else
                    later(c, true);
            } catch (const std::exception &e) {
                qCWarning(lcComplaintSteps, "complaint %lld: cannot record the upstream's answer: %s", c.id, e.what());
            }
            m_rounds.arm();
        });
}

void ComplaintFollowUp::later(StoredComplaint c, bool polling)
{
    c.nextStepAtMs = m_clock.nowMs() + (polling ? m_rounds.pollDelayMs(c.attempts) : m_rounds.retryDelayMs(c.attempts));
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
