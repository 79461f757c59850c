#include "historypage.h"

#include "apiclient.h"
#include "clock.h"
#include "csvexport.h"
#include "historydetailpane.h"
#include "historymodel.h"
#include "money.h"
#include "receipts/shiftwording.h"
#include "terminalcontext.h"
#include "transactionsapi.h"
#include "ui_historypage.h"
#include "widgets/columnwidths.h"
#include "widgets/look.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressDialog>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>

namespace {

const QString kExportDirKey = QStringLiteral("backoffice/export_dir");

} // namespace

HistoryPage::HistoryPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_model(new HistoryModel(context.api(), this)),
      m_ui(std::make_unique<Ui::HistoryPage>()), m_detail(new HistoryDetailPane(context))
{
    m_ui->setupUi(this);
    Look::set(this, "page");
    m_model->setToday([&context] { return IstTime::dateOf(context.clock().nowUtc()); });
    const QDate today = IstTime::dateOf(context.clock().nowUtc());
    m_ui->fromDate->setDate(today.addDays(-6));
    m_ui->toDate->setDate(today);

    m_ui->typeFilter->addItem(tr("All types"), QString());
    m_ui->typeFilter->addItem(tr("Mobile"), QStringLiteral("MOBILE"));
    m_ui->typeFilter->addItem(tr("DTH"), QStringLiteral("DTH"));
    m_ui->typeFilter->addItem(tr("Voucher"), QStringLiteral("VOUCHER"));

    m_ui->operatorFilter->addItem(tr("All operators"), QString());
    const OperatorCatalog &catalog = context.catalog();
    QString longestOperator;
    for (ProductKind kind : {ProductKind::Mobile, ProductKind::Dth, ProductKind::Voucher}) {
        for (const OperatorInfo &info : catalog.operators(kind)) {
            m_ui->operatorFilter->addItem(info.name, info.code);
            if (info.name.size() > longestOperator.size())
                longestOperator = info.name;
        }
    }

    m_ui->statusFilter->addItem(tr("Any status"), QString());
    m_ui->statusFilter->addItem(tr("Success"), QStringLiteral("SUCCESS"));
    m_ui->statusFilter->addItem(tr("Pending"), QStringLiteral("PENDING"));
    m_ui->statusFilter->addItem(tr("Failed"), QStringLiteral("FAILED"));
    // Issue 28: how the customer paid ("none": sales that recorded no tender).
    m_ui->tenderFilter->addItem(tr("Any payment"), QString());
    for (const QString &tender : {QStringLiteral("cash"), QStringLiteral("upi")})
        m_ui->tenderFilter->addItem(ShiftWording::tenderName(tender), tender);
    m_ui->tenderFilter->addItem(ShiftWording::tenderName(QString()), QStringLiteral("none"));

    QTableView *table = m_ui->historyTable;
    table->setModel(m_model);
    // Fixed row heights: the view never measures rows, which keeps scrolling cheap at any size.
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 14);
    QHeaderView *header = table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSortIndicator(m_model->sortColumn(), m_model->sortOrder());
    table->setSortingEnabled(true);
    // Date, status and amounts always show whole, measured in the font the table gets from the
    // style sheet (larger in the kiosk); the other columns get room for typical text.
    const auto digits = [](int count) { return QString(count, QLatin1Char('0')); };
    const QString amount = Money::format(Paise(99'999'999)); // more than any sale
    new ColumnWidths(table, {{HistoryModel::DateTimeColumn, QStringLiteral("2026-12-31 23:59:59")},
                             {HistoryModel::IdColumn, digits(7)},
                             {HistoryModel::TypeColumn, tr("Voucher")},
                             {HistoryModel::OperatorColumn, longestOperator},
                             {HistoryModel::NumberColumn, digits(14)},
                             {HistoryModel::BillColumn, amount},
                             {HistoryModel::DiscountColumn, amount},
                             {HistoryModel::PaidColumn, amount},
                             // "FAILED · money back" (issue 27) is the widest status it shows.
                             {HistoryModel::StatusColumn, HistoryModel::moneyBackStatusText(), true},
                             {HistoryModel::ReferenceColumn, digits(12)},
                             {HistoryModel::TenderColumn, ShiftWording::tenderName(QStringLiteral("cash"))}});
    // The money stays on screen beside the detail pane (issue 27): the table is never narrower than its columns up to
    // the wallet debit, and the splitter gives the pane what is left.
    const auto keepMoneyInView = [table] {
        int width = 2 * table->frameWidth() + table->verticalScrollBar()->sizeHint().width();
        for (int column = 0; column <= HistoryModel::PaidColumn; ++column)
            width += table->columnWidth(column);
        table->setMinimumWidth(width);
    };
    connect(header, &QHeaderView::sectionResized, this, keepMoneyInView);
    keepMoneyInView();
    connect(header, &QHeaderView::sortIndicatorChanged, this, [this, header](int column, Qt::SortOrder) {
        if (!HistoryModel::isSortable(column)) {
            // Only the date and money columns sort (on the server); put the indicator back.
            const QSignalBlocker block(header);
            header->setSortIndicator(m_model->sortColumn(), m_model->sortOrder());
        }
    });

    // The pane scrolls: a live sale adds its upstream calls below the ledger and webhooks.
    m_ui->detailScroll->setWidget(m_detail);
    m_ui->historySplitter->setStretchFactor(0, 3);
    m_ui->historySplitter->setStretchFactor(1, 2);
    m_ui->historySplitter->setSizes({880, 480});

    m_debounce.setSingleShot(true);
    connect(&m_debounce, &QTimer::timeout, this, [this] {
        m_reselect = 0; // a changed filter starts with no sale selected
        applyFilter();
    });
    connect(m_ui->searchFilter, &QLineEdit::textChanged, this, [this] { scheduleApply(300); });
    connect(m_ui->searchFilter, &QLineEdit::returnPressed, this, [this] {
        scheduleApply(0);
        m_ui->historyTable->setFocus();
    });
    connect(m_ui->fromDate, &QDateEdit::dateChanged, this, [this] { scheduleApply(300); });
    connect(m_ui->toDate, &QDateEdit::dateChanged, this, [this] { scheduleApply(300); });
    for (QComboBox *combo : {m_ui->typeFilter, m_ui->operatorFilter, m_ui->statusFilter, m_ui->tenderFilter})
        connect(combo, &QComboBox::currentIndexChanged, this, [this] { scheduleApply(0); });
    // The two upstream filters exclude each other; "Needs attention" covers every date.
    connect(m_ui->upstreamUnknownFilter, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_ui->attentionFilter->setChecked(false);
        scheduleApply(0);
    });
    connect(m_ui->attentionFilter, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_ui->upstreamUnknownFilter->setChecked(false);
        m_ui->fromDate->setEnabled(!on);
        m_ui->toDate->setEnabled(!on);
        scheduleApply(0);
    });
    connect(m_ui->exportButton, &QPushButton::clicked, this, &HistoryPage::onExportClicked);
    connect(m_ui->refreshButton, &QPushButton::clicked, this, &HistoryPage::refresh);
    connect(m_model, &HistoryModel::loadFailed, this, [this](const ApiError &error) {
        m_ui->generalError->setText(tr("Could not load the history: %1").arg(error.description()));
        m_ui->generalError->show();
    });
    connect(m_model, &HistoryModel::pageLoaded, this, [this] {
        m_ui->generalError->hide();
        if (m_reselect == 0)
            return;
        const int row = m_model->rowOf(m_reselect);
        m_reselect = 0;
        // A sale that left the filter (e.g. resolved out of Needs attention) stays in the detail pane.
        if (row >= 0)
            m_ui->historyTable->setCurrentIndex(m_model->index(row, 0));
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        if (m_reselect == 0) // a new filter; refresh() keeps the sale shown
            m_detail->setTransaction(0);
    });
    connect(m_ui->historyTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &HistoryPage::onCurrentRowChanged);
    connect(m_detail, &HistoryDetailPane::recordChanged, m_model, &HistoryModel::updateRecord);

    applyFilter();
}

