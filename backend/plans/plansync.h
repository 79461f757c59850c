#pragma once

#include "upstream/upstreamclient.h"
#include "upstream/upstreamsettings.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QLoggingCategory>
#include <QObject>
#include <QTime>
#include <QTimer>

#include <functional>
#include <memory>

class Clock;
class OperatorCatalog;
class PlanCatalogue;
class PlanCatalogueStore;

Q_DECLARE_LOGGING_CATEGORY(lcPlanSync)

/// Pacing and limits of one plan sync (issue 13, "Plans from the upstream").
struct PlanSyncOptions
{
    int gapMs = 250;                   ///< pause between two requests (the upstream's rate limit)
    int timeoutMs = 15'000;            ///< per request; no answer within it fails the pair
    int maxRateLimitRetries = 3;       ///< 429 answers retried per pair before the pair fails
    int maxRetryAfterSeconds = 120;    ///< a longer Retry-After is cut to this
    qint64 maxBodyBytes = 1024 * 1024; ///< a larger answer fails the pair
};

/// What one sync did, pair by pair.
struct PlanSyncReport
{
    enum class Outcome
    {
        Updated,   ///< 200 with plans
        Unchanged, ///< 304: the pair's plans kept from the catalogue in force
        Failed,    ///< no usable answer, or plans that are invalid; `reason` says why. The pair keeps the plans it had
    };
    struct Pair
    {
        QString operatorCode;
        QString circleCode;
        Outcome outcome = Outcome::Failed;
        QString reason;
    };

    QList<Pair> pairs;
    int requests = 0;       ///< HTTP requests sent (a 429 retry counts again)
    bool installed = false; ///< the assembled catalogue became current (failed pairs with the plans they had)
    /// What went wrong, in words: the pairs that failed and kept their plans (with installed), or why nothing was
    /// installed (every pair failed, a problem outside one pair's plans, writing). Empty when every pair synced.
    QString error;

    int count(Outcome outcome) const;
    /// "(AT, DL): HTTP 500 …" per failed pair.
    QStringList failures() const;
};

/// Copies the upstream's plans into this server's catalogue (issue 13; issue 26): asks spec endpoint 4 for every
/// mobile operator × circle through UpstreamClient (one request at a time, `gapMs` apart, at most one per pair unless
/// the upstream answers 429, whose Retry-After is waited for), with If-None-Match from the last sync's ETag of the
/// pair (a 304 keeps that pair's plans), builds the catalogue file of all pairs, validates it as the importer does
/// (PlanCatalogue::fromJson; plan ids need be unique within a pair only, as the spec implies) and installs it through
/// the store. A pair that fails (no answer, an error, plans that are invalid) keeps the plans it has in the catalogue
/// in force while the others update, and the report names it; nothing is installed when every pair failed or the
/// file is wrong elsewhere. Asynchronous: runs on the calling thread's event loop, never blocking it.
class PlanSync final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanSync)

public:
    PlanSync(const OperatorCatalog &operators, PlanCatalogueStore &store, const Clock &clock, PlanSyncOptions options,
             QObject *parent = nullptr);
    ~PlanSync() override;

    /// Starts a sync against `upstream`; false (and nothing starts) while one is running. finished() follows.
    bool start(const UpstreamSettings &upstream);
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void finished(const PlanSyncReport &report);

private:
    void sendCurrent();
    void onAnswer(const UpstreamAnswer &answer);
    /// Records the current pair (with its catalogue entry, empty when it failed) and moves on (after the gap), or
    /// finishes after the last one.
    void advance(PlanSyncReport::Outcome outcome, const QString &reason, const QJsonObject &entry = {});
    /// Whether the catalogue in force came from the upstream being synced (so its ETags are that upstream's).
    bool baseIsFromThisUpstream() const;
    /// Puts the plans pair @p index has in the catalogue in force into its entry.
    void keepPlansInForce(qsizetype index);
    /// Writes the catalogue file of all entries into @p json and validates it; a pair whose plans are invalid is
    /// marked failed and keeps its plans in force. False (with m_report.error) when it cannot be made valid that way.
    bool assemble(QByteArray *json);
    void finish();

    const OperatorCatalog &m_operators;
    PlanCatalogueStore &m_store;
    const Clock &m_clock;
    PlanSyncOptions m_options;
    UpstreamClient m_client;
    QTimer m_gap;

    bool m_running = false;
    UpstreamSettings m_upstream;
    std::shared_ptr<const PlanCatalogue> m_base; ///< the catalogue in force when the sync began
    QList<std::pair<QString, QString>> m_pairs;  ///< (operator code, circle code), all of them
    qsizetype m_index = 0;
    int m_rateLimitRetries = 0; ///< of the current pair
    QJsonArray m_entries;       ///< the catalogue file's entries, pair by pair as far as the sync came
    PlanSyncReport m_report;
};

/// Runs a callback every day at a fixed IST time of day (`serve --plans-sync-at`).
class DailyTimer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DailyTimer)

public:
    /// `at`: IST wall-clock time (QTime, e.g. 04:30).
    DailyTimer(const Clock &clock, QTime at, std::function<void()> job, QObject *parent = nullptr);

    /// Milliseconds from `now` to the next `at` in IST (0 < result <= 24 h).
    static qint64 msUntil(const QDateTime &now, QTime at);

private:
    void schedule();

    const Clock &m_clock;
    QTime m_at;
    std::function<void()> m_job;
    QTimer m_timer;
};
