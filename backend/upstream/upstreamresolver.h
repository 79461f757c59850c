#pragma once

#include "entities/transactionrecord.h"
#include "store/transactionrepository.h"

#include <QString>

class AuditLog;
class Database;
class SettlementService;

/// Ends a live sale by a person's word (issue 26, "Ending what is unknown"; POST /api/v1/transactions/{id}/resolve
/// and `rechargedesk transactions resolve`): the admin checked the aggregator's dashboard or its support and says
/// whether the recharge was made. Used by the server and by the command line on the same database.
class UpstreamResolver
{
public:
    /// What a person decided, after the input rules.
    struct Decision
    {
        TransactionStatus status = TransactionStatus::Failed;
        QString note; ///< why, 1–500 characters, trimmed
        /// A voucher's code as the aggregator shows it (four groups of four letters or digits, upper case); needed
        /// to end a voucher sale as SUCCESS, empty otherwise.
        QString redeemCode;
    };
    static constexpr int kMaxNote = 500;

    /// `status` "SUCCESS" or "FAILED" (any case), `note` 1–500 characters after trimming, `redeemCode` empty or
    /// "XXXX-XXXX-XXXX-XXXX" (api-v1.md, voucher `redeem_code`). Throws ApiError 400 naming the field (`status`
    /// invalid_status, `note` note_required / note_too_long, `redeem_code` invalid_redeem_code).
    static Decision checked(const QString &status, const QString &note, const QString &redeemCode = {});

    UpstreamResolver(Database &db, SettlementService &settlements, AuditLog &audit)
        : m_db(db), m_settlements(settlements), m_audit(audit)
    {}

    /// In one write transaction: the live sale `transactionId` of account `accountId` (0: any account, for the
    /// command line on the shop's own database) still PENDING and waiting on the upstream moves to the decided
    /// status exactly once (FAILED refunds `paid` once, in the ledger), its upstream row records who, why and when,
    /// its webhook is queued (outbox) and the audit log gets `transaction.resolve` by `actor`. Returns the settled
    /// row. Throws ApiError 404 when the account has no such sale, 409 `not_pending` when it is not a PENDING live
    /// sale (settled already, or a sandbox sale), 400 `redeem_code` (redeem_code_required) for a voucher ended as
    /// SUCCESS without its code (a code is never made up for a live voucher); DatabaseError. The caller announces the
    /// settlement after it.
    StoredTransaction resolve(qint64 accountId, qint64 transactionId, const Decision &decision, const QString &actor,
                              qint64 nowMs);

private:
    Database &m_db;
    SettlementService &m_settlements;
    AuditLog &m_audit;
};
