#include "upstreamdispatcher.h"

#include "apierror.h"
#include "clock.h"
#include "money.h"
#include "services/commitbatcher.h"
#include "services/settlementservice.h"
#include "store/database.h"
#include "store/transactionrepository.h"
#include "upstreamcallrepository.h"
#include "users/auditlog.h"

#include <QJsonDocument>
#include <QLoggingCategory>

#include <limits>

Q_LOGGING_CATEGORY(lcUpstream, "rechargedesk.upstream")

namespace {
constexpr int kRoundSize = 100;
constexpr qint64 kRetryAfterErrorMs = 1000;
/// A lease outlasts the call's time limit by at least this much (ms): the time to write its answer.
constexpr qint64 kAnswerMarginMs = 5'000;
/// A client waiting on a call is answered by the call's end (its answer or its time limit, written first), or by its
/// own timer this long after the call's time limit, whichever comes first: the call starts a moment after the wait.
constexpr int kWaiterMarginMs = 250;
/// Sleep of the timer at most, as a share of the lease time: another server's sales (and leases that ended)
/// are seen this often.
constexpr qint64 kPollsPerLease = 3;
/// Backoff between re-sends of an unknown outcome and between status checks, in ms (before scaling).
constexpr qint64 kRetrySchedule[] = {1'000, 2'000, 5'000, 10'000, 30'000, 60'000, 120'000, 300'000};
constexpr qint64 kPollSchedule[] = {2'000, 5'000, 10'000, 30'000, 60'000, 300'000};

QString endpointFor(TransactionType type)
{
    switch (type) {
    case TransactionType::Mobile:
        return QStringLiteral("/recharge/mobile/initiate-transaction");
    case TransactionType::Voucher:
        return QStringLiteral("/voucher/appstore/initiate-transaction");
    case TransactionType::Dth:
        return QStringLiteral("/recharge/dth/initiate-transaction");
    }
    return QString();
}

/// The spec's request body for `sale` (api-v1.md endpoints 5, 6, 7) under our own reference_id.
QByteArray requestBody(const SaleRequest &sale, const QString &referenceId)
{
    QJsonObject body{{QStringLiteral("amount"), sale.billAmount / 100}, {QStringLiteral("reference_id"), referenceId}};
    switch (sale.type) {
    case TransactionType::Mobile:
        body.insert(QStringLiteral("phone_number"), sale.number);
        body.insert(QStringLiteral("operator_code"), sale.operatorCode);
        break;
    case TransactionType::Voucher:
        if (!sale.customerEmail.isEmpty())
            body.insert(QStringLiteral("customer_email"), sale.customerEmail);
        break;
    case TransactionType::Dth:
        body.insert(QStringLiteral("number"), sale.number);
        body.insert(QStringLiteral("operator_code"), sale.operatorCode);
        break;
    }
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

/// The service a sale is (UpstreamSettings::serviceNames()).
QString serviceOf(TransactionType type)
{
    switch (type) {
    case TransactionType::Mobile:
        return QStringLiteral("mobile");
    case TransactionType::Voucher:
        return QStringLiteral("voucher");
    case TransactionType::Dth:
        return QStringLiteral("dth");
    }
    return QString();
}

/// The service of the sale whose request goes to `endpoint`.
QString serviceOfEndpoint(const QString &endpoint)
{
    for (TransactionType type : {TransactionType::Mobile, TransactionType::Voucher, TransactionType::Dth})
        if (endpointFor(type) == endpoint)
            return serviceOf(type);
    return QString();
}

/// `body` (a sale's JSON request) with another reference_id.
QByteArray withReference(const QByteArray &body, const QString &referenceId)
{
    QJsonObject json = QJsonDocument::fromJson(body).object();
    json.insert(QStringLiteral("reference_id"), referenceId);
    return QJsonDocument(json).toJson(QJsonDocument::Compact);
}

/// The error in words a call is logged with; empty for a definite answer.
QString verdictError(const UpstreamVerdict &verdict)
{
    if (verdict.kind != UpstreamVerdict::Kind::Unknown && verdict.kind != UpstreamVerdict::Kind::Refused)
        return QString();
    return verdict.errorDescription.isEmpty() ? verdict.errorCode : verdict.errorDescription;
}

template <std::size_t N> qint64 fromSchedule(const qint64 (&schedule)[N], int attempts, double scale)
{
    const std::size_t index = std::min<std::size_t>(std::size_t(qMax(1, attempts) - 1), N - 1);
    return qMax(qint64(10), qint64(double(schedule[index]) * scale));
}
} // namespace

struct UpstreamDispatcher::Waiter
{
    /// Answers the client; true when it reached the client (see LiveWaiter).
    std::function<bool(const LiveAnswer &)> answer;
    std::function<bool()> waiting; ///< empty for a recheck
    bool initiate = false;         ///< the initiate of a new sale (else a recheck)
    bool pendingShown = false;     ///< a replay told a client PENDING meanwhile
    QTimer timer;
};

UpstreamDispatcher::UpstreamDispatcher(Database &db, CommitBatcher &batcher, const Clock &clock,
                                       SettlementService &settlements, const AadhaarVault *vault, UpstreamTiming timing,
                                       QObject *parent)
    : QObject(parent), m_db(db), m_batcher(batcher), m_clock(clock), m_settlements(settlements), m_vault(vault),
      m_timing(timing), m_client(clock, timing.timeoutMs), m_settings(db, vault)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &UpstreamDispatcher::onTimer);
}