HistoryPage::~HistoryPage()
{
    if (m_export)
        m_export->cancel();
}

HistoryFilter HistoryPage::currentFilter() const
{
    HistoryFilter filter = m_model->filter();
    filter.from = m_ui->fromDate->date();
    filter.to = m_ui->toDate->date();
    filter.type = m_ui->typeFilter->currentData().toString();
    filter.operatorCode = m_ui->operatorFilter->currentData().toString();
    filter.status = m_ui->statusFilter->currentData().toString();
    filter.tender = m_ui->tenderFilter->currentData().toString();
    filter.text = m_ui->searchFilter->text().trimmed();
    filter.upstreamState = m_ui->upstreamUnknownFilter->isChecked() ? QStringLiteral("unknown") : QString();
    if (m_ui->attentionFilter->isChecked()) {
        // A sale needs attention whatever day it was made: no date range.
        filter.upstreamState = QStringLiteral("attention");
        filter.from = QDate();
        filter.to = QDate();
    }
    return filter;
}

void HistoryPage::refresh()
{
    const QModelIndex current = m_ui->historyTable->currentIndex();
    m_reselect = current.isValid() ? m_model->row(current.row()).transactionId : m_detail->transactionId();
    applyFilter();
}

void HistoryPage::setNeedsAttention(bool on)
{
    {
        // One load, of exactly the sales needing attention: the other filters go back to "all".
        const QSignalBlocker blockers[] = {
            QSignalBlocker(m_ui->attentionFilter), QSignalBlocker(m_ui->upstreamUnknownFilter),
            QSignalBlocker(m_ui->searchFilter),    QSignalBlocker(m_ui->typeFilter),
            QSignalBlocker(m_ui->operatorFilter),  QSignalBlocker(m_ui->statusFilter),
            QSignalBlocker(m_ui->tenderFilter)};
        if (on) {
            m_ui->upstreamUnknownFilter->setChecked(false);
            m_ui->searchFilter->clear();
            m_ui->typeFilter->setCurrentIndex(0);
            m_ui->operatorFilter->setCurrentIndex(0);
            m_ui->statusFilter->setCurrentIndex(0);
            m_ui->tenderFilter->setCurrentIndex(0);
        }
        m_ui->attentionFilter->setChecked(on);
    }
    m_ui->fromDate->setEnabled(!on);
    m_ui->toDate->setEnabled(!on);
    m_reselect = 0;
    applyFilter();
    m_ui->historyTable->setFocus(Qt::ShortcutFocusReason);
}

