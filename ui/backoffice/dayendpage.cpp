#include "dayendpage.h"

#include "apiclient.h"
#include "clock.h"
#include "receipts/dayendprint.h"
#include "receipts/dayendreportmodel.h"
#include "reportsapi.h"
#include "reportview.h"
#include "terminalcontext.h"
#include "ui_dayendpage.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDateEdit>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QPrintPreviewDialog>
#include <QPrinter>
#include <QPushButton>
#include <QValueAxis>

#include <memory>

namespace {

const QString kPdfDirKey = QStringLiteral("backoffice/report_pdf_dir");

} // namespace

DayEndPage::DayEndPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_ui(std::make_unique<Ui::DayEndPage>()), m_chart(new QChart),
      m_hourSet(new QBarSet(tr("Sales (₹)"))), m_valueAxis(new QValueAxis), m_chartView(new QChartView(m_chart, this))
{
    m_ui->setupUi(this);
    Look::set(this, "page");
    Look::set(m_ui->reportContent, "page");
    const QDate today = IstTime::dateOf(context.clock().nowUtc());
    m_ui->reportDate->setDate(today);
    m_ui->reportDate->setMaximumDate(today.addDays(1));

    m_chart->setObjectName(QStringLiteral("hourChart"));
    auto *series = new QBarSeries(m_chart);
    m_hourSet->setColor(QColor(0x15, 0x70, 0xef));
    series->append(m_hourSet);
    m_chart->addSeries(series);
    QStringList hours;
    for (int hour = 0; hour < 24; ++hour)
        hours << QStringLiteral("%1").arg(hour, 2, 10, QLatin1Char('0'));
    auto *hourAxis = new QBarCategoryAxis(m_chart);
    hourAxis->append(hours);
    hourAxis->setTitleText(tr("Hour (IST)"));
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_valueAxis->setTitleText(tr("Successful sales, ₹"));
    m_chart->addAxis(hourAxis, Qt::AlignBottom);
    m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
    series->attachAxis(hourAxis);
    series->attachAxis(m_valueAxis);
    m_chart->legend()->hide();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    // The chart takes the page's whole width, so each of the 24 hours has room for its label; the report's
    // "Sales by hour (IST)" section puts it under its title.
    m_chartView->setObjectName(QStringLiteral("hourChartView"));
    m_chartView->setMinimumHeight(300);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    // The report scrolls by keyboard (issue 27): Tab from the bar reaches the report itself, where PageDown, the
    // arrows and End bring "Sales by hour" into view. The chart takes no focus (it scrolls nothing).
    m_chartView->setFocusPolicy(Qt::NoFocus);
    m_ui->reportScroll->setFocusPolicy(Qt::StrongFocus);
    m_ui->reportScroll->setAccessibleName(tr("Day-end report"));
    m_ui->reportSections->setChartWidget(QStringLiteral("hours"), m_chartView);
    // Before the first report: the report's captions and titles, and no figure that was not reported.
    m_ui->reportSections->setSections(
        DayEndReportModel::build(DayEndReportData{}, context.catalog()).blanked().sections());

    m_debounce.setSingleShot(true);
    connect(&m_debounce, &QTimer::timeout, this, &DayEndPage::load);
    connect(m_ui->reportDate, &QDateEdit::dateChanged, this, [this] { m_debounce.start(300); });
    connect(m_ui->refreshButton, &QPushButton::clicked, this, &DayEndPage::refresh);
    connect(m_ui->printButton, &QPushButton::clicked, this, &DayEndPage::onPrintClicked);
    connect(m_ui->savePdfButton, &QPushButton::clicked, this, &DayEndPage::onSavePdfClicked);
    load();
}

DayEndPage::~DayEndPage() = default;

void DayEndPage::refresh()
{
    load();
}

void DayEndPage::load()
{
    m_debounce.stop();
    if (m_call)
        m_call->abort();
    m_hasReport = false;
    m_ui->printButton->setEnabled(false);
    m_ui->savePdfButton->setEnabled(false);
    m_ui->reportHeading->setText(
        tr("Loading the report for %1…").arg(QLocale().toString(m_ui->reportDate->date(), QLocale::LongFormat)));
    m_call = ReportsApi(m_context.api())
                 .dayEnd(m_ui->reportDate->date())
                 .then(this, [this](const Answer<DayEndReportData> &answer) { onReport(answer); });
}