UpstreamSettingsRepository UpstreamDispatcher::settings()
{
    return UpstreamSettingsRepository(m_db, m_vault);
}

bool UpstreamDispatcher::hasUpstream(const QString &name)
{
    return m_settings.find(name).has_value();
}

std::optional<UpstreamSettings> UpstreamDispatcher::upstream(const QString &name)
{
    return m_settings.find(name);
}

void UpstreamDispatcher::start()
{
    try {
        UpstreamSaleRepository(m_db).resumeInFlight(m_clock.nowMs(), m_timing.leaseOwner);
    } catch (const std::exception &e) {
        qCWarning(lcUpstream, "cannot resume upstream sales: %s", e.what());
    }
    // What the upstreams offer may have changed since they were last read (say, one was upgraded): read it again.
    try {
        for (const UpstreamSettings &upstream : m_settings.all())
            readOffers(upstream, [name = upstream.name](const UpstreamOffersRead &read) {
                qCInfo(lcUpstream, "upstream %s: %s", qPrintable(name), qPrintable(read.message));
            });
    } catch (const std::exception &e) {
        qCWarning(lcUpstream, "cannot read the upstream settings: %s", e.what());
    }
    onTimer();
}

void UpstreamDispatcher::checkAvailable(const SaleRequest &sale)
{
    if (m_settings.candidates(serviceOf(sale.type), sale.operatorCode).isEmpty())
        throw ApiError::gatewayUnavailable(
            QStringLiteral("no_live_provider"),
            QStringLiteral("no upstream provider is configured that sells this live (%1%2); nothing was charged. "
                           "Configure one with `rechargedesk upstream set --url BASE_URL --credential-file FILE` or "
                           "in Back office → Settings → Upstreams")
                .arg(serviceOf(sale.type),
                     sale.operatorCode.isEmpty() ? QString() : QStringLiteral(" ") + sale.operatorCode));
}

void UpstreamDispatcher::enqueue(const StoredTransaction &row, const SaleRequest &sale, qint64 nowMs)
{
    UpstreamSale s;
    s.transactionId = row.record.transactionId;
    s.referenceId = QStringLiteral("rd-%1-%2").arg(m_settings.serverId()).arg(s.transactionId);
    s.state = UpstreamState::Queued;
    const QList<UpstreamSettings> candidates = m_settings.candidates(serviceOf(sale.type), sale.operatorCode);
    const UpstreamOffers offers = candidates.isEmpty() ? UpstreamOffers{} : candidates.constFirst().offers;
    if (!candidates.isEmpty())
        s.upstreamName = candidates.constFirst().name;
    s.sendOnce = !offers.idempotentReferenceId;
    s.statusCheck = offers.statusCheck;
    // The lease of the first call (dispatch() sends it without a write of its own): no server sends it
    // again before the lease is over; this server's restart sends its `queued` sales again at once — unless the
    // upstream did not promise that the same reference_id is the same sale: then only dispatch() ever sends it.
    s.nextAttemptAtMs = s.sendOnce ? UpstreamSale::kNever : nowMs + m_timing.timeoutMs + retryDelayMs(1);
    s.leaseOwner = m_timing.leaseOwner;
    s.leaseUntilMs = leaseUntil(nowMs);
    s.endpoint = endpointFor(sale.type);
    s.requestBody = requestBody(sale, s.referenceId);
    UpstreamSaleRepository(m_db).insert(s, nowMs);
    m_enqueued.insert(s.transactionId, Enqueued{s, row});
}

void UpstreamDispatcher::dispatch(qint64 transactionId, qint64 accountId, LiveWaiter live)
{
    auto waiter = std::make_shared<Waiter>();
    waiter->answer = std::move(live.answer);
    waiter->waiting = std::move(live.waiting);
    waiter->initiate = true;
    waiter->timer.setSingleShot(true);
    connect(&waiter->timer, &QTimer::timeout, this, [this, transactionId, w = waiter.get()] {
        const auto found = m_waiters.find(transactionId);
        if (found == m_waiters.end())
            return;
        QList<std::shared_ptr<Waiter>> &list = found.value();
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (list.at(i).get() == w) {
                const std::shared_ptr<Waiter> keep = list.takeAt(i);
                if (list.isEmpty())
                    m_waiters.erase(found);
                keep->answer(LiveAnswer{});
                return;
            }
        }
    });
    waiter->timer.start(m_timing.timeoutMs + kWaiterMarginMs);
    m_waiters[transactionId].append(waiter);
    m_accounts.insert(transactionId, accountId);
    m_toSend.append(transactionId);
    if (!m_sendQueued) {
        m_sendQueued = true;
        QTimer::singleShot(0, this, &UpstreamDispatcher::sendDispatched);
    }
}

