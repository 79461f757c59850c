#include "dayendpage.h"

#include "apiclient.h"
#include "clock.h"
#include "receipts/dayendprint.h"
#include "reportsapi.h"
#include "terminalcontext.h"
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
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QTimeZone>
#include <QVBoxLayout>
#include <QValueAxis>

namespace {

const QString kPdfDirKey = QStringLiteral("backoffice/report_pdf_dir");

QDate todayIst()
{
    return IstTime::dateOf(QDateTime::currentDateTimeUtc());
}

QLabel *valueLabel(QWidget *parent, const char *name)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QLatin1String(name));
    Look::set(label, "reportValue");
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

/// A white card with a bold title and label/value pairs in a grid, `columns` pairs a row.
QWidget *card(QWidget *parent, const QString &title, const QList<std::pair<QString, QLabel *>> &values, int columns)
{
    auto *box = new QWidget(parent);
    box->setObjectName(QStringLiteral("card"));
    box->setAttribute(Qt::WA_StyledBackground);
    auto *grid = new QGridLayout(box);
    grid->setContentsMargins(16, 12, 16, 12);
    grid->setHorizontalSpacing(24);
    auto *heading = new QLabel(title, box);
    Look::set(heading, "reportCardHeading");
    grid->addWidget(heading, 0, 0, 1, columns);
    for (int i = 0; i < values.size(); ++i) {
        auto *caption = new QLabel(values.at(i).first, box);
        caption->setObjectName(QStringLiteral("hint"));
        const int row = 1 + (i / columns) * 2;
        grid->addWidget(caption, row, i % columns);
        grid->addWidget(values.at(i).second, row + 1, i % columns);
    }
    return box;
}

QTableWidget *table(QWidget *parent, const char *name, const QStringList &headers)
{
    auto *widget = new QTableWidget(0, int(headers.size()), parent);
    widget->setObjectName(QLatin1String(name));
    widget->setHorizontalHeaderLabels(headers);
    widget->verticalHeader()->hide();
    widget->setEditTriggers(QAbstractItemView::NoEditTriggers);
    widget->setSelectionMode(QAbstractItemView::NoSelection);
    widget->setFocusPolicy(Qt::NoFocus);
    widget->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    widget->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    widget->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return widget;
}

void setCells(QTableWidget *widget, int row, const QStringList &cells, int firstNumeric, bool bold)
{
    for (int column = 0; column < cells.size(); ++column) {
        auto *item = new QTableWidgetItem(cells.at(column));
        if (column >= firstNumeric)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (bold) {
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
        }
        widget->setItem(row, column, item);
    }
}

/// Makes a table exactly as tall as its rows, so the page scrolls instead of the table.
void fitHeight(QTableWidget *widget)
{
    int height = widget->horizontalHeader()->sizeHint().height() + 2 * widget->frameWidth();
    for (int row = 0; row < widget->rowCount(); ++row)
        height += widget->rowHeight(row);
    widget->setFixedHeight(height);
}

} // namespace