void DayEndPage::onReport(const Answer<DayEndReportData> &answer)
{
    m_call = nullptr;
    if (!answer.ok()) {
        m_ui->reportHeading->clear();
        showMessage(tr("Could not load the report: %1").arg(answer.error->description()), true);
        return;
    }
    m_ui->generalError->hide();
    m_report = *answer.value;
    showReport();
    m_hasReport = true;
    m_ui->printButton->setEnabled(true);
    m_ui->savePdfButton->setEnabled(true);
    emit reportShown();
}

void DayEndPage::showReport()
{
    const DayEndReportModel model = DayEndReportModel::build(m_report, m_context.catalog());
    m_ui->reportHeading->setText(model.modeNote().isEmpty()
                                     ? model.dateLine()
                                     : QStringLiteral("%1  ·  %2").arg(model.dateLine(), model.modeNote()));
    m_ui->reportSections->setSections(model.sections());

    const DayEndReportData &r = m_report;
    m_hourSet->remove(0, m_hourSet->count());
    double highest = 0;
    QList<qreal> values;
    for (const DayEndReportData::Hour &hour : r.hours) {
        const double rupees = double(hour.billAmount) / double(Money::kPaisePerRupee);
        values << rupees;
        highest = qMax(highest, rupees);
    }
    m_hourSet->append(values);
    m_valueAxis->setRange(0, highest > 0 ? highest * 1.1 : 100);
    m_valueAxis->applyNiceNumbers();
}

bool DayEndPage::paint(QPrinter &printer)
{
    return DayEndPrint::paint(
        printer, DayEndPrint::toHtml(m_report, m_context.catalog(), m_context.shopName(), m_context.shopAddress()),
        m_chartView);
}

bool DayEndPage::writePdf(const QString &path, QString *error)
{
    if (!m_hasReport) {
        if (error)
            *error = tr("No report is shown yet.");
        return false;
    }
    QPrinter printer(QPrinter::HighResolution);
    printer.setOutputFormat(QPrinter::PdfFormat);
    printer.setOutputFileName(path);
    printer.setPageSize(QPageSize(QPageSize::A4));
    printer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    printer.setDocName(tr("Day-end report %1").arg(m_report.date.toString(Qt::ISODate)));
    printer.setCreator(QStringLiteral("RechargeDesk"));
    if (!paint(printer) || !QFileInfo(path).exists() || QFileInfo(path).size() == 0) {
        if (error)
            *error = tr("Could not write %1.").arg(QDir::toNativeSeparators(path));
        return false;
    }
    return true;
}

void DayEndPage::onPrintClicked()
{
    if (!m_hasReport)
        return;
    if (!m_printer) {
        m_printer = std::make_unique<QPrinter>(QPrinter::HighResolution);
        m_printer->setPageSize(QPageSize(QPageSize::A4));
    }
    // The report is previewed first (issue 27); the preview's Print button asks for the printer and prints.
    auto *dialog = new QPrintPreviewDialog(m_printer.get(), this);
    dialog->setObjectName(QStringLiteral("reportPrintDialog"));
    dialog->setWindowTitle(tr("Print the day-end report"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto painted = std::make_shared<bool>(true);
    connect(dialog, &QPrintPreviewDialog::paintRequested, this,
            [this, painted](QPrinter *printer) { *painted = paint(*printer); });
    connect(dialog, &QDialog::accepted, this, [this, painted] {
        if (*painted)
            showMessage(tr("The report was sent to the printer."), false);
        else
            showMessage(tr("The printer could not start. Check that it is switched on and has paper."), true);
    });
    DialogFocus::openAndRestore(dialog);
}

void DayEndPage::onSavePdfClicked()
{
    if (!m_hasReport)
        return;
    QString dir = m_context.settings().value(kPdfDirKey).toString();
    if (dir.isEmpty())
        dir = QDir::homePath();
    const QString name = QStringLiteral("day-end-%1.pdf").arg(m_report.date.toString(Qt::ISODate));
    auto *dialog =
        new QFileDialog(this, tr("Save the day-end report as PDF"), QDir(dir).filePath(name), tr("PDF files (*.pdf)"));
    dialog->setObjectName(QStringLiteral("reportPdfDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("pdf"));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        m_context.settings().setValue(kPdfDirKey, QFileInfo(path).absolutePath());
        QString error;
        if (writePdf(path, &error))
            showMessage(tr("Report saved to %1").arg(QDir::toNativeSeparators(path)), false);
        else
            showMessage(error, true);
    });
    dialog->open();
}

void DayEndPage::showMessage(const QString &text, bool error)
{
    m_ui->generalError->setText(text);
    Look::set(m_ui->generalError, error ? "generalError" : "generalSuccess");
    m_ui->generalError->show();
}
