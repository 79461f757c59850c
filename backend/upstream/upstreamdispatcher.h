#pragma once

#include "services/fulfilment.h"
#include "store/transactionrepository.h"
#include "upstreamclient.h"
#include "upstreamsalerepository.h"
#include "upstreamsettingsrepository.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>

class AadhaarVault;
class Clock;
class CommitBatcher;
class Database;
class SettlementService;

/// How the dispatcher waits and retries (ServerOptions, `serve --upstream-*`).
struct UpstreamTiming
{
    int timeoutMs = 15'000;  ///< per call, and how long initiate waits for the first answer
    double retryScale = 1.0; ///< multiplies the retry and poll schedules (tests: 0.01)
    /// How long a claim on a sale's call holds (ServerOptions::leaseMs), never less than timeoutMs plus
    /// 5 s (time to write the answer): a dead server's call is made again by another server once it is over.
    qint64 leaseMs = 30'000;
    /// This server among several on one database (ServerOptions::leaseOwner); the same after its restart.
    QString leaseOwner;
};

/// The live-sale state machine of issue 11 (architecture.md, "Live sales through an upstream"):
/// sends each queued sale to the upstream with its fixed reference_id and body, takes over a
/// definite answer (SUCCESS, FAILED with refund, PENDING, refusal with refund) through
/// SettlementService::settleOne() exactly once, re-sends unknown outcomes with backoff and polls
/// PENDING ones (GET /transactions/{upstream_id}). Everything it knows is in the database
/// (upstream_sales), so start() resumes after a restart. Every call is logged (UpstreamCallRepository)
/// and updates the upstream's health.
///
/// Commits: a sale's first call needs none of its own — the `queued` row committed with the sale
/// carries this server's lease (lease_owner, lease_until); its restart treats `queued` as "maybe sent".
///
/// Several servers on one database (issue 16): a call is made only under this server's lease on the sale,
/// claimed in a write before it (claimDue(), FOR UPDATE SKIP LOCKED) and ended by the answer's write, so each
/// call is made by one server; a dead server's leases end after UpstreamTiming::leaseMs and another server
/// makes the call. The timer looks at the shared table at least three times per lease time.
///
/// Answers are taken over through the CommitBatcher, so the answers of one event-loop turn share one commit
/// with each other and with the sales of that turn.
class UpstreamDispatcher final : public QObject, public AsyncFulfilment
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamDispatcher)

public:
    /// `vault` (may be null) unseals the upstream key; `batcher` groups the answers' writes.
    UpstreamDispatcher(Database &db, CommitBatcher &batcher, const Clock &clock, SettlementService &settlements,
                       const AadhaarVault *vault, UpstreamTiming timing, QObject *parent = nullptr);

    /// Resumes after a (re)start: sales caught in flight become unknown and are re-sent, PENDING
    /// ones polled; arms the timer.
    void start();

    void checkAvailable() override;
    QJsonObject enqueue(const StoredTransaction &row, const SaleRequest &sale, qint64 nowMs) override;
    void dispatch(qint64 transactionId, qint64 accountId, LiveWaiter waiter) override;
    void pendingShown(qint64 transactionId) override;
    QJsonObject describe(qint64 transactionId) override;

    /// Asks the upstream about one sale now (POST /transactions/{id}/upstream-recheck): a status
    /// check when its upstream id is known, else the same request again. `done` runs after the
    /// answer is written (or the wait is over). Throws ApiError 409 `not_waiting_on_upstream`
    /// when the sale is settled or refused.
    void recheck(qint64 transactionId, std::function<void()> done);

    /// Takes over a final record the upstream pushed (POST /hooks/upstream): finds the sale by
    /// reference_id (else upstream id). nullopt when no sale of ours matches; true when the sale
    /// settled now; false when nothing changed (a repeat, a PENDING record, already settled).
    std::optional<bool> takeOverWebhook(const QString &referenceId, qint64 upstreamId, TransactionStatus status,
                                        const QString &redeemCode);

    /// Result of one harmless authenticated call (POST /api/v1/upstream/check, `upstream check`).
    struct CheckResult
    {
        bool ok = false;
        int httpStatus = 0; ///< 0: no HTTP answer
        qint64 latencyMs = 0;
        QString message; ///< plain words for the person who configures
    };
    /// Makes one plans lookup with `settings` (no sale, no money) and reports in words.
    void check(const UpstreamSettings &settings, std::function<void(const CheckResult &)> done);

    UpstreamSettingsRepository settings();
    /// The configured upstream (UpstreamSettingsCache: unsealed again only after a change).
    std::optional<UpstreamSettings> currentSettings();

