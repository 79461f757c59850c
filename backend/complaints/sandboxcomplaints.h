#pragma once

#include <QString>

#include <optional>

/// How the sandbox ends a complaint about a test sale (issue 29; docs/api/openapi.yaml, tag Complaints), as sandbox
/// sales are decided by their number: deterministically, by the complaint's reason, once the shop's sandbox settle
/// delay has passed since it was raised (at once with a delay of 0):
/// - `not_received`: credited (the sale is reversed: FAILED, refunded once);
/// - `wrong_number`, `wrong_operator`, `wrong_amount`: rejected, with the operator's words and the reference
///   "SBX-<transaction_id>";
/// - `other`: the sandbox does not decide a person's free text: it stays open for the shop's admin.
struct SandboxComplaintDecision
{
    QString state; ///< "credited" or "rejected"
    QString words;
    QString operatorReference;

    /// The decision for a complaint with `reason` about the test sale `transactionId`; nullopt for `other`.
    static std::optional<SandboxComplaintDecision> of(const QString &reason, qint64 transactionId);
};