void UpstreamDispatcher::sendDispatched()
{
    m_sendQueued = false;
    const QList<qint64> ids = std::exchange(m_toSend, {});
    const UpstreamSettingsCache::Pass pass(m_settings); // one look at the settings for all of them
    for (const qint64 transactionId : ids) {
        try {
            Enqueued known = m_enqueued.take(transactionId);
            std::optional<UpstreamSale> sale = known.sale;
            if (known.sale.transactionId == transactionId)
                m_pendingRows.insert(transactionId, std::move(known.row));
            else // not at hand: read it
                sale = UpstreamSaleRepository(m_db).find(transactionId);
            if (sale)
                act(*sale, sale->state == UpstreamState::Queued && sale->attempts == 0 &&
                                   sale->leaseOwner == m_timing.leaseOwner
                               ? Claim::FirstCall
                               : Claim::None);
        } catch (const std::exception &e) {
            qCWarning(lcUpstream, "cannot send sale %lld: %s", transactionId, e.what());
            armSoon();
        }
    }
}

void UpstreamDispatcher::pendingShown(qint64 transactionId)
{
    for (const std::shared_ptr<Waiter> &w : m_waiters.value(transactionId))
        w->pendingShown = true;
}

bool UpstreamDispatcher::initiateCarriesTheEnd(qint64 transactionId) const
{
    const auto found = m_waiters.constFind(transactionId);
    if (found == m_waiters.cend() || found->isEmpty())
        return false;
    for (const std::shared_ptr<Waiter> &w : *found)
        if (!w->initiate || w->pendingShown || !w->waiting || !w->waiting())
            return false;
    return true;
}

QJsonObject UpstreamDispatcher::describe(qint64 transactionId, qint64 createdAtMs)
{
    const std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(transactionId);
    return sale ? sale->toJson(createdAtMs <= attentionCutoffMs()) : QJsonObject();
}

qint64 UpstreamDispatcher::attentionCutoffMs() const
{
    return m_clock.nowMs() - m_timing.attentionAfterMs;
}

StoredTransaction UpstreamDispatcher::resolve(UpstreamResolver &resolver, qint64 accountId, qint64 transactionId,
                                              const UpstreamResolver::Decision &decision, const QString &actor)
{
    const StoredTransaction settled = resolver.resolve(accountId, transactionId, decision, actor, m_clock.nowMs());
    m_settlements.announce(transactionId);
    answerWaiters(transactionId);
    return settled;
}

void UpstreamDispatcher::readOffers(const UpstreamSettings &settings,
                                    std::function<void(const UpstreamOffersRead &)> done)
{
    m_client.call(settings, "GET", QStringLiteral("/openapi.json"), {},
                  [this, settings, done = std::move(done)](const UpstreamAnswer &answer) {
                      const UpstreamOffersRead read = UpstreamOffersRead::of(answer);
                      if (read.answered) {
                          try {
                              UpstreamSettingsRepository(m_db, m_vault)
                                  .recordOffers(settings.name, settings.baseUrl, read.offers);
                          } catch (const std::exception &e) {
                              qCWarning(lcUpstream, "cannot record what the upstream offers: %s", e.what());
                          }
                      }
                      if (done)
                          done(read);
                  });
}

void UpstreamDispatcher::recheck(qint64 transactionId, std::function<void()> done)
{
    const std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(transactionId);
    if (!sale || sale->state == UpstreamState::Settled || sale->state == UpstreamState::Refused)
        throw ApiError::conflict(QStringLiteral("not_waiting_on_upstream"),
                                 QStringLiteral("transaction %1 is not waiting on the upstream").arg(transactionId));
    if (!mayCall(*sale))
        throw ApiError::conflict(QStringLiteral("no_status_check"),
                                 QStringLiteral("transaction %1 was sent once to an upstream that offers no status "
                                                "check: it ends by the upstream's webhook, its statement, or by hand "
                                                "(POST /api/v1/transactions/%1/resolve)")
                                     .arg(transactionId));
    auto waiter = std::make_shared<Waiter>();
    waiter->answer = [done = std::move(done)](const LiveAnswer &) {
        done();
        return false;
    };
    waiter->timer.setSingleShot(true);
    connect(&waiter->timer, &QTimer::timeout, this, [this, transactionId] { answerWaiters(transactionId); });
    waiter->timer.start(m_timing.timeoutMs + kWaiterMarginMs);
    m_waiters[transactionId].append(waiter);
    if (m_inFlight.contains(transactionId))
        return; // the call on the wire answers the waiter
    act(*sale);
}

void UpstreamDispatcher::onTimer()
{
    try {
        QList<UpstreamSale> due;
        {
            const qint64 now = m_clock.nowMs();
            WriteTransaction transaction(m_db);
            due = UpstreamSaleRepository(m_db).claimDue(now, kRoundSize, m_timing.leaseOwner, leaseUntil(now));
            transaction.commit();
        }
        for (const UpstreamSale &sale : std::as_const(due))
            act(sale, Claim::Held);
        arm();
    } catch (const std::exception &e) {
        qCWarning(lcUpstream, "upstream round failed, retrying: %s", e.what());
        m_timer.start(int(kRetryAfterErrorMs));
    }
}

void UpstreamDispatcher::armSoon()
{
    if (m_armQueued)
        return;
    m_armQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_armQueued = false;
        arm();
    });
}

