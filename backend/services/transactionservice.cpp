#include "transactionservice.h"

#include "apierror.h"
#include "clock.h"
#include "commitbatcher.h"
#include "fulfilment.h"
#include "operatorcatalog.h"
#include "saleterms.h"
#include "settlementservice.h"
#include "shops/shoprepository.h"
#include "store/database.h"
#include "store/settlementrepository.h"
#include "store/shiftrepository.h"
#include "store/walletrepository.h"

#include <QRandomGenerator>

#include <memory>

TransactionService::TransactionService(Database &db, CommitBatcher &batcher, const OperatorCatalog &catalog,
                                       Fulfilment &sandbox, AsyncFulfilment *liveFulfilment,
                                       SettlementService &settlements, const Clock &clock, const SaleTerms &terms)
    : m_db(db), m_batcher(batcher), m_catalog(catalog), m_sandbox(sandbox), m_live(liveFulfilment),
      m_settlements(settlements), m_clock(clock), m_terms(terms)
{}

void TransactionService::initiate(const AuthContext &caller, const SaleRequest &sale, InitiateCallback done,
                                  ClientWaiting waiting)
{
    if (caller.mode == Mode::Live && !m_live)
        throw ApiError::gatewayUnavailable(QStringLiteral("no_live_provider"),
                                           QStringLiteral("no fulfilment provider is configured for live keys; "
                                                          "nothing was charged"));
    if (caller.mode == Mode::Live)
        m_live->checkAvailable(sale);
    submit(caller, sale, std::move(done), std::move(waiting), kMaxRetries);
}

void TransactionService::submit(const AuthContext &caller, const SaleRequest &sale, InitiateCallback done,
                                ClientWaiting waiting, int retriesLeft)
{
    auto result = std::make_shared<WriteResult>();
    m_batcher.submit([this, caller, sale, result] { *result = write(caller, sale); },
                     [this, caller, sale, result, done = std::move(done), waiting = std::move(waiting),
                      retriesLeft](std::exception_ptr error) {
                         if (error && retriesLeft > 0) {
                             try {
                                 std::rethrow_exception(error);
                             } catch (const DatabaseError &e) {
                                 // Another server took this reference_id between our check and
                                 // insert: run again, and the check now finds its transaction.
                                 // PostgreSQL chose this write as a deadlock's victim: run it again.
                                 if ((e.isUniqueViolation() && !sale.referenceId.isEmpty()) || e.isRetryable())
                                     return submit(caller, sale, done, waiting, retriesLeft - 1);
                             } catch (...) {
                             }
                         }
                         if (error) {
                             done(nullptr, error);
                             return;
                         }
                         if (result->settleAtMs > 0)
                             m_settlements.scheduleAt(result->settleAtMs);
                         if (result->dispatchLive)
                             return dispatchLive(caller, result->record, done, waiting);
                         done(&result->record, nullptr);
                     },
                     caller.accountId * 2 + (caller.mode == Mode::Live ? 1 : 0)); // the wallet write() locks
}

void TransactionService::dispatchLive(const AuthContext &caller, const TransactionRecord &pending,
                                      InitiateCallback done, ClientWaiting waiting)
{
    LiveWaiter waiter;
    waiter.waiting = waiting ? std::move(waiting) : ClientWaiting([] { return false; });
    waiter.answer = [this, caller, pending, done = std::move(done)](const LiveAnswer &answer) {
        try {
            TransactionRecord record;
            if (answer.upstream.isEmpty()) {
                record = get(caller, pending.transactionId);
            } else {
                // What the answer's commit wrote, at hand: no need to read the record back.
                record = answer.settled ? named(answer.settled->record) : pending;
                record.upstream = answer.upstream;
            }
            return done(&record, nullptr);
        } catch (...) {
            done(nullptr, std::current_exception());
            return false;
        }
    };
    m_live->dispatch(pending.transactionId, caller.accountId, std::move(waiter));
}

