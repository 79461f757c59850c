#pragma once

#include "money.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

/// A fund request's body after the input rules (issue 30, "Fund requests"), shared by the distributor's
/// POST /api/v1/fund-requests and the shop's POST /api/v1/upstreams/{name}/fund-requests: amount in whole rupees
/// (a JSON integer or a string of digits) 1..WalletService::kMaxTopup, method upi|bank|cash_deposit, utr 6–40 of
/// [A-Za-z0-9/-] (trimmed, upper-cased), reference_id optional (1–64 of [A-Za-z0-9_-]), note ≤ 200 characters, slip
/// optional {content_type image/png|image/jpeg, data base64}: decoded at most 1 MiB and its magic bytes those of its
/// content type.
struct FundRequestInput
{
    Paise amount = 0;
    QString method;
    QString utr;
    QString referenceId; ///< "" when none
    QString note;
    QString slipType; ///< "" when no slip
    QByteArray slip;  ///< the decoded image

    /// Reads and checks `body`; `withReference`: reference_id is read (else ignored). Throws ApiError 400 naming the
    /// field: amount (missing_field, not_an_integer, amount_out_of_range), method (invalid_method), utr
    /// (missing_field, invalid_utr), reference_id (invalid_reference_id), note (invalid_note), slip (invalid_slip:
    /// not an object, an unknown content type, data not base64 or not the image it says; slip_too_large: more than
    /// 1 MiB decoded).
    static FundRequestInput fromJson(const QJsonObject &body, bool withReference);
    /// The body to send to an upstream (reference_id added by the caller): amount in rupees, method, utr, note, slip.
    QJsonObject toJson() const;
    /// Whether `other` asks the same (amount, method, utr, note): the same reference_id with another body is 409.
    bool sameAs(Paise otherAmount, const QString &otherMethod, const QString &otherUtr, const QString &otherNote) const;
};
