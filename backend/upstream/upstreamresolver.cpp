#include "upstreamresolver.h"

#include "apierror.h"
#include "money.h"
#include "services/settlementservice.h"
#include "store/database.h"
#include "upstreamsalerepository.h"
#include "users/auditlog.h"

#include <QRegularExpression>

UpstreamResolver::Decision UpstreamResolver::checked(const QString &status, const QString &note,
                                                     const QString &redeemCode)
{
    Decision decision;
    const std::optional<TransactionStatus> parsed = TransactionNames::statusFromString(status.trimmed().toUpper());
    if (!parsed || *parsed == TransactionStatus::Pending)
        throw ApiError::badRequest(QStringLiteral("status"), QStringLiteral("invalid_status"),
                                   QStringLiteral("status must be SUCCESS (the recharge was made) or FAILED (it was "
                                                  "not: the wallet is refunded)"));
    decision.status = *parsed;
    decision.note = note.trimmed();
    if (decision.note.isEmpty())
        throw ApiError::badRequest(QStringLiteral("note"), QStringLiteral("note_required"),
                                   QStringLiteral("note is required: say how you know (e.g. the aggregator's "
                                                  "dashboard shows it failed)"));
    if (decision.note.size() > kMaxNote)
        throw ApiError::badRequest(QStringLiteral("note"), QStringLiteral("note_too_long"),
                                   QStringLiteral("note must be at most %1 characters").arg(kMaxNote));
    static const QRegularExpression code(QStringLiteral("^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$"));
    decision.redeemCode = redeemCode.trimmed().toUpper();
    if (!decision.redeemCode.isEmpty() && !code.match(decision.redeemCode).hasMatch())
        throw ApiError::badRequest(QStringLiteral("redeem_code"), QStringLiteral("invalid_redeem_code"),
                                   QStringLiteral("redeem_code must be the voucher's code as the aggregator shows it: "
                                                  "four groups of four letters or digits, e.g. ABCD-EFGH-JKLM-NPQR"));
    return decision;
}

StoredTransaction UpstreamResolver::resolve(qint64 accountId, qint64 transactionId, const Decision &decision,
                                            const QString &actor, qint64 nowMs)
{
    WriteTransaction transaction(m_db);
    const std::optional<StoredTransaction> row = TransactionRepository(m_db).findById(transactionId);
    if (!row || (accountId > 0 && row->accountId != accountId))
        throw ApiError::notFound(QStringLiteral("transaction_not_found"),
                                 QStringLiteral("no transaction %1 for this account").arg(transactionId));
    UpstreamSaleRepository sales(m_db);
    const std::optional<UpstreamSale> sale = sales.find(transactionId);
    if (row->mode != Mode::Live || !sale || !sale->waiting() || row->record.status != TransactionStatus::Pending)
        throw ApiError::conflict(QStringLiteral("not_pending"),
                                 QStringLiteral("transaction %1 is not a live sale waiting on the upstream: only a "
                                                "PENDING live sale is ended by hand")
                                     .arg(transactionId));
    const bool voucherSold =
        row->record.type == TransactionType::Voucher && decision.status == TransactionStatus::Success;
    if (voucherSold && decision.redeemCode.isEmpty())
        throw ApiError::badRequest(QStringLiteral("redeem_code"), QStringLiteral("redeem_code_required"),
                                   QStringLiteral("a voucher ended as SUCCESS needs its redeem_code from the "
                                                  "aggregator (the customer redeems that code)"));
    sales.recordResolution(transactionId, actor, decision.note, nowMs);
    StoredTransaction settled;
    if (!m_settlements.settleOne(transactionId, decision.status, voucherSold ? decision.redeemCode : QString(), nowMs,
                                 &settled))
        throw ApiError::conflict(QStringLiteral("not_pending"),
                                 QStringLiteral("transaction %1 was settled meanwhile").arg(transactionId));
    const QString status = TransactionNames::status(decision.status);
    m_audit.record(
        row->accountId, actor, QStringLiteral("transaction.resolve"),
        QStringLiteral("Transaction %1 (%2, reference %3) ended by hand as %4%5: %6")
            .arg(transactionId)
            .arg(Money::format(row->record.paid), sale->referenceId, status,
                 decision.status == TransactionStatus::Failed ? QStringLiteral(", wallet refunded") : QString(),
                 decision.note));
    transaction.commit();
    return settled;
}
