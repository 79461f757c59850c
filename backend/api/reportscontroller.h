#pragma once

class ApiRouter;
class ReportService;

/// GET /api/v1/reports/day-end?date=YYYY-MM-DD (admin; default today, IST): the day-end (Z)
/// report of the caller's mode as {"entity": "day_end_report", …} with money in the spec's
/// "₹249.00" form (see ReportService for what each figure means).
class ReportsController
{
public:
    explicit ReportsController(ReportService &reports) : m_reports(reports) {}
    void registerRoutes(ApiRouter &router);

private:
    ReportService &m_reports;
};