TransactionService::WriteResult TransactionService::write(const AuthContext &caller, const SaleRequest &sale)
{
    TransactionRepository transactions(m_db);
    WalletRepository wallets(m_db);
    // PostgreSQL: one account's sales take turns on its wallet row from here to the batch's commit, so the
    // reference_id check below sees what another server committed, and no two inserts race on it.
    wallets.lock(caller.accountId, caller.mode);
    if (!sale.referenceId.isEmpty()) {
        const std::optional<StoredTransaction> existing =
            transactions.findByReference(caller.accountId, sale.referenceId);
        if (existing) {
            if (existing->fingerprint == sale.fingerprint() && existing->mode == caller.mode) {
                if (existing->mode == Mode::Live && existing->record.status == TransactionStatus::Pending && m_live)
                    m_live->pendingShown(existing->record.transactionId);
                return WriteResult{present(*existing), 0};
            }
            throw ApiError::conflict(QStringLiteral("reference_id_reused"),
                                     QStringLiteral("reference_id %1 was already used for a different transaction (%2)")
                                         .arg(sale.referenceId)
                                         .arg(existing->record.transactionId),
                                     QStringLiteral("reference_id"));
        }
    }

    const qint64 shiftId = shiftOf(caller);
    const qint64 now = m_clock.nowMs();
    StoredTransaction row;
    row.accountId = caller.accountId;
    row.mode = caller.mode;
    row.keyId = caller.keyId;
    row.clerk = caller.userName;
    row.fingerprint = sale.fingerprint();
    TransactionRecord &r = row.record;
    r.type = sale.type;
    r.operatorCode = sale.operatorCode;
    r.number = sale.number;
    r.customerEmail = sale.customerEmail;
    r.referenceId = sale.referenceId;
    r.tender = sale.tender;
    r.circleCode = sale.circleCode;
    r.shiftId = shiftId;
    r.billAmount = sale.billAmount;
    r.discount = Money::percentageOf(sale.billAmount, m_terms.discountBasisPoints(caller.accountId, sale.operatorCode));
    r.paid = r.billAmount - r.discount;
    r.createdAtMs = now;
    r.status = TransactionStatus::Pending;
    // A sandbox outcome is known before the row is written: a final one is inserted as it ends (one
    // INSERT instead of INSERT + UPDATE, and one rollup upsert instead of three). A failed debit below
    // rolls the row back with the rest of the sale's savepoint. Only test keys have a sandbox outcome;
    // a live sale stays PENDING until its upstream answers.
    const bool live = caller.mode == Mode::Live;
    const FulfilmentOutcome outcome = live ? FulfilmentOutcome::PendingThenSuccess : m_sandbox.decide(sale);
    if (!live && outcome == FulfilmentOutcome::Success) {
        r.status = TransactionStatus::Success;
        if (r.type == TransactionType::Voucher)
            r.redeemCode = newRedeemCode();
    } else if (!live && outcome == FulfilmentOutcome::Failed) {
        r.status = TransactionStatus::Failed;
    }
    r.transactionId = transactions.insert(row, now);

    if (!wallets.debit(caller.accountId, caller.mode, r.paid, r.transactionId, now)) {
        const Paise balance = wallets.balance(caller.accountId, caller.mode);
        const Paise credit = live ? ShopRepository(m_db).creditLimit(caller.accountId) : 0;
        if (credit > 0)
            throw ApiError::insufficientBalance(
                QStringLiteral("the live wallet holds %1 with a credit limit of %2 (%3 available), less than the %4 "
                               "payable")
                    .arg(Money::format(balance), Money::format(credit), Money::format(balance + credit),
                         Money::format(r.paid)));
        throw ApiError::insufficientBalance(
            QStringLiteral("the %1 wallet holds %2, less than the %3 payable")
                .arg(ModeNames::mode(caller.mode), Money::format(balance), Money::format(r.paid)));
    }

    WriteResult result;
    if (live) {
        // The upstream answers later: the sale stays PENDING with what to send, committed first. Its
        // `upstream` object comes with that answer (dispatchLive()).
        m_live->enqueue(row, sale, now);
        result.dispatchLive = true;
        result.record = named(r);
        return result;
    }
    switch (outcome) {
    case FulfilmentOutcome::Success:
        break; // written SUCCESS (and with its redeem code) by the insert
    case FulfilmentOutcome::Failed:
        wallets.post(caller.accountId, caller.mode, r.paid, LedgerKind::Refund, r.transactionId,
                     QStringLiteral("refund of failed transaction"), QStringLiteral("system"), now);
        break;
    case FulfilmentOutcome::PendingThenSuccess:
    case FulfilmentOutcome::PendingThenFailed: {
        const bool succeeds = outcome == FulfilmentOutcome::PendingThenSuccess;
        result.settleAtMs = now + m_terms.settleDelayMs(caller.accountId);
        SettlementRepository(m_db).insert(
            {r.transactionId, result.settleAtMs, succeeds ? TransactionStatus::Success : TransactionStatus::Failed});
        break;
    }
    }
    result.record = present(row);
    return result;
}

