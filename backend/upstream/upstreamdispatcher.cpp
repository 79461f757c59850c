#include "upstreamdispatcher.h"

#include "apierror.h"
#include "clock.h"
#include "services/commitbatcher.h"
#include "services/settlementservice.h"
#include "store/database.h"
#include "store/transactionrepository.h"
#include "upstreamcallrepository.h"

#include <QJsonDocument>
#include <QLoggingCategory>

#include <limits>

Q_LOGGING_CATEGORY(lcUpstream, "rechargedesk.upstream")

namespace {
constexpr int kRoundSize = 100;
constexpr qint64 kRetryAfterErrorMs = 1000;
/// A lease outlasts the call's time limit by at least this much (ms): the time to write its answer.
constexpr qint64 kAnswerMarginMs = 5'000;
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

std::optional<UpstreamSettings> UpstreamDispatcher::currentSettings()
{
    return m_settings.current();
}

void UpstreamDispatcher::start()
{
    try {
        UpstreamSaleRepository(m_db).resumeInFlight(m_clock.nowMs(), m_timing.leaseOwner);
    } catch (const std::exception &e) {
        qCWarning(lcUpstream, "cannot resume upstream sales: %s", e.what());
    }
    onTimer();
}

void UpstreamDispatcher::checkAvailable()
{
    if (!m_settings.current())
        throw ApiError::gatewayUnavailable(
            QStringLiteral("no_live_provider"),
            QStringLiteral("no upstream provider is configured for live sales; nothing was charged. Configure one "
                           "with `rechargedesk upstream set --url BASE_URL --key-id ID --key-secret-file FILE` or in "
                           "Back office → Settings → Upstream"));
}

QJsonObject UpstreamDispatcher::enqueue(const StoredTransaction &row, const SaleRequest &sale, qint64 nowMs)
{
    UpstreamSale s;
    s.transactionId = row.record.transactionId;
    s.referenceId = QStringLiteral("rd-%1-%2").arg(m_settings.serverId()).arg(s.transactionId);
    s.state = UpstreamState::Queued;
    // The lease of the first call (dispatch() sends it without a write of its own): no server sends it
    // again before the lease is over; this server's restart sends its `queued` sales again at once.
    s.nextAttemptAtMs = nowMs + m_timing.timeoutMs + retryDelayMs(1);
    s.leaseOwner = m_timing.leaseOwner;
    s.leaseUntilMs = leaseUntil(nowMs);
    s.endpoint = endpointFor(sale.type);
    s.requestBody = requestBody(sale, s.referenceId);
    UpstreamSaleRepository(m_db).insert(s, nowMs);
    m_enqueued.insert(s.transactionId, Enqueued{s, row});
    return s.toJson();
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
    waiter->timer.start(m_timing.timeoutMs);
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

QJsonObject UpstreamDispatcher::describe(qint64 transactionId)
{
    const std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(transactionId);
    return sale ? sale->toJson() : QJsonObject();
}

void UpstreamDispatcher::recheck(qint64 transactionId, std::function<void()> done)
{
    const std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(transactionId);
    if (!sale || sale->state == UpstreamState::Settled || sale->state == UpstreamState::Refused)
        throw ApiError::conflict(QStringLiteral("not_waiting_on_upstream"),
                                 QStringLiteral("transaction %1 is not waiting on the upstream").arg(transactionId));
    auto waiter = std::make_shared<Waiter>();
    waiter->answer = [done = std::move(done)](const LiveAnswer &) {
        done();
        return false;
    };
    waiter->timer.setSingleShot(true);
    connect(&waiter->timer, &QTimer::timeout, this, [this, transactionId] { answerWaiters(transactionId); });
    waiter->timer.start(m_timing.timeoutMs);
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
    const std::optional<UpstreamSettings> current = m_settings.current();
    if (!current) {
        // Taken while an upstream was configured; it was cleared since. Keep the sale, try again later.
        UpstreamSale later = sale;
        if (later.state != UpstreamState::Pending)
            later.state = UpstreamState::Unknown;
        later.nextAttemptAtMs = m_clock.nowMs() + retryDelayMs(later.attempts + 1);
        later.errorCode = QStringLiteral("no_upstream");
        later.errorDescription = QStringLiteral("no upstream is configured; the sale waits until one is");
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
    if (sale.state == UpstreamState::Pending && sale.upstreamId > 0)
        poll(sale, *current, claim);
    else if (UpstreamStates::isUnknown(sale.state) || sale.state == UpstreamState::Pending)
        send(sale, *current, claim);
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
        sale.nextAttemptAtMs = now + m_timing.timeoutMs + retryDelayMs(sale.attempts);
        if (!claimAndWrite(sale, claim, now))
            return; // its answer reaches the waiters through the database (their timer reads it)
    }
    m_inFlight.insert(sale.transactionId);
    const QString endpoint = sale.endpoint;
    m_client.call(settings, "POST", endpoint, sale.requestBody, [this, sale, endpoint, now](const UpstreamAnswer &a) {
        onAnswer(sale, QStringLiteral("POST"), endpoint, now, a);
    });
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
    const auto record = [this, before, method, endpoint, startedMs, answer, verdict, now, outcome, pending] {
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
        std::optional<UpstreamSale> sale = UpstreamSaleRepository(m_db).find(before.transactionId);
        if (sale && sale->state != UpstreamState::Settled && sale->state != UpstreamState::Refused) {
            sale->attempts = qMax(sale->attempts, before.attempts); // a leased first call was not written before
            // The client still waiting on its initiate gets the final record in that answer: no webhook
            // for it then (as a sandbox sale final at initiate); done() posts it if the answer is lost.
            outcome->quiet = initiateCarriesTheEnd(before.transactionId);
            outcome->settled =
                apply(*sale, verdict, now, outcome->quiet, &outcome->row, *pending ? &**pending : nullptr);
            outcome->quiet = outcome->quiet && outcome->settled;
            outcome->upstream = sale->toJson();
        }
    };
    recordContactSoon(answer.httpStatus > 0,
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
            } else {
                LiveAnswer known;
                known.settled = outcome->settled ? &outcome->row : nullptr;
                known.upstream = outcome->upstream;
                const bool delivered = answerWaiters(id, known);
                if (outcome->quiet && !delivered)
                    notifyLater(outcome->row, account); // the client never got the final record
                else if (outcome->settled && !outcome->quiet)
                    m_settlements.announce(id);
            }
            armSoon();
        },
        account * 2 + 1);
}

