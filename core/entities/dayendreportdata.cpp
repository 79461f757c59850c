#include "entities/dayendreportdata.h"

#include "answerreader.h"
#include "entities/entityfields.h"

#include <QJsonArray>

namespace {

template <class T> QJsonArray arrayOf(const QList<T> &items)
{
    QJsonArray array;
    for (const T &item : items)
        array.append(item.toJson());
    return array;
}

/// Ends a codec: the value, or nullopt with the reader's error.
template <class T> std::optional<T> finish(const AnswerReader &in, T value, QString *error)
{
    if (!in.ok()) {
        *error = in.error();
        return std::nullopt;
    }
    return value;
}

} // namespace

QJsonObject DayEndReportData::Line::toJson() const
{
    return QJsonObject{{QStringLiteral("type"), type},
                       {QStringLiteral("operator_code"), operatorCode},
                       {QStringLiteral("success"), success},
                       {QStringLiteral("pending"), pending},
                       {QStringLiteral("failed"), failed},
                       {QStringLiteral("bill_amount"), Money::format(billAmount)},
                       {QStringLiteral("discount"), Money::format(discount)},
                       {QStringLiteral("paid"), Money::format(paid)}};
}

std::optional<DayEndReportData::Line> DayEndReportData::Line::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("day-end line"));
    Line line;
    line.type = in.string(u"type");
    line.operatorCode = in.string(u"operator_code");
    line.success = in.integer(u"success");
    line.pending = in.integer(u"pending");
    line.failed = in.integer(u"failed");
    line.billAmount = in.money(u"bill_amount");
    line.discount = in.money(u"discount");
    line.paid = in.money(u"paid");
    return finish(in, line, error);
}

QJsonObject DayEndReportData::Clerk::toJson() const
{
    return QJsonObject{{QStringLiteral("clerk"), clerk},
                       {QStringLiteral("success"), success},
                       {QStringLiteral("bill_amount"), Money::format(billAmount)},
                       {QStringLiteral("discount"), Money::format(discount)}};
}

std::optional<DayEndReportData::Clerk> DayEndReportData::Clerk::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("day-end clerk"));
    Clerk clerk;
    clerk.clerk = in.string(u"clerk");
    clerk.success = in.integer(u"success");
    clerk.billAmount = in.money(u"bill_amount");
    clerk.discount = in.money(u"discount");
    return finish(in, clerk, error);
}

QJsonObject DayEndReportData::Hour::toJson() const
{
    return QJsonObject{{QStringLiteral("hour"), hour},
                       {QStringLiteral("success"), success},
                       {QStringLiteral("bill_amount"), Money::format(billAmount)}};
}

std::optional<DayEndReportData::Hour> DayEndReportData::Hour::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("day-end hour"));
    Hour hour;
    const qint64 at = in.integer(u"hour");
    if (in.ok() && (at < 0 || at > 23))
        in.fail(u"hour", QStringLiteral("is not an hour 0-23 (%1)").arg(at));
    hour.hour = int(at);
    hour.success = in.integer(u"success");
    hour.billAmount = in.money(u"bill_amount");
    return finish(in, hour, error);
}

QJsonObject DayEndReportData::ShiftLine::toJson() const
{
    const auto moneyOrNull = [](const std::optional<Paise> &amount) {
        return amount ? QJsonValue(Money::format(*amount)) : QJsonValue(QJsonValue::Null);
    };
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("terminal"), terminal},
                       {QStringLiteral("clerk"), clerk},
                       {QStringLiteral("state"), state},
                       {QStringLiteral("opened_at"), EntityFields::dateTime(openedAt)},
                       {QStringLiteral("closed_at"),
                        closedAt.isValid() ? EntityFields::dateTime(closedAt) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("opening_cash"), Money::format(openingCash)},
                       {QStringLiteral("expected_cash"), Money::format(expectedCash)},
                       {QStringLiteral("counted_cash"), moneyOrNull(countedCash)},
                       {QStringLiteral("difference"), moneyOrNull(difference)}};
}

std::optional<DayEndReportData::ShiftLine> DayEndReportData::ShiftLine::fromJson(const QJsonObject &json,
                                                                                 QString *error)
{
    AnswerReader in(json, QStringLiteral("day-end shift"));
    ShiftLine line;
    line.id = in.integer(u"id");
    line.terminal = in.string(u"terminal");
    line.clerk = in.string(u"clerk");
    line.state = EntityFields::oneOf(in, u"state", {u"open", u"closed"});
    line.openedAt = in.dateTime(u"opened_at");
    line.closedAt = EntityFields::optionalDateTime(in, u"closed_at").value_or(QDateTime());
    line.openingCash = in.money(u"opening_cash");
    line.expectedCash = in.money(u"expected_cash");
    line.countedCash = in.optionalMoney(u"counted_cash");
    line.difference = in.optionalMoney(u"difference");
    return finish(in, line, error);
}

