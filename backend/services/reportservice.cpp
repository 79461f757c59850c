#include "reportservice.h"

#include "clock.h"
#include "complaints/complaintrepository.h"

DayEndReport ReportService::dayEnd(qint64 accountId, Mode mode, const QDate &date)
{
    DayEndReport report;
    report.date = date;
    report.mode = mode;
    const qint64 fromMs = IstTime::at(date, QTime(0, 0)).toMSecsSinceEpoch();
    const qint64 toMs = IstTime::at(date.addDays(1), QTime(0, 0)).toMSecsSinceEpoch();
    ReportRepository(m_db).fillDayEnd(accountId, fromMs, toMs, &report);
    report.complaints = ComplaintRepository(m_db).dayCounts(accountId, mode, fromMs, toMs);
    return report;
}
