#pragma once

#include "services/fulfilment.h"
#include "store/transactionrepository.h"
#include "upstreamclient.h"
#include "upstreamoffersread.h"
#include "upstreamresolver.h"
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
    int timeoutMs = 15'000;  ///< per call; initiate waits for the first answer at most this and a quarter second
    double retryScale = 1.0; ///< multiplies the retry and poll schedules (tests: 0.01)
    /// How long a claim on a sale's call holds (ServerOptions::leaseMs), never less than timeoutMs plus
    /// 5 s (time to write the answer): a dead server's call is made again by another server once it is over.
    qint64 leaseMs = 30'000;
    /// This server among several on one database (ServerOptions::leaseOwner); the same after its restart.
    QString leaseOwner;
    /// A live sale still waiting on the upstream this long after it was made needs a person's attention (serve
    /// --upstream-attention-after-s, ServerOptions::upstreamAttentionAfterS; issue 26).
    qint64 attentionAfterMs = 1'800'000;
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

    void checkAvailable(const SaleRequest &sale) override;
    void enqueue(const StoredTransaction &row, const SaleRequest &sale, qint64 nowMs) override;
    void dispatch(qint64 transactionId, qint64 accountId, LiveWaiter waiter) override;
    void pendingShown(qint64 transactionId) override;
    QJsonObject describe(qint64 transactionId, qint64 createdAtMs) override;

    /// Sales made at or before this instant (UTC ms) and still waiting on the upstream need attention.
    qint64 attentionCutoffMs() const;
    /// serve --upstream-attention-after-s, in ms.
    qint64 attentionAfterMs() const { return m_timing.attentionAfterMs; }
    /// A person ends a PENDING live sale (UpstreamResolver::resolve(), same errors), then its webhook is announced
    /// and anyone waiting on it is answered.
    StoredTransaction resolve(UpstreamResolver &resolver, qint64 accountId, qint64 transactionId,
                              const UpstreamResolver::Decision &decision, const QString &actor);
    /// Reads what the upstream of `settings` offers beyond api-v1.md (GET {base_url}/openapi.json,
    /// UpstreamOffersRead) and stores it when it answered; `done` (may be empty) runs with what was read.
    void readOffers(const UpstreamSettings &settings, std::function<void(const UpstreamOffersRead &)> done = {});

    /// Asks the upstream about one sale now (POST /transactions/{id}/upstream-recheck): a status
    /// check when its upstream id is known, else the same request again. `done` runs after the
    /// answer is written (or the wait is over). Throws ApiError 409 `not_waiting_on_upstream`
    /// when the sale is settled or refused.
    void recheck(qint64 transactionId, std::function<void()> done);

    /// What taking over one report of the upstream did.
    enum class Report
    {
        NotOurs,   ///< no sale of ours has that reference_id (or upstream id)
        Unchanged, ///< a repeat, a PENDING report, or a final status the sale already has
        Settled,   ///< a sale waiting on the upstream ended now (FAILED refunded once)
        Reversed,  ///< FAILED for a sale held SUCCESS: reversed now, refunded once, our webhook sent again
        Mismatch,  ///< SUCCESS for a sale held FAILED: recorded for a person, no money moved
    };
    /// Takes over what the upstream reported about one sale — its webhook (POST /hooks/upstream, `source`
    /// "webhook") or a row of its statement ("statement") — found by reference_id, else by the upstream's id
    /// (issue 26, "Ending what is unknown"; api-conventions.md "Leaving SUCCESS or FAILED"). A waiting sale ends
    /// exactly once; a final one is reversed or marked as a mismatch as Report says; audit-logged.
    /// `upstreamName`: the upstream that reports (its webhook path); a sale sent to another one is NotOurs. Empty:
    /// any (a statement row, matched by reference_id alone). Throws DatabaseError.
    Report takeOverReport(const QString &referenceId, qint64 upstreamId, TransactionStatus status,
                          const QString &redeemCode, const QString &source, const QString &upstreamName = {});
    /// takeOverReport() for the live sale `transactionId` (found by our own id), inside the caller's open write
    /// transaction, so that what made the report (issue 29: a complaint credited) commits with it: a waiting sale
    /// ends exactly once, a final one is reversed (refunded once, `source` recorded as the reversal's) or marked as a
    /// mismatch. NotOurs when the sale was never sent to an upstream. The caller commits, then calls announceReport().
    /// Throws DatabaseError.
    Report takeOverReportIn(qint64 transactionId, TransactionStatus status, const QString &source, qint64 nowMs,
                            qint64 upstreamId = 0, const QString &redeemCode = {});
    /// After the commit of a takeOverReportIn(): announces a sale that ended or was reversed (its webhook is woken)
    /// and answers anyone waiting on it.
    void announceReport(qint64 transactionId, Report report);

    /// Result of one harmless authenticated call (POST /api/v1/upstream/check, `upstream check`).
    struct CheckResult
    {
        bool ok = false;
        int httpStatus = 0; ///< 0: no HTTP answer
        qint64 latencyMs = 0;
        QString message; ///< plain words for the person who configures
    };
    /// Makes one plans lookup with `settings` (no sale, no money), then reads and stores what the upstream offers
    /// (readOffers()) when the key was accepted, and reports both in words.
    void check(const UpstreamSettings &settings, std::function<void(const CheckResult &)> done);

    /// True when an upstream of that name is configured (its settings can be unsealed). Until a server keeps several
    /// upstreams, the one upstream is named "default".
    bool hasUpstream(const QString &name);

    UpstreamSettingsRepository settings();
    /// The upstream of that name (UpstreamSettingsCache: unsealed again only after a change); nullopt when none.
    std::optional<UpstreamSettings> upstream(const QString &name);
    /// Every configured upstream by priority (the cache's).
    QList<UpstreamSettings> upstreams() { return m_settings.all(); }

