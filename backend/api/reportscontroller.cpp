#include "reportscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/dayendreportdata.h"
#include "http/apirouter.h"
#include "services/reportservice.h"

namespace {

/// The service's report as the API's entity (the totals are the sums over the lines).
DayEndReportData dayEndData(const DayEndReport &report)
{
    DayEndReportData data;
    data.date = report.date;
    data.mode = ModeNames::mode(report.mode);
    data.totals = report.total();
    data.commission = data.totals.discount;
    data.lines = report.lines;
    data.clerks = report.clerks;
    data.hours = report.hours;
    data.walletOpening = report.walletOpening;
    data.walletClosing = report.walletClosing;
    data.topups = report.topups;
    data.debits = report.debits;
    data.refunds = report.refunds;
    data.unknownAtUpstream = report.unknownAtUpstream;
    data.unknownAtUpstreamPaid = report.unknownAtUpstreamPaid;
    data.tenders = report.tenders;
    data.shifts = report.shifts;
    data.complaints = report.complaints;
    return data;
}

} // namespace

void ReportsController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/reports/day-end"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString dateText = request.query.queryItemValue(QStringLiteral("date")).trimmed();
                   QDate date = IstTime::dateOf(m_clock.nowUtc());
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
