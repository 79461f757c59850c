#pragma once

#include "upstreamclient.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <optional>

class Clock;
class Database;

/// How a follow-up waits and retries (ServerOptions: the upstream's time limit and retry scale, the lease).
struct FollowUpTiming
{
    int timeoutMs = 15'000;  ///< per call to the upstream
    double retryScale = 1.0; ///< multiplies the retry and poll schedules (tests: 0.01)
    qint64 leaseMs = 30'000; ///< a claimed step is not taken by another server before this is over
};

/// The rounds of a follow-up whose next steps are rows with a due time (a complaint sent to the upstream, issue 29; a
/// fund request sent to the upstream, issue 30), so a restart resumes them and several servers on one database share
/// them: each round claims the due steps in one write transaction (their time moved past the claim, so one server
/// takes each), takes them after the commit, and arms the timer for the next due step — and never sleeps longer than
/// a third of the lease, since another server may add a step or die holding a claim at any time. A round that fails
/// is tried again after a second. Also the schedules the steps share, in ms before scaling: sends without an answer
/// again after 2 s, 5 s, 10 s, 30 s, 1 min, then every 5 min; polls after 1 min, 5 min, 15 min, then hourly.
class FollowUpRounds final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FollowUpRounds)

public:
    /// Inside the round's open write transaction: claims at most `limit` steps due at `nowMs` (UTC ms) until
    /// `claimUntilMs`, and returns how to take each, run after the commit (a step that throws is logged and taken
    /// again once its claim is over).
    using Claim = std::function<QList<std::function<void()>>(qint64 nowMs, int limit, qint64 claimUntilMs)>;
    /// When the next step is due (UTC ms), nullopt when none is. May throw DatabaseError.
    using NextDue = std::function<std::optional<qint64>()>;

    /// `what` names the steps in the log ("complaint", "fund request").
    FollowUpRounds(Database &db, const Clock &clock, FollowUpTiming timing, QString what, Claim claim, NextDue nextDue,
                   QObject *parent = nullptr);

    /// Takes the steps already due and arms the timer (ApiServer::listen()).
    void start();
    /// Makes sure the timer fires no later than `atMs` (UTC ms).
    void scheduleAt(qint64 atMs);
    /// Reads when the next step is due and arms the timer for it (after a step's answer was recorded).
    void arm();
    /// How long a step claimed now is held (ms): the call's time limit and a margin, or the lease.
    qint64 claimMs() const;
    /// When to send again after `attempts` sends found no answer (ms from now, scaled).
    qint64 retryDelayMs(int attempts) const;
    /// When to poll again after `attempts` polls (ms from now, scaled).
    qint64 pollDelayMs(int attempts) const;
    const FollowUpTiming &timing() const { return m_timing; }

    /// {"data": {...}} of an upstream's answer, or an empty object.
    static QJsonObject dataOf(const UpstreamAnswer &answer);
    /// No answer that decides anything: none at all, a 5xx, or a 429.
    static bool noAnswer(const UpstreamAnswer &answer);
    /// `json` is an entity of that name with an id > 0.
    static bool isEntity(const QJsonObject &json, QLatin1StringView entity);

private:
    void onTimer();

    Database &m_db;
    const Clock &m_clock;
    FollowUpTiming m_timing;
    QString m_what;
    Claim m_claim;
    NextDue m_nextDue;
    QTimer m_timer;
    qint64 m_armedForMs = 0;
};
