#pragma once

#include "apierror.h"
#include "money.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

struct OperatorInfo;

/// The client-side input checks and texts the three sale screens share. They mirror the
/// server's rules (api-conventions.md, "Validation rules") so most mistakes are shown while
/// typing; the server still decides. Each *Problem function returns a message for people, or
/// an empty string when the input is acceptable.
class SaleChecks
{
    Q_DECLARE_TR_FUNCTIONS(SaleChecks)

public:
    /// Whole rupees typed by the clerk: ASCII digits only, no sign or decimals; nullopt otherwise.
    static std::optional<qint64> rupees(const QString &text);
    /// "₹10 – ₹2500 for Airtel": the operator's amount limits in whole rupees.
    static QString limitsText(const OperatorInfo &op);
    /// Problem with `text` as an amount for `op` (nullptr: no operator chosen yet).
    static QString amountProblem(const QString &text, const OperatorInfo *op);
    /// Problem with a 10-digit Indian mobile number (first digit 6-9).
    static QString phoneProblem(const QString &text);
    /// Problem with a DTH subscriber number for `op` (its pattern or a registered mobile number).
    static QString dthNumberProblem(const QString &text, const OperatorInfo *op);
    /// Problem with the optional reference id (empty is fine): 1-64 of A-Z a-z 0-9 _ -.
    static QString referenceProblem(const QString &text);
    /// Problem with the optional customer e-mail (empty is fine).
    static QString emailProblem(const QString &text);

    /// `error` with its description in plain words for the counter where the server's text is
    /// technical (reused reference, refused key); otherwise unchanged. Field and status stay.
    static ApiError plainError(const ApiError &error);

    /// A fresh client reference id ("rd-" and 32 hex digits) so that a retried POST after a
    /// network error is recognised by the server as the same sale (api-conventions.md, "Idempotency").
    static QString newReferenceId();
    /// A voucher redeem code in four groups of four, "ABCD-EFGH-JKLM-NPQR", whatever separators
    /// the input had; the input unchanged if it is not 16 letters and digits.
    static QString groupRedeemCode(const QString &code);
};