void UpstreamDispatcher::arm()
{
    std::optional<qint64> next;
    try {
        next = UpstreamSaleRepository(m_db).nextDueAt();
    } catch (const std::exception &e) {
        qCWarning(lcUpstream, "cannot read the next upstream step: %s", e.what());
        next = m_clock.nowMs() + kRetryAfterErrorMs;
    }
    // Never asleep for long: another server may write a sale, or die holding leases, at any time.
    const qint64 poll = qMax(qint64(100), m_timing.leaseMs / kPollsPerLease);
    const qint64 wait = next ? qBound(qint64(0), *next - m_clock.nowMs(), poll) : poll;
    m_timer.start(int(wait));
}

void UpstreamDispatcher::act(const UpstreamSale &sale, Claim claim)
{
    if (m_inFlight.contains(sale.transactionId))
        return;
    const std::optional<UpstreamSettings> current = m_settings.find(sale.upstreamName);
    if (!current || !mayCall(sale)) {
        // Its upstream was removed since (keep the sale, try again later: it may be set again), or nothing may go
        // to the upstream for it again (sent once): it waits for its webhook, its statement or a person.
        UpstreamSale later = sale;
        if (later.state != UpstreamState::Pending)
            later.state = UpstreamState::Unknown;
        if (!mayCall(sale)) {
            later.nextAttemptAtMs = UpstreamSale::kNever;
        } else {
            later.nextAttemptAtMs = m_clock.nowMs() + retryDelayMs(later.attempts + 1);
            later.errorCode = QStringLiteral("no_upstream");
            later.errorDescription =
                QStringLiteral("the upstream %1 is not configured any more; the sale waits until it is")
                    .arg(sale.upstreamName);
        }
        {
            WriteTransaction transaction(m_db);
            UpstreamSaleRepository sales(m_db);
            if (claim == Claim::None &&
                !sales.claim(sale.transactionId, m_clock.nowMs(), m_timing.leaseOwner, leaseUntil(m_clock.nowMs())))
                return; // another server's
            sales.update(later, m_clock.nowMs(), m_timing.leaseOwner);
            transaction.commit();
        }
        m_accounts.remove(sale.transactionId);
        m_pendingRows.remove(sale.transactionId);
        answerWaiters(sale.transactionId);
        return;
    }
    if (sale.state == UpstreamState::Pending && sale.upstreamId > 0 && sale.statusCheck)
        poll(sale, *current, claim);
    else if (UpstreamStates::isUnknown(sale.state) || sale.state == UpstreamState::Pending)
        send(sale, *current, claim);
}

bool UpstreamDispatcher::mayCall(const UpstreamSale &sale)
{
    if (sale.state == UpstreamState::Pending && sale.upstreamId > 0 && sale.statusCheck)
        return true; // a status check: asks, never sells
    return !sale.sendOnce || sale.attempts == 0;
}

qint64 UpstreamDispatcher::leaseUntil(qint64 nowMs) const
{
    return nowMs + qMax(m_timing.leaseMs, m_timing.timeoutMs + kAnswerMarginMs);
}

bool UpstreamDispatcher::claimAndWrite(const UpstreamSale &sale, Claim claim, qint64 nowMs)
{
    WriteTransaction transaction(m_db);
    UpstreamSaleRepository sales(m_db);
    if (claim == Claim::None && !sales.claim(sale.transactionId, nowMs, m_timing.leaseOwner, leaseUntil(nowMs))) {
        qCDebug(lcUpstream, "sale %lld: another server is calling the upstream for it", sale.transactionId);
        return false;
    }
    sales.update(sale, nowMs);
    transaction.commit();
    return true;
}

void UpstreamDispatcher::send(UpstreamSale sale, const UpstreamSettings &settings, Claim claim)
{
    const qint64 now = m_clock.nowMs();
    if (claim == Claim::FirstCall) {
        sale.attempts += 1; // written with the answer
    } else {
        if (sale.state != UpstreamState::Pending)
            sale.state = UpstreamState::Sent;
        sale.attempts += 1;
        // Written before the call: a sale sent once is never due again, whoever holds it next.
        sale.nextAttemptAtMs =
            sale.sendOnce ? UpstreamSale::kNever : now + m_timing.timeoutMs + retryDelayMs(sale.attempts);
        if (!claimAndWrite(sale, claim, now))
            return; // its answer reaches the waiters through the database (their timer reads it)
    }
    m_inFlight.insert(sale.transactionId);
    const QString endpoint = sale.endpoint;
    m_client.call(
        settings, "POST", endpoint, sale.requestBody,
        [this, sale, endpoint, now](const UpstreamAnswer &a) {
            onAnswer(sale, QStringLiteral("POST"), endpoint, now, a);
        },
        sale.sendOnce ? UpstreamClient::Delivery::AtMostOnce : UpstreamClient::Delivery::MayRepeat);
}

void UpstreamDispatcher::poll(UpstreamSale sale, const UpstreamSettings &settings, Claim claim)
{
    const qint64 now = m_clock.nowMs();
    sale.attempts += 1;
    sale.nextAttemptAtMs = now + m_timing.timeoutMs + pollDelayMs(sale.attempts);
    if (!claimAndWrite(sale, claim, now))
        return;
    m_inFlight.insert(sale.transactionId);
    const QString endpoint = QStringLiteral("/transactions/%1").arg(sale.upstreamId);
    m_client.call(settings, "GET", endpoint, {}, [this, sale, endpoint, now](const UpstreamAnswer &a) {
        onAnswer(sale, QStringLiteral("GET"), endpoint, now, a);
    });
}

