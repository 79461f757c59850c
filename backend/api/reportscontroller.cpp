#include "reportscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "dayendreportdata.h"
#include "http/apirouter.h"
#include "services/reportservice.h"

#include <QTimeZone>

namespace {

DayEndReportData::Line lineData(const DayEndReport::Line &line)
{
    return {line.type,   line.operatorCode, line.success,  line.pending,
            line.failed, line.billAmount,   line.discount, line.paid};
}

/// The service's report as the API's entity (the totals are the sums over the lines).
DayEndReportData dayEndData(const DayEndReport &report)
{
    DayEndReportData data;
    data.date = report.date;
    data.mode = ModeNames::mode(report.mode);
    data.totals = lineData(report.total());
    data.commission = data.totals.discount;
    for (const DayEndReport::Line &line : report.lines)
        data.lines.append(lineData(line));
    for (const DayEndReport::Clerk &clerk : report.clerks)
        data.clerks.append({clerk.clerk, clerk.success, clerk.billAmount, clerk.discount});
    data.hours.clear();
    for (const DayEndReport::Hour &hour : report.hours)
        data.hours.append({hour.hour, hour.success, hour.billAmount});
    data.walletOpening = report.walletOpening;
    data.walletClosing = report.walletClosing;
    data.topups = report.topups;
    data.debits = report.debits;
    data.refunds = report.refunds;
    data.unknownAtUpstream = report.unknownAtUpstream;
    data.unknownAtUpstreamPaid = report.unknownAtUpstreamPaid;
    return data;
}

} // namespace

void ReportsController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/reports/day-end"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString dateText = request.query.queryItemValue(QStringLiteral("date")).trimmed();
                   QDate date = QDateTime::currentDateTimeUtc().toTimeZone(QTimeZone(IstTime::kOffsetSeconds)).date();
                   if (!dateText.isEmpty()) {
                       date = QDate::fromString(dateText, QStringLiteral("yyyy-MM-dd"));
                       if (!date.isValid())
                           throw ApiError::badRequest(QStringLiteral("date"), QStringLiteral("invalid_query_parameter"),
                                                      QStringLiteral("date must be YYYY-MM-DD"));
                   }
                   const DayEndReport report = m_reports.dayEnd(request.caller.accountId, request.caller.mode, date);
                   reply.sendData(dayEndData(report).toJson());
               });
}
