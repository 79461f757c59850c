#include "shiftspage.h"

#include "admincloseshiftdialog.h"
#include "backofficeui.h"
#include "clock.h"
#include "receipts/shiftreportprint.h"
#include "receipts/shiftwording.h"
#include "reportview.h"
#include "shiftlistmodel.h"
#include "shiftscsv.h"
#include "terminalcontext.h"
#include "widgets/dialogfocus.h"
#include "widgets/look.h"

#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace {

const QString kCsvDirKey = QStringLiteral("backoffice/export_dir");
const QString kPdfDirKey = QStringLiteral("backoffice/report_pdf_dir"); // the day-end report's too

QLabel *buddyLabel(const QString &text, QWidget *buddy, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setBuddy(buddy);
    return label;
}

} // namespace

ShiftsPage::ShiftsPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_model(new ShiftListModel(context.api(), this)),
      m_date(new QDateEdit(this)), m_clerk(new QComboBox(this)), m_terminal(new QComboBox(this)),
      m_state(new QComboBox(this)), m_refresh(new QPushButton(tr("Refresh (F5)"), this)),
      m_export(new QPushButton(tr("E&xport CSV…"), this)), m_message(BackOfficeUi::generalError(this)),
      m_totals(new QLabel(this)), m_table(BackOfficeUi::table(m_model, QStringLiteral("shiftsTable"), this)),
      m_detailTitle(new QLabel(this)), m_detailHint(BackOfficeUi::hint(QString(), this)),
      m_print(new QPushButton(tr("&Print report…"), this)), m_savePdf(new QPushButton(tr("Save P&DF…"), this)),
      m_close(new QPushButton(tr("&Close shift…"), this)), m_detail(new ReportView(this))
{
    Look::set(this, "page");
    m_date->setObjectName(QStringLiteral("shiftDate"));
    m_date->setDisplayFormat(QStringLiteral("dd MMM yyyy"));
    m_date->setCalendarPopup(true);
    m_date->setMinimumWidth(170);
    const QDate today = IstTime::dateOf(context.clock().nowUtc());
    m_date->setDate(today);
    m_date->setMaximumDate(today.addDays(1));
    m_clerk->setObjectName(QStringLiteral("clerkFilter"));
    m_terminal->setObjectName(QStringLiteral("terminalFilter"));
    m_state->setObjectName(QStringLiteral("stateFilter"));
    for (QComboBox *box : {m_clerk, m_terminal, m_state}) {
        // As wide as a name needs, never as wide as the longest one seen (a kiosk's large type).
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    m_clerk->addItem(tr("All clerks"), QString());
    m_terminal->addItem(tr("All terminals"), QString());
    m_state->addItem(tr("Any state"), QString());
    m_state->addItem(tr("Open"), QStringLiteral("open"));
    m_state->addItem(tr("Closed"), QStringLiteral("closed"));
    m_refresh->setObjectName(QStringLiteral("refreshButton"));
    m_refresh->setToolTip(tr("Reload the shifts (F5 or Ctrl+R)"));
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setToolTip(tr("Save the shifts listed as a CSV file"));
    m_totals->setObjectName(QStringLiteral("totalsLine"));
    Look::set(m_totals, "strong");

    // The filters as History has them: each label above its field, so the bar fits a kiosk's large type.
    auto *bar = new QGridLayout;
    bar->setHorizontalSpacing(12);
    bar->setVerticalSpacing(2);
    int at = 0;
    for (const auto &[text, field] : {std::pair{tr("&Date"), static_cast<QWidget *>(m_date)},
                                      std::pair{tr("Cl&erk"), static_cast<QWidget *>(m_clerk)},
                                      std::pair{tr("Ter&minal"), static_cast<QWidget *>(m_terminal)},
                                      std::pair{tr("&State"), static_cast<QWidget *>(m_state)}}) {
        bar->addWidget(buddyLabel(text, field, this), 0, at, Qt::AlignBottom);
        bar->addWidget(field, 1, at++);
    }
    // Refresh above Export at the right end: the bar stays narrow enough for a 1280-px kiosk.
    bar->setColumnStretch(at++, 1);
    bar->addWidget(m_refresh, 0, at);
    bar->addWidget(m_export, 1, at);

    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setAccessibleName(tr("Shifts"));

    // The selected shift: its title and actions, then the report's sections (the slip's own words).
    auto *detail = new QWidget(this);
    detail->setObjectName(QStringLiteral("shiftDetail"));
    m_detailTitle->setObjectName(QStringLiteral("detailTitle"));
    Look::set(m_detailTitle, "paneTitle");
    m_detailHint->setObjectName(QStringLiteral("detailHint"));
    m_print->setObjectName(QStringLiteral("printButton"));
    m_print->setToolTip(tr("The shift report for the receipt printer, previewed first"));
    m_savePdf->setObjectName(QStringLiteral("savePdfButton"));
    m_savePdf->setToolTip(tr("The shift report as a PDF file, on receipt paper"));
    m_close->setObjectName(QStringLiteral("closeButton"));
    m_close->setToolTip(tr("Count this shift's drawer and close it, with a note"));
    m_detail->setObjectName(QStringLiteral("shiftReport"));
    m_detail->setFiguresPerRow(4);
    auto *detailBar = new QHBoxLayout;
    detailBar->addWidget(m_detailTitle, 1);
    detailBar->addWidget(m_print);
    detailBar->addWidget(m_savePdf);
    detailBar->addWidget(m_close);
    // The report inside a column of its own: its growing (another shift's sections) reaches the scroll area.
    auto *column = new QWidget(detail);
    auto *columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 8, 0);
    columnLayout->addWidget(m_detail);
    columnLayout->addStretch(1);
    m_detailScroll = BackOfficeUi::scrollArea(column, detail);
    m_detailScroll->setObjectName(QStringLiteral("shiftReportScroll"));
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 6, 0, 0);
    detailLayout->addLayout(detailBar);
    detailLayout->addWidget(m_detailHint);
    detailLayout->addWidget(m_detailScroll, 1);
    detailLayout->addStretch(0); // keeps the hint under the title while no shift is chosen

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("shiftsSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(m_table);
    split->addWidget(detail);
    // A day has a handful of shifts: the list takes a third, the chosen shift the rest.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    const int row = m_table->verticalHeader()->defaultSectionSize();
    split->setSizes({row * 6, row * 12}); // shared out in this ratio when the page gets its height

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(BackOfficeUi::title(tr("Shifts"), this));
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(m_totals);
    layout->addWidget(split, 1);

    m_debounce.setSingleShot(true);
    connect(&m_debounce, &QTimer::timeout, this, &ShiftsPage::load);
    connect(m_date, &QDateEdit::dateChanged, this, &ShiftsPage::onDateChanged);
    for (QComboBox *box : {m_clerk, m_terminal, m_state})
        connect(box, &QComboBox::activated, this, &ShiftsPage::load);
    connect(m_refresh, &QPushButton::clicked, this, &ShiftsPage::refresh);
    connect(m_export, &QPushButton::clicked, this, &ShiftsPage::onExportClicked);
    connect(m_print, &QPushButton::clicked, this, &ShiftsPage::onPrintClicked);
    connect(m_savePdf, &QPushButton::clicked, this, &ShiftsPage::onSavePdfClicked);
    // A shift opened, moved or closed at this terminal: the list follows (now if shown, else when next shown).
    connect(&context, &TerminalContext::shiftChanged, this, [this] {
        if (isVisible())
            refresh();
        else
            m_loadedOnce = false;
    });
    connect(m_close, &QPushButton::clicked, this, &ShiftsPage::onCloseClicked);
    connect(m_model, &ShiftListModel::loaded, this, &ShiftsPage::onLoaded);
    connect(m_model, &ShiftListModel::failed, this, [this](const ApiError &error) {
        showMessage(tr("Could not load the shifts: %1").arg(error.description()), true);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ShiftsPage::onCurrentRowChanged);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ShiftsPage::onCurrentRowChanged);
    showSelected();
}

void ShiftsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_loadedOnce)
        load();
}

void ShiftsPage::refresh()
{
    load();
}

void ShiftsPage::onDateChanged()
{
    // Another day has other clerks and terminals: the lists start again from "All".
    m_clerk->setCurrentIndex(0);
    m_terminal->setCurrentIndex(0);
    m_debounce.start(300);
}

void ShiftsPage::load()
{
    m_debounce.stop();
    m_loadedOnce = true;
    if (m_selected)
        m_reselect = m_selected->id;
    m_totals->setText(tr("Loading the shifts of %1…").arg(QLocale().toString(m_date->date(), QLocale::LongFormat)));
    m_model->load({m_date->date(), m_clerk->currentData().toString(), m_terminal->currentData().toString(),
                   m_state->currentData().toString()});
}

void ShiftsPage::onLoaded()
{
    m_message->hide();
    const ShiftListFilter &filter = m_model->filter();
    if (filter.clerk.isEmpty() && filter.terminal.isEmpty() && filter.state.isEmpty())
        fillChoices();
    const QList<Shift> &shifts = m_model->shifts();
    const auto open = std::count_if(shifts.cbegin(), shifts.cend(), [](const Shift &shift) { return shift.isOpen(); });
    Paise shortBy = 0;
    Paise overBy = 0;
    int shortCount = 0;
    int overCount = 0;
    for (const Shift &shift : shifts) {
        const Paise difference = shift.difference.value_or(0);
        if (difference < 0) {
            shortBy -= difference;
            ++shortCount;
        } else if (difference > 0) {
            overBy += difference;
            ++overCount;
        }
    }
    const QLocale locale;
    QStringList parts{tr("Shifts: %1").arg(locale.toString(shifts.size())),
                      tr("open: %1").arg(locale.toString(qint64(open)))};
    if (shortCount > 0)
        parts << tr("short: %1, %2 in all").arg(locale.toString(shortCount), Money::formatIndian(shortBy));
    if (overCount > 0)
        parts << tr("over: %1, %2 in all").arg(locale.toString(overCount), Money::formatIndian(overBy));
    m_totals->setText(shifts.isEmpty()
                          ? tr("No shifts opened on %1.").arg(QLocale().toString(filter.date, QLocale::LongFormat))
                          : parts.join(QStringLiteral(" · ")));
    m_export->setEnabled(!shifts.isEmpty());
    int row = m_model->rowOf(m_reselect);
    if (row < 0 && !shifts.isEmpty())
        row = 0;
    m_reselect = 0;
    if (row >= 0)
        m_table->selectRow(row);
    onCurrentRowChanged();
}

