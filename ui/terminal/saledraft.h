#pragma once

#include "money.h"
#include "operatorcatalog.h"
#include "receipts/receiptdata.h"
#include "tender.h"

#include <QJsonObject>
#include <QString>

#include <optional>

/// One sale as the clerk filled it in, before it is sent: the spec endpoint and body (without
/// reference_id, which SaleFlow adds), the operator (for its name and discount rate), the bill
/// in paise and what the confirmation shows about the customer.
struct SaleDraft
{
    ProductKind kind = ProductKind::Mobile; ///< which spec endpoint sells it (SalesApi, api-v1.md 5-7)
    QJsonObject body;                       ///< spec body fields except reference_id
    OperatorInfo op;                        ///< operator or voucher issuer
    Paise bill = 0;                         ///< bill_amount in paise
    QString subjectLabel;                   ///< "Mobile number", "Subscriber number", "Customer e-mail"
    QString subject;                        ///< the number or e-mail; may be empty (voucher without e-mail)
    QString typedReference;                 ///< reference_id typed by the clerk; empty: SaleFlow generates one
    QString note;                           ///< an extra line for the confirmation (circle, plan); may be empty
    QString circle;                    ///< the circle chosen, as shown ("Mumbai (MU)"); empty if none (for the receipt)
    std::optional<SoldPlan> plan;      ///< the plan sold from the Plans screen, if any (for the receipt)
    Tender tender = Tender::Cash;      ///< how the customer pays (chosen at the confirmation, issue 28)
    std::optional<Paise> cashReceived; ///< cash the customer handed over, if the clerk typed it (paise)
    QString upiLink;                   ///< the UPI QR's link of a UPI sale (empty: cash, or no UPI ID), for the receipt

    /// The discount exactly as the server computes it: round-half-up(bill × rate) in paise.
    Paise discount() const { return Money::percentageOf(bill, op.discountBasisPoints); }
    /// What the wallet is debited: bill − discount, in paise.
    Paise paid() const { return bill - discount(); }
};