DayEndPage::DayEndPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_date(new QDateEdit(todayIst(), this)),
      m_print(new QPushButton(tr("&Print…"), this)), m_savePdf(new QPushButton(tr("Save P&DF…"), this)),
      m_refresh(new QPushButton(tr("Refresh (F5)"), this)), m_message(new QLabel(this)), m_heading(new QLabel(this)),
      m_success(valueLabel(this, "successCount")), m_pending(valueLabel(this, "pendingCount")),
      m_failed(valueLabel(this, "failedCount")), m_bill(valueLabel(this, "billTotal")),
      m_commission(valueLabel(this, "commissionEarned")), m_paid(valueLabel(this, "paidTotal")),
      m_opening(valueLabel(this, "walletOpening")), m_topups(valueLabel(this, "walletTopups")),
      m_debits(valueLabel(this, "walletDebits")), m_refunds(valueLabel(this, "walletRefunds")),
      m_closing(valueLabel(this, "walletClosing")),
      m_lines(table(this, "linesTable",
                    {tr("Type"), tr("Operator"), tr("Success"), tr("Pending"), tr("Failed"), tr("Bill"),
                     tr("Commission"), tr("Paid")})),
      m_clerks(table(this, "clerksTable", {tr("Clerk"), tr("Sales"), tr("Bill"), tr("Commission")})),
      m_chart(new QChart), m_chartView(new QChartView(m_chart, this)), m_hourSet(new QBarSet(tr("Sales (₹)"))),
      m_valueAxis(new QValueAxis), m_upstreamUnknown(new QLabel(this))
{
    setObjectName(QStringLiteral("page"));
    auto *title = new QLabel(tr("Day-end report"), this);
    title->setObjectName(QStringLiteral("pageTitle"));
    m_date->setObjectName(QStringLiteral("reportDate"));
    m_date->setCalendarPopup(true);
    m_date->setDisplayFormat(QStringLiteral("dd MMM yyyy"));
    m_date->setMaximumDate(todayIst().addDays(1));
    m_date->setMinimumWidth(170);
    m_print->setObjectName(QStringLiteral("printButton"));
    m_savePdf->setObjectName(QStringLiteral("savePdfButton"));
    m_refresh->setObjectName(QStringLiteral("refreshButton"));
    m_refresh->setToolTip(tr("Reload the report (F5 or Ctrl+R)"));
    m_print->setEnabled(false);
    m_savePdf->setEnabled(false);
    m_message->setObjectName(QStringLiteral("generalError"));
    m_message->setWordWrap(true);
    m_message->hide();
    m_heading->setObjectName(QStringLiteral("reportHeading"));
    Look::set(m_heading, "reportHeading");
    m_upstreamUnknown->setObjectName(QStringLiteral("upstreamUnknown"));
    m_upstreamUnknown->setWordWrap(true);
    Look::set(m_upstreamUnknown, "reportWarning");
    m_upstreamUnknown->hide();

    auto *dateLabel = new QLabel(tr("&Date"), this);
    dateLabel->setBuddy(m_date);
    auto *bar = new QHBoxLayout;
    bar->addWidget(dateLabel);
    bar->addWidget(m_date);
    bar->addWidget(m_refresh);
    bar->addStretch();
    bar->addWidget(m_print);
    bar->addWidget(m_savePdf);

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
    m_chart->setTitle(tr("Sales by hour"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chartView->setObjectName(QStringLiteral("hourChartView"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(300);

    auto *content = new QWidget;
    content->setObjectName(QStringLiteral("page"));
    auto *column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 8, 0);
    column->addWidget(m_heading);
    auto *cards = new QHBoxLayout;
    cards->addWidget(card(content, tr("Sales"),
                          {{tr("Successful"), m_success},
                           {tr("Pending"), m_pending},
                           {tr("Failed"), m_failed},
                           {tr("Bill amount"), m_bill},
                           {tr("Commission earned"), m_commission},
                           {tr("Paid from wallet"), m_paid}},
                          3),
                     3);
    cards->addWidget(card(content, tr("Wallet"),
                          {{tr("Opening"), m_opening},
                           {tr("Top-ups"), m_topups},
                           {tr("Debits"), m_debits},
                           {tr("Refunds"), m_refunds},
                           {tr("Closing"), m_closing}},
                          3),
                     3);
    column->addLayout(cards);
    column->addWidget(m_upstreamUnknown);
    auto *linesTitle = new QLabel(tr("By type and operator"), content);
    auto *clerksTitle = new QLabel(tr("By clerk (successful sales)"), content);
    for (QLabel *label : {linesTitle, clerksTitle})
        Look::set(label, "reportSection");
    column->addWidget(linesTitle);
    column->addWidget(m_lines);
    column->addWidget(clerksTitle);
    column->addWidget(m_clerks);
    // The chart takes the page's whole width, so each of the 24 hours has room for its label.
    column->addWidget(m_chartView);
    column->addStretch();

    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("reportScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(scroll, 1);

    m_debounce.setSingleShot(true);
    connect(&m_debounce, &QTimer::timeout, this, &DayEndPage::load);
    connect(m_date, &QDateEdit::dateChanged, this, [this] { m_debounce.start(300); });
    connect(m_refresh, &QPushButton::clicked, this, &DayEndPage::refresh);
    connect(m_print, &QPushButton::clicked, this, &DayEndPage::onPrintClicked);
    connect(m_savePdf, &QPushButton::clicked, this, &DayEndPage::onSavePdfClicked);
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
    m_print->setEnabled(false);
    m_savePdf->setEnabled(false);
    m_heading->setText(tr("Loading the report for %1…").arg(QLocale().toString(m_date->date(), QLocale::LongFormat)));
    m_call =
        ReportsApi(m_context.api()).dayEnd(m_date->date()).then(this, [this](const Answer<DayEndReportData> &answer) {
            onReport(answer);
        });
}

void DayEndPage::onReport(const Answer<DayEndReportData> &answer)
{
    m_call = nullptr;
    if (!answer.ok()) {
        m_heading->clear();
        showMessage(tr("Could not load the report: %1").arg(answer.error->description()), true);
        return;
    }
    m_message->hide();
    m_report = *answer.value;
    showReport();
    m_hasReport = true;
    m_print->setEnabled(true);
    m_savePdf->setEnabled(true);
    emit reportShown();
}

void DayEndPage::showReport()
{
    const QLocale locale;
    const DayEndReportData &r = m_report;
    m_heading->setText(tr("%1 (IST)%2")
                           .arg(locale.toString(r.date, QStringLiteral("dddd d MMMM yyyy")),
                                r.mode == QLatin1String("test") ? tr("  ·  TEST MODE") : QString()));
    m_success->setText(locale.toString(r.totals.success));
    m_pending->setText(locale.toString(r.totals.pending));
    m_failed->setText(locale.toString(r.totals.failed));
    m_bill->setText(Money::formatIndian(r.totals.billAmount));
    m_commission->setText(Money::formatIndian(r.commission));
    m_paid->setText(Money::formatIndian(r.totals.paid));
    m_opening->setText(Money::formatIndian(r.walletOpening));
    m_topups->setText(Money::formatIndian(r.topups));
    m_debits->setText(Money::formatIndian(r.debits));
    m_refunds->setText(Money::formatIndian(r.refunds));
    m_closing->setText(Money::formatIndian(r.walletClosing));
    m_upstreamUnknown->setText(DayEndPrint::unknownAtUpstreamText(r));
    m_upstreamUnknown->setVisible(r.unknownAtUpstream > 0);

    m_lines->setRowCount(int(r.lines.size()) + 1);
    for (int row = 0; row < r.lines.size(); ++row) {
        const DayEndReportData::Line &line = r.lines.at(row);
        setCells(m_lines, row,
                 {DayEndPrint::typeName(line.type), DayEndPrint::operatorName(m_context.catalog(), line.operatorCode),
                  locale.toString(line.success), locale.toString(line.pending), locale.toString(line.failed),
                  Money::formatIndian(line.billAmount), Money::formatIndian(line.discount),
                  Money::formatIndian(line.paid)},
                 2, false);
    }
    setCells(m_lines, int(r.lines.size()),
             {tr("Total"), r.lines.isEmpty() ? tr("no sales") : QString(), locale.toString(r.totals.success),
              locale.toString(r.totals.pending), locale.toString(r.totals.failed),
              Money::formatIndian(r.totals.billAmount), Money::formatIndian(r.totals.discount),
              Money::formatIndian(r.totals.paid)},
             2, true);
    fitHeight(m_lines);

    m_clerks->setRowCount(int(r.clerks.size()));
    for (int row = 0; row < r.clerks.size(); ++row) {
        const DayEndReportData::Clerk &clerk = r.clerks.at(row);
        setCells(m_clerks, row,
                 {DayEndPrint::clerkName(clerk.clerk), locale.toString(clerk.success),
                  Money::formatIndian(clerk.billAmount), Money::formatIndian(clerk.discount)},
                 1, false);
    }
    fitHeight(m_clerks);

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
    auto *dialog = new QPrintDialog(m_printer.get(), this);
    dialog->setObjectName(QStringLiteral("reportPrintDialog"));
    dialog->setWindowTitle(tr("Print the day-end report"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this] {
        if (paint(*m_printer))
            showMessage(tr("The report was sent to the printer."), false);
        else
            showMessage(tr("The printer could not start. Check that it is switched on and has paper."), true);
    });
    dialog->open();
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
    m_message->setText(text);
    m_message->setObjectName(QStringLiteral("generalError"));
    Look::set(m_message, error ? "" : "success");
    m_message->show();
}