void ShiftsPage::fillChoices()
{
    const auto fill = [](QComboBox *box, QStringList names) {
        const QString chosen = box->currentData().toString();
        names.removeDuplicates();
        names.sort(Qt::CaseInsensitive);
        while (box->count() > 1)
            box->removeItem(1);
        for (const QString &name : std::as_const(names))
            box->addItem(name, name);
        box->setCurrentIndex(qMax(0, box->findData(chosen)));
    };
    QStringList clerks;
    QStringList terminals;
    for (const Shift &shift : m_model->shifts()) {
        clerks << shift.clerk;
        terminals << shift.terminal;
    }
    fill(m_clerk, clerks);
    fill(m_terminal, terminals);
}

void ShiftsPage::onCurrentRowChanged()
{
    const Shift *shift = m_model->shift(m_table->selectionModel()->currentIndex().row());
    m_selected = shift ? std::optional<Shift>(*shift) : std::nullopt;
    showSelected();
}

void ShiftsPage::showSelected()
{
    const bool any = m_selected.has_value();
    m_print->setEnabled(any);
    m_savePdf->setEnabled(any);
    m_close->setVisible(any && m_selected->isOpen());
    m_close->setEnabled(m_context.user().isAdmin);
    m_detailScroll->setVisible(any);
    if (!any) {
        m_detailTitle->setText(tr("No shift chosen"));
        m_detailHint->setText(tr("Choose a shift in the list to see its sales by tender, cash in and out, count and "
                                 "difference."));
        m_detailHint->show();
        return;
    }
    const Shift &shift = *m_selected;
    m_detailTitle->setText(tr("Shift %1 · %2 · %3 · %4")
                               .arg(shift.id)
                               .arg(shift.clerk, shift.terminal, ShiftWording::stateText(shift.state)));
    m_detailHint->setText(shift.isOpen() ? tr("Still open: the figures are as they stand now.") : QString());
    m_detailHint->setVisible(shift.isOpen());
    m_detail->setSections(ShiftReportPrint::sections(shift));
}