void UpstreamDispatcher::onAnswer(const UpstreamSale &before, const QString &method, const QString &endpoint,
                                  qint64 startedMs, const UpstreamAnswer &answer)
{
    UpstreamVerdict verdict = UpstreamVerdict::of(answer);
    const bool isPoll = method == QLatin1String("GET");
    if (verdict.kind != UpstreamVerdict::Kind::Unknown && verdict.kind != UpstreamVerdict::Kind::Refused &&
        !verdict.referenceId.isEmpty() && verdict.referenceId != before.referenceId) {
        verdict.kind = UpstreamVerdict::Kind::Unknown;
        verdict.errorCode = QStringLiteral("foreign_record");
        verdict.errorDescription = QStringLiteral("the upstream answered with another sale's record");
    }
    // A status check that is refused says nothing about the sale itself: keep polling.
    if (isPoll && verdict.kind == UpstreamVerdict::Kind::Refused)
        verdict.kind = UpstreamVerdict::Kind::Unknown;
    const qint64 now = m_clock.nowMs();
    qint64 account = m_accounts.take(before.transactionId);
    if (account == 0) {
        try {
            account = UpstreamSaleRepository(m_db).accountOf(before.transactionId);
        } catch (const std::exception &e) {
            qCWarning(lcUpstream, "cannot read the account of sale %lld: %s", before.transactionId, e.what());
        }
    }
    auto outcome = std::make_shared<Outcome>();
    // The PENDING row the sale was written with, for the first answer of its first call.
    auto pending = std::make_shared<std::optional<StoredTransaction>>();
    if (const auto found = m_pendingRows.find(before.transactionId); found != m_pendingRows.end()) {
        *pending = std::move(found.value());
        m_pendingRows.erase(found);
    }
    const auto record = [this, before, method, endpoint, startedMs, answer, verdict, now, outcome, pending, isPoll] {
        *outcome = Outcome{};
        UpstreamCall call;
        call.transactionId = before.transactionId;
        call.atMs = startedMs;
        call.method = method;
        call.endpoint = endpoint;
        call.httpStatus = answer.httpStatus;
        call.latencyMs = answer.latencyMs;
        call.error = verdictError(verdict);
        call.outcome = verdict.outcomeName();
        UpstreamCallRepository(m_db).insert(call);
        // A definite failure of a sale's request (not of a status check) at one upstream moves the sale to the next
        // one that sells it, if any: then the sale is read as stored (what it was tried at). Otherwise the sale is
        // what it was sent as: while it waits, nothing else writes it but to end it, and apply() writes only while it
        // still waits under the same reference (no read back).
        const bool mayMoveOn = !isPoll && (verdict.kind == UpstreamVerdict::Kind::Refused ||
                                           verdict.kind == UpstreamVerdict::Kind::Failed);
        std::optional<UpstreamSale> sale;
        if (mayMoveOn) {
            sale = UpstreamSaleRepository(m_db).find(before.transactionId);
            if (sale && !sale->waiting())
                sale.reset();
        } else {
            sale = before;
        }
        if (sale) {
            sale->attempts = qMax(sale->attempts, before.attempts); // a leased first call was not written before
            // The client keeps waiting for the next upstream's answer.
            if (mayMoveOn && sale->upstreamName == before.upstreamName && moveOn(*sale, verdict, now)) {
                outcome->movedOn = true;
                outcome->upstream = sale->toJson();
                return;
            }
            // The client still waiting on its initiate gets the final record in that answer: no webhook
            // for it then (as a sandbox sale final at initiate); done() posts it if the answer is lost.
            outcome->quiet = initiateCarriesTheEnd(before.transactionId);
            bool written = false;
            outcome->settled =
                apply(*sale, verdict, now, outcome->quiet, &outcome->row, *pending ? &**pending : nullptr, &written);
            outcome->quiet = outcome->quiet && outcome->settled;
            if (written) // else it was ended meanwhile: its waiters read it as it is
                outcome->upstream = sale->toJson();
        }
    };
    recordContactSoon(before.upstreamName, answer.httpStatus > 0,
                      answer.httpStatus > 0 && answer.httpStatus < 500 ? QString() : verdictError(verdict), now);
    // The wallet lock order of TransactionService: a refund locks the account's live wallet.
    m_batcher.submit(
        record,
        [this, id = before.transactionId, account, outcome](std::exception_ptr error) {
            m_inFlight.remove(id);
            if (error) {
                try {
                    std::rethrow_exception(error);
                } catch (const std::exception &e) {
                    // Not recorded: the sale is sent again when its lease is over.
                    qCWarning(lcUpstream, "cannot record the upstream's answer for %lld: %s", id, e.what());
                }
                answerWaiters(id);
            } else if (outcome->movedOn) {
                sendMovedOn(id); // its waiters wait for the next upstream's answer
            } else {
                LiveAnswer known;
                known.settled = outcome->settled ? &outcome->row : nullptr;
                known.upstream = outcome->upstream;
                const bool delivered = answerWaiters(id, known);
                if (outcome->quiet && !delivered)
                    notifyLater(outcome->row, account); // the client never got the final record
                else if (outcome->settled && !outcome->quiet)
                    m_settlements.announce(id);
                if (outcome->settled)
                    return; // nothing of it is due any more: the timer stays as it was armed
            }
            armSoon();
        },
        account * 2 + 1);
}

