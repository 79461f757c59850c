#pragma once

#include "entities/transactionrecord.h"
#include "money.h"

#include <QJsonObject>
#include <QString>

class OperatorCatalog;

/// A validated request to sell: what the initiate endpoints 5, 6 and 7 carry, after the rules
/// of api-conventions.md. Money in paise (the spec's amounts are whole rupees).
struct SaleRequest
{
    TransactionType type = TransactionType::Mobile;
    QString operatorCode;
    QString number; ///< phone (mobile) or subscriber number (DTH); empty for vouchers
    Paise billAmount = 0;
    QString customerEmail; ///< vouchers only; may be empty
    QString referenceId;   ///< may be empty
    QString tender;        ///< issue 28: "cash" / "upi", how the customer pays the shop; "" when not recorded
    QString circleCode;    ///< issue 29: mobile only, the telecom circle the clerk chose (circle table); "" when none

    /// A canonical text of what was asked, to tell a replay (same body) from a reuse of the
    /// reference_id with a different body (api-conventions.md, "Idempotency"). The tender is part of it only when
    /// given, so the fingerprints of sales without one stay what they were. The circle is not: it says nothing about
    /// what is sold (a replay that adds or drops it is the same sale).
    QString fingerprint() const;

    /// Endpoint 5 body: phone_number, amount, operator_code (AT VI BS RJ), reference_id, and our optional
    /// `tender` ("cash" / "upi", 400 `invalid_tender` otherwise; every decoder reads it) and our optional
    /// `circle_code` (a code of the circle table, 400 `invalid_circle_code` otherwise; issue 29: what the number
    /// lookup learns).
    /// Throws ApiError 400 naming the first invalid field.
    static SaleRequest decodeMobile(const QJsonObject &body, const OperatorCatalog &catalog);
    /// Endpoint 6 body: amount (10-10000), customer_email, reference_id. Throws ApiError 400.
    static SaleRequest decodeVoucher(const QJsonObject &body, const OperatorCatalog &catalog);
    /// Endpoint 7 body: number, amount, operator_code (SD AD VC TS DT BT), reference_id.
    /// Throws ApiError 400.
    static SaleRequest decodeDth(const QJsonObject &body, const OperatorCatalog &catalog);
};
