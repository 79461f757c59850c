#include "reportservice.h"

#include "clock.h"

DayEndReport ReportService::dayEnd(qint64 accountId, Mode mode, const QDate &date)
{
    DayEndReport report;
    report.date = date;
    report.mode = mode;
    ReportRepository(m_db).fillDayEnd(accountId, IstTime::at(date, QTime(0, 0)).toMSecsSinceEpoch(),
                                      IstTime::at(date.addDays(1), QTime(0, 0)).toMSecsSinceEpoch(), &report);
    return report;
}