std::optional<UpstreamSettings> UpstreamDispatcher::nextUpstream(const UpstreamSale &sale)
{
    const QString operatorCode =
        QJsonDocument::fromJson(sale.requestBody).object().value(QStringLiteral("operator_code")).toString();
    const QList<UpstreamSettings> candidates = m_settings.candidates(serviceOfEndpoint(sale.endpoint), operatorCode);
    QStringList done{sale.upstreamName};
    for (const QJsonValue &attempt : sale.tried)
        done.append(attempt.toObject().value(QStringLiteral("upstream")).toString());
    qsizetype from = 0;
    for (qsizetype i = 0; i < candidates.size(); ++i)
        if (candidates.at(i).name == sale.upstreamName)
            from = i + 1; // the ones after it by priority
    for (qsizetype i = from; i < candidates.size(); ++i)
        if (!done.contains(candidates.at(i).name))
            return candidates.at(i);
    return std::nullopt;
}

bool UpstreamDispatcher::moveOn(UpstreamSale &sale, const UpstreamVerdict &verdict, qint64 nowMs)
{
    using Kind = UpstreamVerdict::Kind;
    if (verdict.kind != Kind::Refused && verdict.kind != Kind::Failed)
        return false;
    const std::optional<UpstreamSettings> next = nextUpstream(sale);
    if (!next)
        return false;
    const bool refused = verdict.kind == Kind::Refused;
    sale.tried.append(QJsonObject{
        {QStringLiteral("upstream"), sale.upstreamName},
        {QStringLiteral("reference_id"), sale.referenceId},
        {QStringLiteral("outcome"), refused ? QStringLiteral("refused") : QStringLiteral("FAILED")},
        {QStringLiteral("error"),
         QJsonObject{{QStringLiteral("code"), refused ? verdict.errorCode : QStringLiteral("failed")},
                     {QStringLiteral("description"),
                      refused ? verdict.errorDescription : QStringLiteral("the upstream answered FAILED")}}}});
    // A new upstream, a new reference: the one before may still hold its own record of the first.
    sale.referenceId =
        QStringLiteral("rd-%1-%2-%3").arg(m_settings.serverId()).arg(sale.transactionId).arg(sale.tried.size() + 1);
    sale.requestBody = withReference(sale.requestBody, sale.referenceId);
    sale.upstreamName = next->name;
    sale.sendOnce = !next->offers.idempotentReferenceId;
    sale.statusCheck = next->offers.statusCheck;
    sale.state = UpstreamState::Queued;
    sale.upstreamId = 0;
    sale.attempts = 0;
    sale.errorCode.clear();
    sale.errorDescription.clear();
    sale.nextAttemptAtMs = sale.sendOnce ? UpstreamSale::kNever : nowMs;
    UpstreamSaleRepository(m_db).moveOn(sale, nowMs);
    qCInfo(lcUpstream, "sale %lld: %s at %s, moved to %s", sale.transactionId, qPrintable(verdict.outcomeName()),
           qPrintable(sale.tried.last().toObject().value(QStringLiteral("upstream")).toString()),
           qPrintable(sale.upstreamName));
    return true;
}

void UpstreamDispatcher::sendMovedOn(qint64 transactionId)
{
    try {
        if (const std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(transactionId))
            act(*sale);
    } catch (const std::exception &e) {
        qCWarning(lcUpstream, "cannot send sale %lld to its next upstream: %s", transactionId, e.what());
        answerWaiters(transactionId);
    }
}

void UpstreamDispatcher::recordContactSoon(const QString &upstreamName, bool answered, const QString &error,
                                           qint64 nowMs)
{
    m_contacts.insert(upstreamName, Contact{answered, error, nowMs});
    if (m_contactQueued)
        return;
    m_contactQueued = true;
    // After every wallet of the batch (lock order), once for all its answers: the last one of each upstream tells.
    m_batcher.submit(
        [this] {
            m_contactQueued = false;
            const QHash<QString, Contact> contacts = std::exchange(m_contacts, {});
            for (auto it = contacts.cbegin(); it != contacts.cend(); ++it)
                settings().recordContact(it.key(), it->answered, it->error, it->atMs);
        },
        [this](std::exception_ptr error) {
            m_contactQueued = false; // also when the batch failed before the write ran
            if (!error)
                return;
            try {
                std::rethrow_exception(error);
            } catch (const std::exception &e) {
                qCWarning(lcUpstream, "cannot record the upstream's health: %s", e.what());
            }
        },
        std::numeric_limits<qint64>::max());
}

void UpstreamDispatcher::notifyLater(const StoredTransaction &settled, qint64 accountId, int retriesLeft)
{
    m_batcher.submit([this, settled] { m_settlements.notify(settled); },
                     [this, settled, accountId, retriesLeft](std::exception_ptr error) {
                         const qint64 id = settled.record.transactionId;
                         if (!error)
                             return m_settlements.announce(id);
                         if (retriesLeft > 0) {
                             qCWarning(lcUpstream, "cannot write the webhook of sale %lld yet; trying again", id);
                             return notifyLater(settled, accountId, retriesLeft - 1);
                         }
                         qCCritical(lcUpstream,
                                    "the webhook of sale %lld could not be written; its client learns "
                                    "the end by a status check",
                                    id);
                     },
                     accountId * 2 + 1);
}