qint64 TransactionService::shiftOf(const AuthContext &caller)
{
    // The person's open shift, locked (PostgreSQL) until the sale's batch commits, so a close waits for the sale
    // and counts it. A caller without a session has no shift.
    const std::optional<StoredShift> shift =
        caller.hasSession() ? ShiftRepository(m_db).openOfUser(caller.accountId, caller.mode, caller.userId, true)
                            : std::nullopt;
    if (shift)
        return shift->id;
    if (m_terms.shiftsRequired(caller.accountId))
        throw ApiError::conflict(QStringLiteral("no_open_shift"),
                                 caller.hasSession()
                                     ? QStringLiteral("%1 has no open shift: open a shift to sell (nothing was "
                                                      "charged)")
                                           .arg(caller.userName)
                                     : QStringLiteral("this shop sells in shifts: a person must sign in and open a "
                                                      "shift to sell (nothing was charged)"));
    return 0;
}

TransactionRecord TransactionService::get(const AuthContext &caller, qint64 transactionId)
{
    const std::optional<StoredTransaction> row =
        TransactionRepository(m_db).find(caller.accountId, caller.mode, transactionId);
    if (!row)
        throw ApiError::notFound(QStringLiteral("transaction_not_found"),
                                 QStringLiteral("no transaction %1 for this account").arg(transactionId));
    return present(*row);
}

std::optional<TransactionRecord> TransactionService::getThrough(Database &reader, const AuthContext &caller,
                                                                qint64 transactionId) const
{
    const std::optional<StoredTransaction> row =
        TransactionRepository(reader).find(caller.accountId, caller.mode, transactionId);
    if (!row || row->mode == Mode::Live)
        return std::nullopt;
    return named(row->record);
}

QList<TransactionRecord> TransactionService::list(const AuthContext &caller, const TransactionFilter &filter)
{
    QList<TransactionRecord> records;
    const QList<StoredTransaction> rows = TransactionRepository(m_db).list(caller.accountId, caller.mode, filter);
    records.reserve(rows.size());
    for (const StoredTransaction &row : rows)
        records.append(present(row));
    return records;
}

TransactionTotals TransactionService::totals(const AuthContext &caller, const TransactionFilter &filter)
{
    return TransactionRepository(m_db).totals(caller.accountId, caller.mode, filter);
}

TransactionRecord TransactionService::named(const TransactionRecord &stored) const
{
    TransactionRecord record = stored;
    const OperatorInfo *info = m_catalog.findOperator(record.operatorCode);
    record.operatorName = info ? info->name : record.operatorCode;
    return record;
}

TransactionRecord TransactionService::present(const StoredTransaction &row) const
{
    TransactionRecord record = named(row.record);
    if (row.mode == Mode::Live && m_live)
        record.upstream = m_live->describe(record.transactionId, record.createdAtMs);
    return record;
}

QString TransactionService::newRedeemCode()
{
    static const char kAlphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"; // 31 symbols, none ambiguous
    QRandomGenerator *rng = QRandomGenerator::system();
    QString code;
    for (int i = 0; i < 16; ++i) {
        if (i > 0 && i % 4 == 0)
            code += QLatin1Char('-');
        code += QLatin1Char(kAlphabet[rng->bounded(31)]);
    }
    return code;
}
