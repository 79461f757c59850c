#include "settlementservice.h"

#include "clock.h"
#include "store/database.h"
#include "store/settlementrepository.h"
#include "store/walletrepository.h"
#include "transactionservice.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcSettle, "rechargedesk.settlement")

namespace {
constexpr int kRoundSize = 200;
constexpr qint64 kRetryAfterErrorMs = 1000;
/// Sleep of the timer at most, as a share of the lease time: timers other servers wrote are seen this often.
constexpr qint64 kPollsPerLease = 3;
/// How soon to look again at due rows another server is settling right now (its locks end with its commit).
constexpr qint64 kLockedRetryMs = 50;
} // namespace

SettlementService::SettlementService(Database &db, const Clock &clock, qint64 leaseMs, QObject *parent)
    : QObject(parent), m_db(db), m_clock(clock), m_leaseMs(leaseMs)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &SettlementService::onTimer);
}

void SettlementService::start()
{
    onTimer();
}

void SettlementService::scheduleAt(qint64 dueAtMs)
{
    if (m_timer.isActive() && m_armedForMs <= dueAtMs)
        return;
    m_armedForMs = dueAtMs;
    m_timer.start(int(qBound(qint64(0), dueAtMs - m_clock.nowMs(), qint64(24 * 3600 * 1000))));
}

void SettlementService::onTimer()
{
    try {
        settleDue();
        armForNext();
    } catch (const std::exception &e) {
        qCWarning(lcSettle, "settlement round failed, retrying: %s", e.what());
        m_armedForMs = m_clock.nowMs() + kRetryAfterErrorMs;
        m_timer.start(int(kRetryAfterErrorMs));
    }
}

void SettlementService::armForNext()
{
    const std::optional<qint64> next = SettlementRepository(m_db).nextDueAt();
    const qint64 now = m_clock.nowMs();
    // Never asleep for long: another server may write a timer and die before it is due.
    qint64 at = now + qMax(qint64(100), m_leaseMs / kPollsPerLease);
    // Still due after settleDue(): another server holds those rows; they are gone once it commits.
    if (next)
        at = qMin(at, qMax(*next, now + kLockedRetryMs));
    m_timer.stop();
    scheduleAt(at);
}

int SettlementService::settleDue()
{
    int total = 0;
    for (;;) {
        QList<qint64> settledIds;
        {
            const qint64 now = m_clock.nowMs();
            SettlementRepository settlements(m_db);
            WriteTransaction transaction(m_db);
            const QList<PendingSettlement> due = settlements.due(now, kRoundSize, m_leaseMs);
            if (due.isEmpty())
                return total;
            for (const PendingSettlement &s : due) {
                settlements.remove(s.transactionId);
                if (settleOne(s.transactionId, s.finalStatus, QString(), now))
                    settledIds.append(s.transactionId);
            }
            transaction.commit();
        }
        total += int(settledIds.size());
        for (qint64 id : std::as_const(settledIds))
            emit settled(id);
    }
}

bool SettlementService::settleOne(qint64 transactionId, TransactionStatus status, const QString &redeemCode,
                                  qint64 nowMs, StoredTransaction *settled, bool webhook,
                                  const StoredTransaction *pending)
{
    TransactionRepository transactions(m_db);
    std::optional<StoredTransaction> row =
        pending && pending->record.transactionId == transactionId ? *pending : transactions.findById(transactionId);
    if (!row || row->record.status != TransactionStatus::Pending)
        return false;
    TransactionRecord &r = row->record;
    r.status = status;
    if (r.status == TransactionStatus::Success && r.type == TransactionType::Voucher)
        r.redeemCode = redeemCode.isEmpty() ? TransactionService::newRedeemCode() : redeemCode;
    // Without its webhook the end goes to the client in the initiate's answer; every other end of a PENDING sale
    // comes after the client was shown PENDING (and the clerk told to collect the bill).
    r.failedAfterPending = r.status == TransactionStatus::Failed && webhook;
    if (!transactions.settle(*row, r.status, r.redeemCode, nowMs, r.failedAfterPending))
        return false;
    if (r.status == TransactionStatus::Failed)
        WalletRepository(m_db).post(row->accountId, row->mode, r.paid, LedgerKind::Refund, r.transactionId,
                                    QStringLiteral("refund of failed transaction"), QStringLiteral("system"), nowMs);
    if (webhook)
        notify(*row);
    if (settled)
        *settled = std::move(*row);
    return true;
}

bool SettlementService::reverseOne(qint64 transactionId, qint64 nowMs, StoredTransaction *reversed)
{
    TransactionRepository transactions(m_db);
    std::optional<StoredTransaction> row = transactions.findById(transactionId);
    if (!row || row->record.status != TransactionStatus::Success || !transactions.reverse(transactionId, nowMs))
        return false;
    row->record.status = TransactionStatus::Failed;
    row->record.failedAfterPending = true; // written by reverse(): the sale had been shown SUCCESS
    WalletRepository(m_db).post(row->accountId, row->mode, row->record.paid, LedgerKind::Refund, transactionId,
                                reversalNote(), QStringLiteral("system"), nowMs);
    notify(*row);
    if (reversed)
        *reversed = std::move(*row);
    return true;
}

void SettlementService::notify(const StoredTransaction &settled)
{
    if (m_listener)
        m_listener(settled);
}
