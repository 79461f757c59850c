#pragma once

#include "answer.h"
#include "entities/dayendreportdata.h"

/// Typed calls of the reports (api-conventions.md "Beyond the spec"); owns their routes.
class ReportsApi
{
public:
    explicit ReportsApi(ApiClient &api) : m_api(api) {}

    /// GET /api/v1/reports/day-end?date=YYYY-MM-DD (admin): the Z report of that IST day; an
    /// invalid `date` asks for today (IST, the server's clock).
    TypedCall<DayEndReportData> dayEnd(const QDate &date) const;

private:
    ApiClient &m_api;
};
