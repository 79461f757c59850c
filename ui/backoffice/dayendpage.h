#pragma once

#include "answer.h"
#include "entities/dayendreportdata.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <memory>

class QBarSet;
class QChart;
class QChartView;
class QPrinter;
class QValueAxis;
class TerminalContext;
namespace Ui {
class DayEndPage;
}

/// Back office: the day-end (Z) report of one IST day (issue 6, item 2) from GET
/// /api/v1/reports/day-end — totals per type and operator with successes, pendings and
/// failures, the commission earned, the wallet's opening and closing balances and movements,
/// sales per clerk, the live sales still unknown at the upstream (issue 11), the sales by tender and the day's shifts
/// (issue 28) and a bar chart of sales by hour — with Print and Save PDF (A4) of the same. Screen and paper show one
/// model of the report (DayEndReportModel): the screen through ReportView, the paper through DayEndPrint.
class DayEndPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DayEndPage)

public:
    DayEndPage(TerminalContext &context, QWidget *parent = nullptr);
    ~DayEndPage() override;

    /// The report shown (empty until the first one arrives).
    const DayEndReportData &report() const { return m_report; }
    /// True once a report for the chosen date is shown.
    bool hasReport() const { return m_hasReport; }
    /// Writes the shown report as an A4 PDF to `path`; false (and *error) if it cannot.
    bool writePdf(const QString &path, QString *error = nullptr);
    /// Loads the report of the chosen date again (new or settled sales).
    void refresh();

signals:
    /// A report arrived and is shown.
    void reportShown();

private:
    void load();
    void onReport(const Answer<DayEndReportData> &answer);
    void showReport();
    void onPrintClicked();
    void onSavePdfClicked();
    /// Draws the report (document, then the chart) on `printer`'s pages; false if painting fails.
    bool paint(QPrinter &printer);
    void showMessage(const QString &text, bool error);

    TerminalContext &m_context;
    DayEndReportData m_report;
    bool m_hasReport = false;
    QTimer m_debounce;
    QPointer<ApiCall> m_call;
    std::unique_ptr<QPrinter> m_printer;

    std::unique_ptr<Ui::DayEndPage> m_ui; ///< the widgets of dayendpage.ui
    QChart *m_chart;
    QBarSet *m_hourSet;
    QValueAxis *m_valueAxis;
    QChartView *m_chartView;
};