void UpstreamDispatcher::recordContactSoon(bool answered, const QString &error, qint64 nowMs)
{
    m_contact = Contact{answered, error, nowMs};
    if (m_contactQueued)
        return;
    m_contactQueued = true;
    // After every wallet of the batch (lock order), once for all its answers: the last one tells.
    m_batcher.submit(
        [this] {
            m_contactQueued = false;
            if (const std::optional<Contact> contact = std::exchange(m_contact, std::nullopt))
                settings().recordContact(contact->answered, contact->error, contact->atMs);
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
                               StoredTransaction *settled, const StoredTransaction *pending)
{
    using Kind = UpstreamVerdict::Kind;
    UpstreamSaleRepository sales(m_db);
    if (verdict.upstreamId > 0)
        sale.upstreamId = verdict.upstreamId;
    switch (verdict.kind) {
    case Kind::Success:
    case Kind::Failed:
        sale.state = UpstreamState::Settled;
        sale.errorCode.clear();
        sale.errorDescription.clear();
        sales.update(sale, nowMs, m_timing.leaseOwner);
        return m_settlements.settleOne(
            sale.transactionId, verdict.kind == Kind::Success ? TransactionStatus::Success : TransactionStatus::Failed,
            verdict.redeemCode, nowMs, settled, !quiet, pending);
    case Kind::Refused:
        sale.state = UpstreamState::Refused;
        sale.errorCode = verdict.errorCode;
        sale.errorDescription = verdict.errorDescription;
        sales.update(sale, nowMs, m_timing.leaseOwner);
        return m_settlements.settleOne(sale.transactionId, TransactionStatus::Failed, QString(), nowMs, settled, !quiet,
                                       pending);
    case Kind::Pending:
        sale.state = UpstreamState::Pending;
        sale.errorCode.clear();
        sale.errorDescription.clear();
        sale.nextAttemptAtMs = nowMs + pollDelayMs(sale.attempts);
        sales.update(sale, nowMs, m_timing.leaseOwner);
        return false;
    case Kind::Unknown:
        // Never refund on a guess: the same request goes again later (or the status check does).
        if (sale.state != UpstreamState::Pending || sale.upstreamId == 0)
            sale.state = sale.upstreamId > 0 ? UpstreamState::Pending : UpstreamState::Unknown;
        sale.errorCode = verdict.errorCode;
        sale.errorDescription = verdict.errorDescription;
        sale.nextAttemptAtMs =
            nowMs + (sale.state == UpstreamState::Pending ? pollDelayMs(sale.attempts) : retryDelayMs(sale.attempts));
        sales.update(sale, nowMs, m_timing.leaseOwner);
        return false;
    }
    return false;
}

std::optional<bool> UpstreamDispatcher::takeOverWebhook(const QString &referenceId, qint64 upstreamId,
                                                        TransactionStatus status, const QString &redeemCode)
{
    UpstreamSaleRepository sales(m_db);
    std::optional<UpstreamSale> sale = referenceId.isEmpty() ? std::nullopt : sales.findByReference(referenceId);
    if (!sale && upstreamId > 0)
        sale = sales.findByUpstreamId(upstreamId);
    if (!sale)
        return std::nullopt;
    if (status == TransactionStatus::Pending)
        return false;
    UpstreamVerdict verdict;
    verdict.kind =
        status == TransactionStatus::Success ? UpstreamVerdict::Kind::Success : UpstreamVerdict::Kind::Failed;
    verdict.upstreamId = upstreamId;
    verdict.redeemCode = redeemCode;
    const qint64 now = m_clock.nowMs();
    bool settled = false;
    {
        WriteTransaction transaction(m_db);
        sale = sales.find(sale->transactionId);
        if (sale && sale->state != UpstreamState::Settled && sale->state != UpstreamState::Refused)
            settled = apply(*sale, verdict, now);
        transaction.commit();
    }
    if (settled) {
        m_settlements.announce(sale->transactionId);
        answerWaiters(sale->transactionId);
    }
    return settled;
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
                    .recordContact(a.httpStatus > 0, r.ok ? QString() : r.message, m_clock.nowMs());
            } catch (const std::exception &e) {
                qCWarning(lcUpstream, "cannot record the upstream's health: %s", e.what());
            }
            done(r);
        });
}