void ShiftsPage::onPrintClicked()
{
    if (!m_selected)
        return;
    const ShiftReportPrint report(*m_selected, m_context.shopName(), m_context.shopAddress());
    report.openPrintPreview(this, ShiftReportPrint::paperWidth(m_context.settings()), [this](bool printed) {
        showMessage(printed ? tr("The shift report was sent to the printer.")
                            : tr("The printer could not start. Check that it is switched on and has paper."),
                    !printed);
    });
}

void ShiftsPage::onSavePdfClicked()
{
    if (!m_selected)
        return;
    QString dir = m_context.settings().value(kPdfDirKey).toString();
    if (dir.isEmpty())
        dir = QDir::homePath();
    const QString name = QStringLiteral("shift-%1.pdf").arg(m_selected->id);
    auto *dialog =
        new QFileDialog(this, tr("Save the shift report as PDF"), QDir(dir).filePath(name), tr("PDF files (*.pdf)"));
    dialog->setObjectName(QStringLiteral("shiftPdfDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("pdf"));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const ShiftReportPrint report(*m_selected, m_context.shopName(), m_context.shopAddress());
    connect(dialog, &QFileDialog::fileSelected, this, [this, report](const QString &path) {
        m_context.settings().setValue(kPdfDirKey, QFileInfo(path).absolutePath());
        QString error;
        if (report.writePdf(path, ShiftReportPrint::paperWidth(m_context.settings()), &error))
            showMessage(tr("Shift report saved to %1").arg(QDir::toNativeSeparators(path)), false);
        else
            showMessage(error, true);
    });
    dialog->open();
}

void ShiftsPage::onCloseClicked()
{
    if (!m_selected || !m_selected->isOpen())
        return;
    auto *dialog = new AdminCloseShiftDialog(m_context, *m_selected, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AdminCloseShiftDialog::closed, this, [this](const Shift &shift) {
        m_model->replace(shift);
        showMessage(tr("Shift %1 of %2 is closed. Difference: %3.")
                        .arg(shift.id)
                        .arg(shift.clerk, ShiftWording::differenceText(shift.difference)),
                    false);
        emit m_context.salesChanged(); // the day-end report's shifts follow
    });
    DialogFocus::openAndRestore(dialog);
}

void ShiftsPage::onExportClicked()
{
    QString dir = m_context.settings().value(kCsvDirKey).toString();
    if (dir.isEmpty())
        dir = QDir::homePath();
    const QString name = QStringLiteral("shifts-%1.csv").arg(m_model->filter().date.toString(Qt::ISODate));
    auto *dialog =
        new QFileDialog(this, tr("Export the shifts as CSV"), QDir(dir).filePath(name), tr("CSV files (*.csv)"));
    dialog->setObjectName(QStringLiteral("shiftsCsvDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        m_context.settings().setValue(kCsvDirKey, QFileInfo(path).absolutePath());
        exportCsv(path);
    });
    dialog->open();
}

bool ShiftsPage::exportCsv(const QString &path)
{
    QString error;
    if (!ShiftsCsv::write(path, m_model->shifts(), &error)) {
        showMessage(error, true);
        return false;
    }
    showMessage(tr("The shifts listed (%1) are saved in %2.")
                    .arg(QLocale().toString(m_model->rowCount()), QDir::toNativeSeparators(path)),
                false);
    return true;
}

void ShiftsPage::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    Look::set(m_message, error ? "generalError" : "generalSuccess");
    m_message->show();
}