private:
    struct Waiter;
    /// What one answer's batched write left, for the waiting client and the webhook.
    struct Outcome
    {
        bool settled = false;
        bool quiet = false;   ///< settled without a webhook: the initiate answer carries the final record
        bool movedOn = false; ///< a definite failure moved the sale to its next upstream
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
    /// An upstream's health after an answer, written once per batch (the batch's last answer of it tells).
    void recordContactSoon(const QString &upstreamName, bool answered, const QString &error, qint64 nowMs);
    /// The upstream a sale moves to after a definite failure at its current one: the next enabled one by priority
    /// that sells its service and operator and has not had it; nullopt when none is left.
    std::optional<UpstreamSettings> nextUpstream(const UpstreamSale &sale);
    /// Inside the answer's write: after a refusal or FAILED at its upstream, moves `sale` to nextUpstream() (its
    /// words kept in `tried`, a new reference_id, that upstream's promises); false (nothing written) when it is not
    /// such a failure or no upstream is left.
    bool moveOn(UpstreamSale &sale, const UpstreamVerdict &verdict, qint64 nowMs);
    /// After the commit of a moveOn(): sends the sale to its new upstream.
    void sendMovedOn(qint64 transactionId);
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
    /// False for a sale sent once already to an upstream that did not promise an idempotent reference_id (unless
    /// what is due is a status check it offers): nothing may go to the upstream for it again.
    static bool mayCall(const UpstreamSale &sale);
    void send(UpstreamSale sale, const UpstreamSettings &settings, Claim claim);
    void poll(UpstreamSale sale, const UpstreamSettings &settings, Claim claim);
    /// The write before a call that is not a first call: claims the sale unless `claim` is Held, then writes
    /// `sale` (state, attempts, next attempt). False (nothing written) when another server holds the sale.
    bool claimAndWrite(const UpstreamSale &sale, Claim claim, qint64 nowMs);
    /// End (UTC ms) of a lease taken at `nowMs`.
    qint64 leaseUntil(qint64 nowMs) const;
    void onAnswer(const UpstreamSale &before, const QString &method, const QString &endpoint, qint64 startedMs,
                  const UpstreamAnswer &answer);
    /// Applies an answer (inside an open write transaction): true when it settled the sale now. Nothing is written
    /// when the sale no longer waits under the reference of `sale` (UpstreamSaleRepository::updateWaiting()): it was
    /// ended meanwhile. `quiet`: settle without a webhook; `settled` receives the final row; `pending`: the sale's
    /// PENDING row when at hand (SettlementService::settleOne()); `written`: whether the sale's row was written.
    bool apply(UpstreamSale &sale, const UpstreamVerdict &verdict, qint64 nowMs, bool quiet = false,
               StoredTransaction *settled = nullptr, const StoredTransaction *pending = nullptr,
               bool *written = nullptr);
    /// A final report for a sale that is no longer waiting (inside the open write transaction): a reversal, a
    /// mismatch for a person, or nothing for a repeat.
    Report takeOverLateReport(const UpstreamSale &sale, TransactionStatus status, const QString &source, qint64 nowMs);
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
    QHash<QString, Contact> m_contacts; ///< the last answer's health per upstream, not written yet
    bool m_contactQueued = false;
};