bool UpstreamDispatcher::apply(UpstreamSale &sale, const UpstreamVerdict &verdict, qint64 nowMs, bool quiet,
                               StoredTransaction *settled, const StoredTransaction *pending, bool *written)
{
    using Kind = UpstreamVerdict::Kind;
    UpstreamSaleRepository sales(m_db);
    if (written)
        *written = false;
    // Written only while the sale still waits under its reference: one ended (or moved on) since `sale` was read
    // is left as it is.
    const auto update = [&] {
        const bool done = sales.updateWaiting(sale, nowMs, m_timing.leaseOwner);
        if (written)
            *written = done;
        return done;
    };
    if (verdict.upstreamId > 0)
        sale.upstreamId = verdict.upstreamId;
    switch (verdict.kind) {
    case Kind::Success:
    case Kind::Failed:
        sale.state = UpstreamState::Settled;
        sale.errorCode.clear();
        sale.errorDescription.clear();
        if (!update())
            return false;
        return m_settlements.settleOne(
            sale.transactionId, verdict.kind == Kind::Success ? TransactionStatus::Success : TransactionStatus::Failed,
            verdict.redeemCode, nowMs, settled, !quiet, pending);
    case Kind::Refused:
        sale.state = UpstreamState::Refused;
        sale.errorCode = verdict.errorCode;
        sale.errorDescription = verdict.errorDescription;
        if (!update())
            return false;
        return m_settlements.settleOne(sale.transactionId, TransactionStatus::Failed, QString(), nowMs, settled, !quiet,
                                       pending);
    case Kind::Pending:
        sale.state = UpstreamState::Pending;
        sale.errorCode.clear();
        sale.errorDescription.clear();
        // Where there is no status check, the upstream's webhook (or its statement, or a person) ends it.
        sale.nextAttemptAtMs =
            sale.statusCheck || !sale.sendOnce ? nowMs + pollDelayMs(sale.attempts) : UpstreamSale::kNever;
        update();
        return false;
    case Kind::Unknown:
        // Never refund on a guess: the same request goes again later (or the status check does) — where the
        // upstream promised that; a sale sent once waits for its webhook, its statement or a person.
        if (sale.state != UpstreamState::Pending || sale.upstreamId == 0)
            sale.state = sale.upstreamId > 0 ? UpstreamState::Pending : UpstreamState::Unknown;
        sale.errorCode = verdict.errorCode;
        sale.errorDescription = verdict.errorDescription;
        if (!mayCall(sale))
            sale.nextAttemptAtMs = UpstreamSale::kNever;
        else
            sale.nextAttemptAtMs = nowMs + (sale.state == UpstreamState::Pending ? pollDelayMs(sale.attempts)
                                                                                 : retryDelayMs(sale.attempts));
        update();
        return false;
    }
    return false;
}

UpstreamDispatcher::Report UpstreamDispatcher::takeOverReport(const QString &referenceId, qint64 upstreamId,
                                                              TransactionStatus status, const QString &redeemCode,
                                                              const QString &source, const QString &upstreamName)
{
    UpstreamSaleRepository sales(m_db);
    std::optional<UpstreamSale> sale = referenceId.isEmpty() ? std::nullopt : sales.findByReference(referenceId);
    if (!sale && upstreamId > 0)
        sale = sales.findByUpstreamId(upstreamId);
    // An upstream speaks only for the sales sent to it.
    if (!sale || (!upstreamName.isEmpty() && sale->upstreamName != upstreamName))
        return Report::NotOurs;
    if (status == TransactionStatus::Pending)
        return Report::Unchanged;
    Report report = Report::Unchanged;
    {
        WriteTransaction transaction(m_db);
        report = takeOverReportIn(sale->transactionId, status, source, m_clock.nowMs(), upstreamId, redeemCode);
        transaction.commit();
    }
    announceReport(sale->transactionId, report);
    return report == Report::NotOurs ? Report::Unchanged : report;
}

UpstreamDispatcher::Report UpstreamDispatcher::takeOverReportIn(qint64 transactionId, TransactionStatus status,
                                                                const QString &source, qint64 nowMs, qint64 upstreamId,
                                                                const QString &redeemCode)
{
    std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(transactionId);
    if (!sale)
        return Report::NotOurs;
    if (status == TransactionStatus::Pending)
        return Report::Unchanged;
    if (!sale->waiting())
        return takeOverLateReport(*sale, status, source, nowMs);
    UpstreamVerdict verdict;
    verdict.kind =
        status == TransactionStatus::Success ? UpstreamVerdict::Kind::Success : UpstreamVerdict::Kind::Failed;
    verdict.upstreamId = upstreamId;
    verdict.redeemCode = redeemCode;
    return apply(*sale, verdict, nowMs) ? Report::Settled : Report::Unchanged;
}

