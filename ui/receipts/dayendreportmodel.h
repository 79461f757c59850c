#pragma once

#include "entities/dayendreportdata.h"
#include "reportsections.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

class OperatorCatalog;

/// The day-end (Z) report of one IST day (issue 6 item 2) as people read it, made once from DayEndReportData and
/// shown both on screen (DayEndPage through ReportView) and on paper (DayEndPrint): every caption, column title and
/// formatted figure is made here (money with Indian grouping, Money::formatIndian), so screen and paper cannot
/// drift apart.
///
/// The sections, in order (keys in brackets): the sales [sales] and the wallet [wallet] figures, the live sales
/// still unknown at the upstream [upstreamUnknown] (a warning, only when there are some), by type and operator
/// [lines], by clerk [clerks], by tender [tenders] (cash, UPI, not recorded; issue 28), the shifts opened that day
/// [shifts] (only when there are some: terminal, clerk, times, opening, expected and counted cash, the difference
/// toned short or over), and the sales by hour [hours] (a chart).
class DayEndReportModel
{
    Q_DECLARE_TR_FUNCTIONS(DayEndReportModel)

public:
    /// The report of `report`, operator codes named from `catalog`.
    static DayEndReportModel build(const DayEndReportData &report, const OperatorCatalog &catalog);

    /// "Day-end (Z) report".
    QString title() const;
    /// "Friday 27 November 2026 (IST)"; "" without a date.
    const QString &dateLine() const { return m_dateLine; }
    /// "TEST MODE" for a test-mode report, else "".
    const QString &modeNote() const { return m_modeNote; }
    const QList<ReportSection> &sections() const { return m_sections; }
    /// The section with `key`, or nullptr.
    const ReportSection *section(const QString &key) const;
    /// The same report with every value, row and warning emptied, the captions and titles kept: the layout a
    /// screen shows before the first report arrives (never a zero that was not reported).
    DayEndReportModel blanked() const;

    /// "Mobile", "DTH", "Voucher" for the API's type.
    static QString typeName(const QString &type);
    /// The operator's name, or the code if unknown.
    static QString operatorName(const OperatorCatalog &catalog, const QString &code);
    /// "Counter (API)" for an empty clerk, else the name.
    static QString clerkName(const QString &clerk);
    /// The sentence about the sales still unknown at the upstream; empty when there are none.
    static QString unknownAtUpstreamText(const DayEndReportData &report);

private:
    QString m_dateLine;
    QString m_modeNote;
    QList<ReportSection> m_sections;
};
