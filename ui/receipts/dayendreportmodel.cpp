#include "dayendreportmodel.h"

#include "operatorcatalog.h"
#include "shiftwording.h"

#include <QLocale>

namespace {

QString count(qint64 n)
{
    return QLocale().toString(n);
}

QString money(Paise paise)
{
    return Money::formatIndian(paise);
}

} // namespace

QString DayEndReportModel::typeName(const QString &type)
{
    if (type == QLatin1String("MOBILE"))
        return tr("Mobile");
    if (type == QLatin1String("DTH"))
        return tr("DTH");
    if (type == QLatin1String("VOUCHER"))
        return tr("Voucher");
    return type;
}

QString DayEndReportModel::operatorName(const OperatorCatalog &catalog, const QString &code)
{
    const OperatorInfo *info = catalog.findOperator(code);
    return info ? info->name : code;
}

QString DayEndReportModel::clerkName(const QString &clerk)
{
    return clerk.isEmpty() ? tr("Counter (API)") : clerk;
}

QString DayEndReportModel::unknownAtUpstreamText(const DayEndReportData &report)
{
    if (report.unknownAtUpstream <= 0)
        return {};
    return tr("Of the pending sales, %n (wallet debit %1) are still unknown at the upstream: no definite answer yet, "
              "so "
              "neither sold nor refunded. Recheck them in History → Unknown at upstream.",
              nullptr, int(report.unknownAtUpstream))
        .arg(Money::format(report.unknownAtUpstreamPaid));
}

QString DayEndReportModel::title() const
{
    return tr("Day-end (Z) report");
}

const ReportSection *DayEndReportModel::section(const QString &key) const
{
    for (const ReportSection &section : m_sections) {
        if (section.key == key)
            return &section;
    }
    return nullptr;
}

DayEndReportModel DayEndReportModel::blanked() const
{
    DayEndReportModel blank;
    for (ReportSection section : m_sections) {
        if (section.kind == ReportSection::Kind::Warning)
            continue;
        for (ReportFigure &figure : section.figures) {
            figure.value.clear();
            figure.tone = ReportTone::Plain;
        }
        section.rows.clear();
        if (section.kind == ReportSection::Kind::Table)
            section.text.clear();
        blank.m_sections.append(section);
    }
    return blank;
}