void UpstreamDispatcher::announceReport(qint64 transactionId, Report report)
{
    if (report != Report::Settled && report != Report::Reversed)
        return;
    m_settlements.announce(transactionId);
    answerWaiters(transactionId);
}

UpstreamDispatcher::Report UpstreamDispatcher::takeOverLateReport(const UpstreamSale &sale, TransactionStatus status,
                                                                  const QString &source, qint64 nowMs)
{
    const std::optional<StoredTransaction> row = TransactionRepository(m_db).findById(sale.transactionId);
    if (!row || row->record.status == status)
        return Report::Unchanged; // a repeat: nothing changes
    UpstreamSaleRepository sales(m_db);
    AuditLog audit(m_db, m_clock);
    if (row->record.status == TransactionStatus::Success && status == TransactionStatus::Failed) {
        if (!m_settlements.reverseOne(sale.transactionId, nowMs))
            return Report::Unchanged;
        sales.recordReversal(sale.transactionId, source, nowMs);
        audit.record(row->accountId, QStringLiteral("upstream"), QStringLiteral("transaction.reversal"),
                     QStringLiteral("Transaction %1 (reference %2) reversed by the upstream (%3): FAILED after "
                                    "SUCCESS, %4 refunded")
                         .arg(sale.transactionId)
                         .arg(sale.referenceId, source, Money::format(row->record.paid)));
        return Report::Reversed;
    }
    // SUCCESS for a sale we hold FAILED (refunded, or refused): applying it would debit again. A person decides.
    if (!sales.recordMismatch(sale.transactionId, TransactionNames::status(status), source, nowMs))
        return Report::Unchanged;
    audit.record(row->accountId, QStringLiteral("upstream"), QStringLiteral("transaction.mismatch"),
                 QStringLiteral("Transaction %1 (reference %2): the upstream reports %3 (%4) but it is %5 here; left "
                                "for a person")
                     .arg(sale.transactionId)
                     .arg(sale.referenceId, TransactionNames::status(status), source,
                          TransactionNames::status(row->record.status)));
    qCWarning(lcUpstream, "sale %lld: the upstream reports %s, held as %s: a mismatch for a person", sale.transactionId,
              qPrintable(TransactionNames::status(status)), qPrintable(TransactionNames::status(row->record.status)));
    return Report::Mismatch;
}

bool UpstreamDispatcher::answerWaiters(qint64 transactionId, const LiveAnswer &known)
{
    bool delivered = false;
    const QList<std::shared_ptr<Waiter>> waiters = m_waiters.take(transactionId);
    for (const std::shared_ptr<Waiter> &w : waiters) {
        w->timer.stop();
        const bool reached = w->answer(w->initiate ? known : LiveAnswer{});
        delivered = delivered || (w->initiate && reached);
    }
    return delivered;
}

qint64 UpstreamDispatcher::retryDelayMs(int attempts) const
{
    return fromSchedule(kRetrySchedule, attempts, m_timing.retryScale);
}

qint64 UpstreamDispatcher::pollDelayMs(int attempts) const
{
    return fromSchedule(kPollSchedule, attempts, m_timing.retryScale);
}

void UpstreamDispatcher::check(const UpstreamSettings &settings, std::function<void(const CheckResult &)> done)
{
    const QByteArray body = R"({"operator_code":"AT","circle_code":"DL"})";
    m_client.call(
        settings, "POST", QStringLiteral("/plans/mobile/prepaid-plans"), body,
        [this, settings, done = std::move(done)](const UpstreamAnswer &a) {
            CheckResult r;
            r.httpStatus = a.httpStatus;
            r.latencyMs = a.latencyMs;
            const QString lookup = QStringLiteral("plans lookup %1 in %2 ms").arg(a.httpStatus).arg(a.latencyMs);
            if (a.httpStatus == 200 || a.httpStatus == 304 || a.httpStatus == 404) {
                r.ok = true;
                r.message = QStringLiteral("The upstream answered: key accepted (%1).").arg(lookup);
            } else if (a.httpStatus == 401) {
                r.message = QStringLiteral("The upstream refused the key (%1): check the key id and "
                                           "secret.")
                                .arg(lookup);
            } else if (a.httpStatus == 403) {
                r.message = QStringLiteral("The upstream knows the key but does not let it sell (%1): it "
                                           "may be revoked.")
                                .arg(lookup);
            } else if (a.httpStatus == 0) {
                r.message =
                    QStringLiteral("Could not reach the upstream at %1: %2.").arg(settings.baseUrl, a.networkError);
            } else {
                r.message = QStringLiteral("The upstream answered HTTP %1 to a plans lookup: check that the "
                                           "URL is its API address ending in /api/v1.")
                                .arg(a.httpStatus);
            }
            try {
                UpstreamSettingsRepository(m_db, m_vault)
                    .recordContact(settings.name, a.httpStatus > 0, r.ok ? QString() : r.message, m_clock.nowMs());
            } catch (const std::exception &e) {
                qCWarning(lcUpstream, "cannot record the upstream's health: %s", e.what());
            }
            if (!r.ok)
                return done(r);
            // What it offers decides whether a lost answer may ever be asked again: read it with every check.
            readOffers(settings, [r, done](const UpstreamOffersRead &read) mutable {
                r.message += QLatin1Char(' ') + read.message;
                done(r);
            });
        });
}
