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

    /// A canonical text of what was asked, to tell a replay (same body) from a reuse of the
    /// reference_id with a different body (api-conventions.md, "Idempotency").
    QString fingerprint() const;

    /// Endpoint 5 body: phone_number, amount, operator_code (AT VI BS RJ), reference_id.
    /// Throws ApiError 400 naming the first invalid field.
    static SaleRequest decodeMobile(const QJsonObject &body, const OperatorCatalog &catalog);
    /// Endpoint 6 body: amount (10-10000), customer_email, reference_id. Throws ApiError 400.
    static SaleRequest decodeVoucher(const QJsonObject &body, const OperatorCatalog &catalog);
    /// Endpoint 7 body: number, amount, operator_code (SD AD VC TS DT BT), reference_id.
    /// Throws ApiError 400.
    static SaleRequest decodeDth(const QJsonObject &body, const OperatorCatalog &catalog);
};