bool HistoryPage::needsAttention() const
{
    return m_ui->attentionFilter->isChecked();
}

void HistoryPage::scheduleApply(int delayMs)
{
    m_debounce.start(delayMs);
}

void HistoryPage::applyFilter()
{
    m_debounce.stop();
    const HistoryFilter filter = currentFilter();
    if (filter.from.isValid() && filter.to.isValid() && filter.from > filter.to) {
        m_ui->generalError->setText(tr("The From date is after the To date."));
        m_ui->generalError->show();
        return;
    }
    m_ui->generalError->hide();
    m_model->setFilter(filter);
    loadSummary();
}

void HistoryPage::loadSummary()
{
    if (m_summaryCall)
        m_summaryCall->abort();
    m_ui->totalsLine->setText(tr("Counting…"));
    m_summaryCall = TransactionsApi(m_context.api())
                        .summary(m_model->filter())
                        .then(this, [this](const Answer<TransactionSummary> &answer) { onSummary(answer); });
}

void HistoryPage::onSummary(const Answer<TransactionSummary> &answer)
{
    m_summaryCall = nullptr;
    if (!answer.ok()) {
        m_ui->totalsLine->setText(tr("Totals not available: %1").arg(answer.error->description()));
        return;
    }
    const TransactionSummary &summary = *answer.value;
    const QLocale locale;
    m_ui->totalsLine->setText(
        tr("Sales: %1  (%2 successful, %3 pending, %4 failed)  ·  Bill %5  ·  Discount %6  ·  Wallet debit %7 "
           "(money over successful sales)")
            .arg(locale.toString(summary.count), locale.toString(summary.success), locale.toString(summary.pending),
                 locale.toString(summary.failed), Money::formatIndian(summary.billAmount),
                 Money::formatIndian(summary.discount), Money::formatIndian(summary.paid)));
    m_ui->totalsLine->setProperty("count", summary.count);
}

