#include "reportsapi.h"

TypedCall<DayEndReportData> ReportsApi::dayEnd(const QDate &date) const
{
    QUrlQuery query;
    if (date.isValid())
        query.addQueryItem(QStringLiteral("date"), date.toString(QStringLiteral("yyyy-MM-dd")));
    return {m_api.get(QStringLiteral("/api/v1/reports/day-end"), query), &DayEndReportData::fromJson};
}
