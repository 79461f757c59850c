#include "entities/transactionquery.h"

#include "clock.h"

#include <QUrl>

QString TransactionQuery::sortName(Sort sort)
{
    switch (sort) {
    case Sort::Newest:
        return QStringLiteral("newest");
    case Sort::Oldest:
        return QStringLiteral("oldest");
    case Sort::AmountHigh:
        return QStringLiteral("amount_desc");
    case Sort::AmountLow:
        return QStringLiteral("amount_asc");
    }
    return QStringLiteral("newest");
}

QUrlQuery TransactionQuery::toQuery() const
{
    QUrlQuery query;
    if (!type.isEmpty())
        query.addQueryItem(QStringLiteral("type"), type);
    const QString trimmed = text.trimmed();
    if (!trimmed.isEmpty())
        query.addQueryItem(QStringLiteral("q"), QString::fromLatin1(QUrl::toPercentEncoding(trimmed)));
    if (from.isValid())
        query.addQueryItem(QStringLiteral("from"), from.toString(Qt::ISODate));
    else if (sinceMs > 0)
        query.addQueryItem(QStringLiteral("from"), IstTime::formatMs(sinceMs));
    if (to.isValid())
        query.addQueryItem(QStringLiteral("to"), to.toString(Qt::ISODate));
    if (!operatorCode.isEmpty())
        query.addQueryItem(QStringLiteral("operator"), operatorCode);
    if (!status.isEmpty())
        query.addQueryItem(QStringLiteral("status"), status);
    if (!tender.isEmpty())
        query.addQueryItem(QStringLiteral("tender"), tender);
    if (!upstreamState.isEmpty())
        query.addQueryItem(QStringLiteral("upstream_state"), upstreamState);
    query.addQueryItem(QStringLiteral("sort"), sortName(sort));
    if (limit > 0)
        query.addQueryItem(QStringLiteral("limit"), QString::number(limit));
    if (!cursor.isEmpty())
        query.addQueryItem(QStringLiteral("cursor"), cursor);
    return query;
}