private:
    struct Waiter;
    /// What one answer's batched write left, for the waiting client and the webhook.
    struct Outcome
    {
        bool settled = false;
        bool quiet = false; ///< settled without a webhook: the initiate answer carries the final record
        StoredTransaction row;
        QJsonObject upstream;
    };
    void onTimer();
    void arm();
    /// One arm() in the next event-loop turn for all the answers of a batch.
    void armSoon();
    /// Sends the sales dispatched in the last turn (their first call).
    void sendDispatched();
    /// True when the sale's only waiter is its initiate, still able to take the final record.
    bool initiateCarriesTheEnd(qint64 transactionId) const;
    /// The upstream's health after an answer, written once per batch (the batch's last answer tells).
    void recordContactSoon(bool answered, const QString &error, qint64 nowMs);
    /// The webhook of a quiet settle whose initiate answer did not reach its client, in a write of its own.
    void notifyLater(const StoredTransaction &settled, qint64 accountId, int retriesLeft = 5);
    /// Who holds the lease on a sale's call when act() is asked to make it.
    enum class Claim
    {
        FirstCall, ///< the sale's first call: its lease was committed with the sale (no write before the call)
        Held,      ///< claimed by this server's claimDue() round
        None       ///< claimed now, in the write before the call; no call when another server holds it
    };
    void act(const UpstreamSale &sale, Claim claim = Claim::None);
    void send(UpstreamSale sale, const UpstreamSettings &settings, Claim claim);
    void poll(UpstreamSale sale, const UpstreamSettings &settings, Claim claim);
    /// The write before a call that is not a first call: claims the sale unless `claim` is Held, then writes
    /// `sale` (state, attempts, next attempt). False (nothing written) when another server holds the sale.
    bool claimAndWrite(const UpstreamSale &sale, Claim claim, qint64 nowMs);
    /// End (UTC ms) of a lease taken at `nowMs`.
    qint64 leaseUntil(qint64 nowMs) const;
    void onAnswer(const UpstreamSale &before, const QString &method, const QString &endpoint, qint64 startedMs,
                  const UpstreamAnswer &answer);
    /// Applies a definite answer (inside an open write transaction); false when nothing changed.
    /// `quiet`: settle without a webhook; `settled` receives the final row; `pending`: the sale's
    /// PENDING row when at hand (SettlementService::settleOne()).
    bool apply(UpstreamSale &sale, const UpstreamVerdict &verdict, qint64 nowMs, bool quiet = false,
               StoredTransaction *settled = nullptr, const StoredTransaction *pending = nullptr);
    /// Answers every waiter of the sale (`known`: what the answer's commit wrote, else read again);
    /// true when an initiate's answer reached its client.
    bool answerWaiters(qint64 transactionId, const LiveAnswer &known = {});
    qint64 retryDelayMs(int attempts) const;
    qint64 pollDelayMs(int attempts) const;

    Database &m_db;
    CommitBatcher &m_batcher;
    const Clock &m_clock;
    SettlementService &m_settlements;
    const AadhaarVault *m_vault;
    UpstreamTiming m_timing;
    UpstreamClient m_client;
    UpstreamSettingsCache m_settings;
    QTimer m_timer;
    bool m_armQueued = false;
    QSet<qint64> m_inFlight;
    QHash<qint64, QList<std::shared_ptr<Waiter>>> m_waiters;
    /// What enqueue() wrote, kept for the sale's first call and its answer (no read back).
    struct Enqueued
    {
        UpstreamSale sale;
        StoredTransaction row; ///< the PENDING transaction row
    };
    /// Entries of sales not dispatched yet. One whose batch was rolled back stays until its
    /// transaction id comes again (enqueue() overwrites it).
    QHash<qint64, Enqueued> m_enqueued;
    QHash<qint64, StoredTransaction> m_pendingRows; ///< of sales whose first call is on the wire
    QHash<qint64, qint64> m_accounts;               ///< account of each dispatched sale until its first answer
    QList<qint64> m_toSend;                         ///< dispatched in this turn, sent in the next
    bool m_sendQueued = false;
    struct Contact
    {
        bool answered = false;
        QString error;
        qint64 atMs = 0;
    };
    std::optional<Contact> m_contact; ///< the last answer's health, not written yet
    bool m_contactQueued = false;
};
