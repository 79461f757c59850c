#pragma once

#include "answer.h"
#include "entities/page.h"
#include "entities/transactionrecord.h"
#include "money.h"
#include "operatorcatalog.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/// What the server's history says about one customer number, for the counter: the last sale to
/// it ("Repeat last: ₹299 Jio") and a sale of the same amount in the last minutes (the
/// repeat-sale guard). Asks GET /api/v1/transactions (api-conventions.md, "Beyond the spec") with
/// type, q (number prefix) and from (IST); the key sees every sale of the shop's account, so
/// sales made at other terminals count too.
class SaleHistory
{
    Q_DECLARE_TR_FUNCTIONS(SaleHistory)

public:
    /// How far back a sale of the same number and amount asks "sell again?": 10 minutes.
    static constexpr qint64 kRepeatWindowMs = 10 * 60 * 1000;

    /// The newest sales (up to 20) of `kind` to `number`; `sinceMs` > 0 (UTC ms since the epoch)
    /// keeps only sales made at or after it. The answer is read with records().
    static TypedCall<Page<TransactionRecord>> lookUp(ApiClient &api, ProductKind kind, const QString &number,
                                                     qint64 sinceMs = 0);
    /// The records of a lookUp() answer whose number is exactly `number`, newest first (empty
    /// when the request failed).
    static QList<TransactionRecord> records(const Answer<Page<TransactionRecord>> &answer, const QString &number);
    /// The newest record for `bill` paise that was not FAILED (a failed sale gave the customer
    /// nothing, so selling again is no repeat).
    static std::optional<TransactionRecord> sameAmount(const QList<TransactionRecord> &records, Paise bill);

    /// "Sold ₹299 to 98765 43210 at 14:02 — sell again?" (the record's IST time).
    static QString repeatQuestion(const TransactionRecord &record);
    /// "₹299" for whole rupees, else the spec's "₹249.50".
    static QString shortAmount(Paise amount);
    /// A 10-digit mobile number as "98765 43210"; other numbers unchanged.
    static QString groupedNumber(const QString &number);
    /// "14:02": the record's IST time of day.
    static QString timeOfDay(const TransactionRecord &record);
};