void HistoryPage::onCurrentRowChanged()
{
    const QModelIndex current = m_ui->historyTable->currentIndex();
    m_detail->setTransaction(current.isValid() ? m_model->row(current.row()).transactionId : 0);
}

void HistoryPage::onExportClicked()
{
    if (m_export)
        return;
    QString dir = m_context.settings().value(kExportDirKey).toString();
    if (dir.isEmpty())
        dir = QDir::homePath();
    const QString name = m_ui->attentionFilter->isChecked() ? QStringLiteral("transactions-needing-attention.csv")
                                                            : QStringLiteral("transactions-%1-to-%2.csv")
                                                                  .arg(m_ui->fromDate->date().toString(Qt::ISODate),
                                                                       m_ui->toDate->date().toString(Qt::ISODate));
    auto *dialog =
        new QFileDialog(this, tr("Export transactions as CSV"), QDir(dir).filePath(name), tr("CSV files (*.csv)"));
    dialog->setObjectName(QStringLiteral("exportFileDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        m_context.settings().setValue(kExportDirKey, QFileInfo(path).absolutePath());
        exportCsv(path);
    });
    dialog->open();
}

void HistoryPage::exportCsv(const QString &path)
{
    if (m_export)
        return;
    m_export = new CsvExport(m_context.api(), m_model->filter(), path, this);
    m_ui->exportButton->setEnabled(false);
    m_progress =
        new QProgressDialog(tr("Exporting sales to %1…").arg(QDir::toNativeSeparators(path)), tr("Cancel"), 0, 0, this);
    m_progress->setObjectName(QStringLiteral("exportProgress"));
    m_progress->setWindowTitle(tr("CSV export"));
    m_progress->setWindowModality(Qt::WindowModal);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    m_progress->setMinimumDuration(300);
    m_progress->setValue(0);
    connect(m_progress, &QProgressDialog::canceled, m_export, &CsvExport::cancel);
    connect(m_export, &CsvExport::totalKnown, m_progress,
            [this](qint64 total) { m_progress->setMaximum(int(qMin<qint64>(total, INT_MAX))); });
    connect(m_export, &CsvExport::progress, m_progress,
            [this](qint64 written) { m_progress->setValue(int(qMin<qint64>(written, INT_MAX))); });
    connect(m_export, &CsvExport::finished, this, [this, path](qint64 rows) {
        finishExport(tr("Exported %1 sales to %2.").arg(QLocale().toString(rows), QDir::toNativeSeparators(path)),
                     false);
    });
    connect(m_export, &CsvExport::failed, this,
            [this](const QString &message) { finishExport(tr("The export failed: %1").arg(message), true); });
    connect(m_export, &CsvExport::cancelled, this,
            [this] { finishExport(tr("Export cancelled; no file was written."), false); });
    m_export->start();
}

void HistoryPage::finishExport(const QString &message, bool error)
{
    if (m_progress) {
        m_progress->hide();
        m_progress->deleteLater();
    }
    if (m_export)
        m_export->deleteLater();
    m_export = nullptr;
    m_ui->exportButton->setEnabled(true);
    QLabel *label = error ? m_ui->generalError : m_ui->notice;
    (error ? m_ui->notice : m_ui->generalError)->hide();
    label->setText(message);
    label->show();
}
