#include "followuprounds.h"

#include "clock.h"
#include "store/database.h"

#include <QJsonDocument>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcFollowUp, "rechargedesk.upstream.followup")

namespace {
constexpr int kRoundSize = 50;
constexpr qint64 kRetryAfterErrorMs = 1000;
constexpr qint64 kPollsPerLease = 3;
/// A claim outlasts the call's time limit by at least this much (ms): the time to write its answer.
constexpr qint64 kAnswerMarginMs = 5'000;
constexpr qint64 kRetrySchedule[] = {2'000, 5'000, 10'000, 30'000, 60'000, 300'000};
constexpr qint64 kPollSchedule[] = {60'000, 300'000, 900'000, 3'600'000};

template <std::size_t N> qint64 fromSchedule(const qint64 (&schedule)[N], int attempts, double scale)
{
    const std::size_t index = std::min<std::size_t>(std::size_t(qMax(1, attempts) - 1), N - 1);
    return qMax(qint64(10), qint64(double(schedule[index]) * scale));
}
} // namespace

FollowUpRounds::FollowUpRounds(Database &db, const Clock &clock, FollowUpTiming timing, QString what, Claim claim,
                               NextDue nextDue, QObject *parent)
    : QObject(parent), m_db(db), m_clock(clock), m_timing(timing), m_what(std::move(what)), m_claim(std::move(claim)),
      m_nextDue(std::move(nextDue))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &FollowUpRounds::onTimer);
}

void FollowUpRounds::start()
{
    onTimer();
}

void FollowUpRounds::scheduleAt(qint64 atMs)
{
    if (m_timer.isActive() && m_armedForMs <= atMs)
        return;
    m_armedForMs = atMs;
    m_timer.start(int(qBound(qint64(0), atMs - m_clock.nowMs(), qint64(24 * 3600 * 1000))));
}

qint64 FollowUpRounds::claimMs() const
{
    return qMax(m_timing.leaseMs, m_timing.timeoutMs + kAnswerMarginMs);
}

qint64 FollowUpRounds::retryDelayMs(int attempts) const
{
    return fromSchedule(kRetrySchedule, attempts, m_timing.retryScale);
}

qint64 FollowUpRounds::pollDelayMs(int attempts) const
{
    return fromSchedule(kPollSchedule, attempts, m_timing.retryScale);
}

QJsonObject FollowUpRounds::dataOf(const UpstreamAnswer &answer)
{
    return QJsonDocument::fromJson(answer.body).object().value(QStringLiteral("data")).toObject();
}

bool FollowUpRounds::noAnswer(const UpstreamAnswer &answer)
{
    return answer.httpStatus == 0 || answer.httpStatus >= 500 || answer.httpStatus == 429;
}

bool FollowUpRounds::isEntity(const QJsonObject &json, QLatin1StringView entity)
{
    return json.value(QStringLiteral("entity")).toString() == entity &&
           json.value(QStringLiteral("id")).toInteger() > 0;
}

void FollowUpRounds::onTimer()
{
    try {
        QList<std::function<void()>> steps;
        {
            const qint64 now = m_clock.nowMs();
            WriteTransaction transaction(m_db);
            steps = m_claim(now, kRoundSize, now + claimMs());
            transaction.commit();
        }
        for (const std::function<void()> &step : std::as_const(steps)) {
            try {
                step();
            } catch (const std::exception &e) {
                qCWarning(lcFollowUp, "%s: a step failed, tried again after the lease: %s", qPrintable(m_what),
                          e.what());
            }
        }
        arm();
    } catch (const std::exception &e) {
        qCWarning(lcFollowUp, "%s round failed, retrying: %s", qPrintable(m_what), e.what());
        m_armedForMs = m_clock.nowMs() + kRetryAfterErrorMs;
        m_timer.start(int(kRetryAfterErrorMs));
    }
}

void FollowUpRounds::arm()
{
    std::optional<qint64> next;
    try {
        next = m_nextDue();
    } catch (const std::exception &e) {
        qCWarning(lcFollowUp, "cannot read the next %s step: %s", qPrintable(m_what), e.what());
        next = m_clock.nowMs() + kRetryAfterErrorMs;
    }
    const qint64 now = m_clock.nowMs();
    const qint64 at = now + qMax(qint64(100), m_timing.leaseMs / kPollsPerLease);
    m_timer.stop();
    scheduleAt(next ? qMin(at, qMax(*next, now)) : at);
}
