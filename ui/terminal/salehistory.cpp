#include "salehistory.h"

#include "apiclient.h"
#include "clock.h"

#include <QDateTime>
#include <QJsonArray>
#include <QUrlQuery>

ApiCall *SaleHistory::lookUp(ApiClient &api, ProductKind kind, const QString &number, qint64 sinceMs)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("type"),
                       kind == ProductKind::Dth ? QStringLiteral("DTH") : QStringLiteral("MOBILE"));
    query.addQueryItem(QStringLiteral("q"), number);
    query.addQueryItem(QStringLiteral("sort"), QStringLiteral("newest"));
    query.addQueryItem(QStringLiteral("limit"), QStringLiteral("20"));
    if (sinceMs > 0)
        query.addQueryItem(QStringLiteral("from"), IstTime::formatMs(sinceMs));
    return api.get(QStringLiteral("/api/v1/transactions"), query);
}

QList<QJsonObject> SaleHistory::records(const ApiResult &result, const QString &number)
{
    QList<QJsonObject> found;
    if (!result.ok())
        return found;
    // q matches number prefixes (and ids and references): keep the exact number only.
    const QJsonArray items = result.data.value(QStringLiteral("items")).toArray();
    for (const QJsonValue &item : items) {
        const QJsonObject record = item.toObject();
        if (record.value(QStringLiteral("number")).toString() == number)
            found.append(record);
    }
    return found;
}

std::optional<QJsonObject> SaleHistory::sameAmount(const QList<QJsonObject> &records, Paise bill)
{
    for (const QJsonObject &record : records) {
        if (record.value(QStringLiteral("transaction_status")).toString() == QLatin1String("FAILED"))
            continue;
        if (Money::parse(record.value(QStringLiteral("bill_amount")).toString()) == bill)
            return record;
    }
    return std::nullopt;
}

QString SaleHistory::repeatQuestion(const QJsonObject &record)
{
    return tr("Sold %1 to %2 at %3 — sell again?")
        .arg(shortAmount(Money::parse(record.value(QStringLiteral("bill_amount")).toString()).value_or(0)),
             groupedNumber(record.value(QStringLiteral("number")).toString()), timeOfDay(record));
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

QString SaleHistory::timeOfDay(const QJsonObject &record)
{
    return record.value(QStringLiteral("datetime")).toString().mid(11, 5);
}
