#include "reportscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "http/apirouter.h"
#include "services/reportservice.h"

#include <QJsonArray>

void ReportsController::registerRoutes(ApiRouter &router)
{
    router.add(
        QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/reports/day-end"), Access::Admin,
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
            const auto lineJson = [](const DayEndReport::Line &line) {
                return QJsonObject{{QStringLiteral("type"), line.type},
                                   {QStringLiteral("operator_code"), line.operatorCode},
                                   {QStringLiteral("success"), line.success},
                                   {QStringLiteral("pending"), line.pending},
                                   {QStringLiteral("failed"), line.failed},
                                   {QStringLiteral("bill_amount"), Money::format(line.billAmount)},
                                   {QStringLiteral("discount"), Money::format(line.discount)},
                                   {QStringLiteral("paid"), Money::format(line.paid)}};
            };
            QJsonArray lines;
            for (const DayEndReport::Line &line : report.lines)
                lines.append(lineJson(line));
            QJsonArray clerks;
            for (const DayEndReport::Clerk &clerk : report.clerks) {
                clerks.append(QJsonObject{{QStringLiteral("clerk"), clerk.clerk},
                                          {QStringLiteral("success"), clerk.success},
                                          {QStringLiteral("bill_amount"), Money::format(clerk.billAmount)},
                                          {QStringLiteral("discount"), Money::format(clerk.discount)}});
            }
            QJsonArray hours;
            for (const DayEndReport::Hour &hour : report.hours) {
                hours.append(QJsonObject{{QStringLiteral("hour"), hour.hour},
                                         {QStringLiteral("success"), hour.success},
                                         {QStringLiteral("bill_amount"), Money::format(hour.billAmount)}});
            }
            const DayEndReport::Line total = report.total();
            reply.sendData(QJsonObject{
                {QStringLiteral("entity"), QStringLiteral("day_end_report")},
                {QStringLiteral("date"), report.date.toString(QStringLiteral("yyyy-MM-dd"))},
                {QStringLiteral("mode"), ModeNames::mode(report.mode)},
                {QStringLiteral("totals"), lineJson(total)},
                {QStringLiteral("commission_earned"), Money::format(total.discount)},
                {QStringLiteral("lines"), lines},
                {QStringLiteral("clerks"), clerks},
                {QStringLiteral("hours"), hours},
                {QStringLiteral("unknown_at_upstream"),
                 QJsonObject{{QStringLiteral("count"), report.unknownAtUpstream},
                             {QStringLiteral("paid"), Money::format(report.unknownAtUpstreamPaid)}}},
                {QStringLiteral("wallet"), QJsonObject{{QStringLiteral("opening"), Money::format(report.walletOpening)},
                                                       {QStringLiteral("closing"), Money::format(report.walletClosing)},
                                                       {QStringLiteral("topups"), Money::format(report.topups)},
                                                       {QStringLiteral("debits"), Money::format(report.debits)},
                                                       {QStringLiteral("refunds"), Money::format(report.refunds)}}}});
        });
}
