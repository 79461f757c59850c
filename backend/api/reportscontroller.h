#pragma once

class ApiRouter;
class Clock;
class ReportService;

/// GET /api/v1/reports/day-end?date=YYYY-MM-DD (admin; default today, IST): the day-end (Z)
/// report of the caller's mode as {"entity": "day_end_report", …} with money in the spec's
/// "₹249.00" form (see ReportService for what each figure means). "Today" is the IST date on `clock`.
class ReportsController
{
public:
    ReportsController(ReportService &reports, const Clock &clock) : m_reports(reports), m_clock(clock) {}
    void registerRoutes(ApiRouter &router);

private:
    ReportService &m_reports;
    const Clock &m_clock;
};
