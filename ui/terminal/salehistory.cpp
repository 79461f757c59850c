#include "salehistory.h"

#include "clock.h"
#include "transactionsapi.h"

#include <QDateTime>

TypedCall<Page<TransactionRecord>> SaleHistory::lookUp(ApiClient &api, ProductKind kind, const QString &number,
                                                       qint64 sinceMs)
{
    TransactionQuery query;
    query.type = kind == ProductKind::Dth ? QStringLiteral("DTH") : QStringLiteral("MOBILE");
    query.text = number;
    query.limit = 20;
    query.sinceMs = sinceMs;
    return TransactionsApi(api).list(query);
}

QList<TransactionRecord> SaleHistory::records(const Answer<Page<TransactionRecord>> &answer, const QString &number)
{
    QList<TransactionRecord> found;
    if (!answer.ok())
        return found;
    // q matches number prefixes (and ids and references): keep the exact number only.
    for (const TransactionRecord &record : answer.value->items) {
        if (record.number == number)
            found.append(record);
    }
    return found;
}

std::optional<TransactionRecord> SaleHistory::sameAmount(const QList<TransactionRecord> &records, Paise bill)
{
    for (const TransactionRecord &record : records) {
        if (record.status != TransactionStatus::Failed && record.billAmount == bill)
            return record;
    }
    return std::nullopt;
}

QString SaleHistory::repeatQuestion(const TransactionRecord &record)
{
    return tr("Sold %1 to %2 at %3 — sell again?")
        .arg(shortAmount(record.billAmount), groupedNumber(record.number), timeOfDay(record));
}

QString SaleHistory::shortAmount(Paise amount)
{
    if (amount % Money::kPaisePerRupee == 0)
        return QStringLiteral("₹") + QString::number(amount / Money::kPaisePerRupee);
    return Money::format(amount);
}

QString SaleHistory::groupedNumber(const QString &number)
{
    return number.size() == 10 ? number.left(5) + QLatin1Char(' ') + number.mid(5) : number;
}

QString SaleHistory::timeOfDay(const TransactionRecord &record)
{
    return IstTime::formatMs(record.createdAtMs).mid(11, 5);
}