QJsonObject DayEndReportData::Complaints::toJson() const
{
    return QJsonObject{{QStringLiteral("raised"), raised},
                       {QStringLiteral("open"), open},
                       {QStringLiteral("credited"), credited},
                       {QStringLiteral("rejected"), rejected}};
}

std::optional<DayEndReportData::Complaints> DayEndReportData::Complaints::fromJson(const QJsonObject &json,
                                                                                   QString *error)
{
    AnswerReader in(json, QStringLiteral("day-end complaints"));
    Complaints counts;
    counts.raised = in.integer(u"raised");
    counts.open = in.integer(u"open");
    counts.credited = in.integer(u"credited");
    counts.rejected = in.integer(u"rejected");
    return finish(in, counts, error);
}

QJsonObject DayEndReportData::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("day_end_report")},
                       {QStringLiteral("date"), date.toString(QStringLiteral("yyyy-MM-dd"))},
                       {QStringLiteral("mode"), mode},
                       {QStringLiteral("totals"), totals.toJson()},
                       {QStringLiteral("commission_earned"), Money::format(commission)},
                       {QStringLiteral("lines"), arrayOf(lines)},
                       {QStringLiteral("clerks"), arrayOf(clerks)},
                       {QStringLiteral("hours"), arrayOf(hours)},
                       {QStringLiteral("unknown_at_upstream"),
                        QJsonObject{{QStringLiteral("count"), unknownAtUpstream},
                                    {QStringLiteral("paid"), Money::format(unknownAtUpstreamPaid)}}},
                       {QStringLiteral("wallet"), QJsonObject{{QStringLiteral("opening"), Money::format(walletOpening)},
                                                              {QStringLiteral("closing"), Money::format(walletClosing)},
                                                              {QStringLiteral("topups"), Money::format(topups)},
                                                              {QStringLiteral("debits"), Money::format(debits)},
                                                              {QStringLiteral("refunds"), Money::format(refunds)}}},
                       {QStringLiteral("tenders"), tenders.toJson()},
                       {QStringLiteral("shifts"), arrayOf(shifts)},
                       {QStringLiteral("complaints"), complaints.toJson()}};
}

std::optional<DayEndReportData> DayEndReportData::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("day-end report"));
    DayEndReportData report;
    const QString dateText = in.string(u"date");
    report.date = QDate::fromString(dateText, QStringLiteral("yyyy-MM-dd"));
    if (in.ok() && !report.date.isValid())
        in.fail(u"date", QStringLiteral("is not a date YYYY-MM-DD (\"%1\")").arg(dateText));
    report.mode = in.string(u"mode");
    QString why;
    const std::optional<Line> totals = in.ok() ? Line::fromJson(in.object(u"totals"), &why) : std::nullopt;
    if (in.ok() && !totals)
        in.fail(u"totals", why);
    report.totals = totals.value_or(Line());
    report.commission = in.money(u"commission_earned");
    report.lines = in.list<Line>(u"lines", &Line::fromJson);
    report.clerks = in.list<Clerk>(u"clerks", &Clerk::fromJson);
    for (int hour = 0; hour < 24; ++hour)
        report.hours.append({hour, 0, 0});
    for (const Hour &hour : in.list<Hour>(u"hours", &Hour::fromJson))
        report.hours[hour.hour] = hour;
    const QJsonObject tenders = in.object(u"tenders");
    const std::optional<Shift::TenderTotals> tenderTotals =
        in.ok() ? Shift::TenderTotals::fromJson(tenders, &why) : std::nullopt;
    if (in.ok() && !tenderTotals)
        in.fail(u"tenders", why);
    report.tenders = tenderTotals.value_or(Shift::TenderTotals());
    report.shifts = in.list<ShiftLine>(u"shifts", &ShiftLine::fromJson);
    const QJsonObject complaints = in.object(u"complaints");
    const std::optional<Complaints> complaintCounts = in.ok() ? Complaints::fromJson(complaints, &why) : std::nullopt;
    if (in.ok() && !complaintCounts)
        in.fail(u"complaints", why);
    report.complaints = complaintCounts.value_or(Complaints());
    AnswerReader wallet(in.object(u"wallet"), QStringLiteral("day-end report: wallet"));
    report.walletOpening = wallet.money(u"opening");
    report.walletClosing = wallet.money(u"closing");
    report.topups = wallet.money(u"topups");
    report.debits = wallet.money(u"debits");
    report.refunds = wallet.money(u"refunds");
    AnswerReader upstream(in.object(u"unknown_at_upstream"), QStringLiteral("day-end report: unknown_at_upstream"));
    report.unknownAtUpstream = upstream.integer(u"count");
    report.unknownAtUpstreamPaid = upstream.money(u"paid");
    if (!in.ok() || !wallet.ok() || !upstream.ok()) {
        *error = !in.ok() ? in.error() : !wallet.ok() ? wallet.error() : upstream.error();
        return std::nullopt;
    }
    return report;
}