DayEndReportModel DayEndReportModel::build(const DayEndReportData &report, const OperatorCatalog &catalog)
{
    DayEndReportModel model;
    if (report.date.isValid())
        model.m_dateLine = tr("%1 (IST)").arg(QLocale().toString(report.date, QStringLiteral("dddd d MMMM yyyy")));
    if (report.mode == QLatin1String("test"))
        model.m_modeNote = tr("TEST MODE");
    QList<ReportSection> &sections = model.m_sections;
    const DayEndReportData::Line &totals = report.totals;

    sections.append(ReportSection::makeFigures(
        QStringLiteral("sales"), tr("Sales"),
        {{QStringLiteral("successCount"), tr("Successful sales"), count(totals.success)},
         {QStringLiteral("pendingCount"), tr("Pending sales"), count(totals.pending)},
         {QStringLiteral("failedCount"), tr("Failed sales"), count(totals.failed)},
         {QStringLiteral("billTotal"), tr("Bill amount (successful)"), money(totals.billAmount)},
         {QStringLiteral("commissionEarned"), tr("Commission earned"), money(report.commission)},
         {QStringLiteral("paidTotal"), tr("Wallet debit (successful)"), money(totals.paid)}}));
    sections.append(ReportSection::makeFigures(
        QStringLiteral("wallet"), tr("Wallet"),
        {{QStringLiteral("walletOpening"), tr("Opening balance"), money(report.walletOpening)},
         {QStringLiteral("walletTopups"), tr("Top-ups"), money(report.topups)},
         {QStringLiteral("walletDebits"), tr("Debits for sales"), money(report.debits)},
         {QStringLiteral("walletRefunds"), tr("Refunds of failed sales"), money(report.refunds)},
         {QStringLiteral("walletClosing"), tr("Closing balance"), money(report.walletClosing)}}));
    if (report.unknownAtUpstream > 0) {
        ReportSection warning;
        warning.kind = ReportSection::Kind::Warning;
        warning.key = QStringLiteral("upstreamUnknown");
        warning.text = unknownAtUpstreamText(report);
        sections.append(warning);
    }

    ReportSection lines = ReportSection::makeTable(QStringLiteral("lines"), tr("By type and operator"),
                                                   {tr("Type"), tr("Operator"), tr("Success"), tr("Pending"),
                                                    tr("Failed"), tr("Bill"), tr("Commission"), tr("Wallet debit")},
                                                   2, tr("No sales on this day."));
    const auto lineCells = [](const DayEndReportData::Line &line, const QString &type, const QString &name) {
        return QStringList{type,
                           name,
                           count(line.success),
                           count(line.pending),
                           count(line.failed),
                           money(line.billAmount),
                           money(line.discount),
                           money(line.paid)};
    };
    for (const DayEndReportData::Line &line : report.lines)
        lines.rows.append({lineCells(line, typeName(line.type), operatorName(catalog, line.operatorCode))});
    lines.rows.append({lineCells(totals, tr("Total"), QString()), true});
    sections.append(lines);

    ReportSection clerks =
        ReportSection::makeTable(QStringLiteral("clerks"), tr("By clerk (successful sales)"),
                                 {tr("Clerk"), tr("Sales"), tr("Bill"), tr("Commission")}, 1, tr("None."));
    for (const DayEndReportData::Clerk &clerk : report.clerks) {
        clerks.rows.append(
            {{clerkName(clerk.clerk), count(clerk.success), money(clerk.billAmount), money(clerk.discount)}});
    }
    sections.append(clerks);

    ReportSection tenders = ReportSection::makeTable(QStringLiteral("tenders"), tr("By payment (successful sales)"),
                                                     {tr("Payment"), tr("Sales"), tr("Bill")}, 1, QString());
    const auto tenderRow = [](const QString &name, const Shift::TenderTotal &total) {
        return ReportRow{{name, count(total.count), money(total.amount)}};
    };
    tenders.rows = {tenderRow(ShiftWording::tenderName(QStringLiteral("cash")), report.tenders.cash),
                    tenderRow(ShiftWording::tenderName(QStringLiteral("upi")), report.tenders.upi),
                    tenderRow(ShiftWording::tenderName(QString()), report.tenders.unrecorded)};
    sections.append(tenders);

    if (!report.shifts.isEmpty()) { // a shop that keeps no shifts is not told about them every day
        ReportSection shifts =
            ReportSection::makeTable(QStringLiteral("shifts"), tr("Shifts"),
                                     {tr("Terminal"), tr("Clerk"), tr("Opened"), tr("Closed"), tr("Opening cash"),
                                      tr("Expected"), tr("Counted"), tr("Difference")},
                                     4, QString());
        for (const DayEndReportData::ShiftLine &shift : report.shifts) {
            const bool open = shift.state == QLatin1String("open");
            shifts.rows.append(
                {{shift.terminal, shift.clerk, ShiftWording::timeText(shift.openedAt, report.date),
                  open ? ShiftWording::stateText(shift.state) : ShiftWording::timeText(shift.closedAt, report.date),
                  money(shift.openingCash), money(shift.expectedCash), ShiftWording::moneyText(shift.countedCash),
                  ShiftWording::differenceText(shift.difference)},
                 false,
                 7,
                 ShiftWording::differenceTone(shift.difference)});
        }
        sections.append(shifts);
    }

    const DayEndReportData::Complaints &complaints = report.complaints;
    if (complaints.raised + complaints.open + complaints.credited + complaints.rejected > 0) // only on days with any
        sections.append(ReportSection::makeFigures(
            QStringLiteral("complaints"), tr("Complaints"),
            {{QStringLiteral("complaintsRaised"), tr("Raised"), count(complaints.raised)},
             {QStringLiteral("complaintsOpen"), tr("Still open at the day's end"), count(complaints.open)},
             {QStringLiteral("complaintsCredited"), tr("Credited back"), count(complaints.credited)},
             {QStringLiteral("complaintsRejected"), tr("Rejected"), count(complaints.rejected)}}));

    ReportSection hours;
    hours.kind = ReportSection::Kind::Chart;
    hours.key = QStringLiteral("hours");
    hours.title = tr("Sales by hour (IST)");
    sections.append(hours);
    return model;
}
