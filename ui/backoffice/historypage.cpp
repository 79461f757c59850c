#include "historypage.h"

#include "apiclient.h"
#include "clock.h"
#include "csvexport.h"
#include "historydetailpane.h"
#include "historymodel.h"
#include "money.h"
#include "terminalcontext.h"
#include "transactionsapi.h"
#include "widgets/columnwidths.h"
#include "widgets/look.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressDialog>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QTimeZone>
#include <QVBoxLayout>

namespace {

const QString kExportDirKey = QStringLiteral("backoffice/export_dir");

QDate todayIst()
{
    return IstTime::dateOf(QDateTime::currentDateTimeUtc());
}

QDateEdit *makeDateEdit(QWidget *parent, const char *name, const QDate &date)
{
    auto *edit = new QDateEdit(date, parent);
    edit->setObjectName(QLatin1String(name));
    edit->setCalendarPopup(true);
    edit->setDisplayFormat(QStringLiteral("dd MMM yyyy"));
    edit->setMinimumWidth(150);
    return edit;
}

} // namespace

HistoryPage::HistoryPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_model(new HistoryModel(context.api(), this)),
      m_from(makeDateEdit(this, "fromDate", todayIst().addDays(-6))), m_to(makeDateEdit(this, "toDate", todayIst())),
      m_type(new QComboBox(this)), m_operator(new QComboBox(this)), m_status(new QComboBox(this)),
      m_search(new QLineEdit(this)), m_exportButton(new QPushButton(tr("E&xport CSV…"), this)),
      m_refreshButton(new QPushButton(tr("Refresh (F5)"), this)), m_totals(new QLabel(this)),
      m_message(new QLabel(this)), m_notice(new QLabel(this)), m_table(new QTableView(this)),
      m_detail(new HistoryDetailPane(context, this)), m_upstreamUnknown(new QCheckBox(tr("Unknown at &upstream"), this))
{
    setObjectName(QStringLiteral("page"));
    auto *title = new QLabel(tr("Transaction history"), this);
    title->setObjectName(QStringLiteral("pageTitle"));

    m_type->setObjectName(QStringLiteral("typeFilter"));
    m_type->addItem(tr("All types"), QString());
    m_type->addItem(tr("Mobile"), QStringLiteral("MOBILE"));
    m_type->addItem(tr("DTH"), QStringLiteral("DTH"));
    m_type->addItem(tr("Voucher"), QStringLiteral("VOUCHER"));

    m_operator->setObjectName(QStringLiteral("operatorFilter"));
    m_operator->addItem(tr("All operators"), QString());
    const OperatorCatalog &catalog = context.catalog();
    QString longestOperator;
    for (ProductKind kind : {ProductKind::Mobile, ProductKind::Dth, ProductKind::Voucher}) {
        for (const OperatorInfo &info : catalog.operators(kind)) {
            m_operator->addItem(info.name, info.code);
            if (info.name.size() > longestOperator.size())
                longestOperator = info.name;
        }
    }

    m_status->setObjectName(QStringLiteral("statusFilter"));
    m_status->addItem(tr("Any status"), QString());
    m_status->addItem(tr("Success"), QStringLiteral("SUCCESS"));
    m_status->addItem(tr("Pending"), QStringLiteral("PENDING"));
    m_status->addItem(tr("Failed"), QStringLiteral("FAILED"));

    m_search->setObjectName(QStringLiteral("searchFilter"));
    m_search->setPlaceholderText(tr("Transaction id, number or reference"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaxLength(64);
    m_upstreamUnknown->setObjectName(QStringLiteral("upstreamUnknownFilter"));
    m_upstreamUnknown->setToolTip(tr("Only live sales with no definite answer from the upstream yet"));
    m_exportButton->setObjectName(QStringLiteral("exportButton"));
    m_refreshButton->setObjectName(QStringLiteral("refreshButton"));
    m_refreshButton->setToolTip(tr("Reload the sales and totals (F5 or Ctrl+R)"));
    m_totals->setObjectName(QStringLiteral("totalsLine"));
    m_totals->setWordWrap(true);
    Look::set(m_totals, "strong");
    m_message->setObjectName(QStringLiteral("generalError"));
    m_message->setWordWrap(true);
    m_message->hide();
    m_notice->setObjectName(QStringLiteral("notice"));
    m_notice->setWordWrap(true);
    Look::set(m_notice, "notice");
    m_notice->hide();

    auto *filters = new QGridLayout;
    filters->setHorizontalSpacing(12);
    const auto addFilter = [this, filters](int row, int column, const QString &text, QWidget *field) {
        auto *label = new QLabel(text, this);
        label->setBuddy(field);
        filters->addWidget(label, row * 2, column);
        filters->addWidget(field, row * 2 + 1, column);
    };
    addFilter(0, 0, tr("&From"), m_from);
    addFilter(0, 1, tr("&To"), m_to);
    addFilter(0, 2, tr("T&ype"), m_type);
    addFilter(0, 3, tr("&Operator"), m_operator);
    addFilter(0, 4, tr("&Status"), m_status);
    auto *searchLabel = new QLabel(tr("S&earch"), this);
    searchLabel->setBuddy(m_search);
    filters->addWidget(searchLabel, 2, 0);
    filters->addWidget(m_search, 3, 0, 1, 3);
    filters->addWidget(m_refreshButton, 3, 3);
    filters->addWidget(m_upstreamUnknown, 2, 4);
    filters->addWidget(m_exportButton, 3, 4);
    for (int column = 0; column < 5; ++column)
        filters->setColumnStretch(column, 1);

    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights: the view never measures rows, which keeps scrolling cheap at any size.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 14);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    header->setSortIndicator(m_model->sortColumn(), m_model->sortOrder());
    m_table->setSortingEnabled(true);
    // Date, status and amounts always show whole, measured in the font the table gets from the
    // style sheet (larger in the kiosk); the other columns get room for typical text.
    const auto digits = [](int count) { return QString(count, QLatin1Char('0')); };
    const QString amount = Money::format(Paise(99'999'999)); // more than any sale
    new ColumnWidths(m_table, {{HistoryModel::DateTimeColumn, QStringLiteral("2026-12-31 23:59:59")},
                               {HistoryModel::IdColumn, digits(7)},
                               {HistoryModel::TypeColumn, tr("Voucher")},
                               {HistoryModel::OperatorColumn, longestOperator},
                               {HistoryModel::NumberColumn, digits(14)},
                               {HistoryModel::BillColumn, amount},
                               {HistoryModel::DiscountColumn, amount},
                               {HistoryModel::PaidColumn, amount},
                               {HistoryModel::StatusColumn, QStringLiteral("SUCCESS"), true},
                               {HistoryModel::ReferenceColumn, digits(12)}});
    connect(header, &QHeaderView::sortIndicatorChanged, this, [this, header](int column, Qt::SortOrder) {
        if (!HistoryModel::isSortable(column)) {
            // Only the date and money columns sort (on the server); put the indicator back.
            const QSignalBlocker block(header);
            header->setSortIndicator(m_model->sortColumn(), m_model->sortOrder());
        }
    });

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("historySplitter"));
    splitter->addWidget(m_table);
    // The pane scrolls: a live sale adds its upstream calls below the ledger and webhooks.
    auto *detailScroll = new QScrollArea(splitter);
    detailScroll->setWidgetResizable(true);
    detailScroll->setFrameShape(QFrame::NoFrame);
    detailScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    detailScroll->setWidget(m_detail);
    splitter->addWidget(detailScroll);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({880, 480});

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addLayout(filters);
    layout->addWidget(m_totals);
    layout->addWidget(m_message);
    layout->addWidget(m_notice);
    layout->addWidget(splitter, 1);

    setTabOrder(m_from, m_to);
    setTabOrder(m_to, m_type);
    setTabOrder(m_type, m_operator);
    setTabOrder(m_operator, m_status);
    setTabOrder(m_status, m_search);
    setTabOrder(m_search, m_refreshButton);
    setTabOrder(m_refreshButton, m_upstreamUnknown);
    setTabOrder(m_upstreamUnknown, m_exportButton);
    setTabOrder(m_exportButton, m_table);

    m_debounce.setSingleShot(true);
    connect(&m_debounce, &QTimer::timeout, this, &HistoryPage::applyFilter);
    connect(m_search, &QLineEdit::textChanged, this, [this] { scheduleApply(300); });
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        scheduleApply(0);
        m_table->setFocus();
    });
    connect(m_from, &QDateEdit::dateChanged, this, [this] { scheduleApply(300); });
    connect(m_to, &QDateEdit::dateChanged, this, [this] { scheduleApply(300); });
    for (QComboBox *combo : {m_type, m_operator, m_status})
        connect(combo, &QComboBox::currentIndexChanged, this, [this] { scheduleApply(0); });
    connect(m_upstreamUnknown, &QCheckBox::toggled, this, [this] { scheduleApply(0); });
    connect(m_exportButton, &QPushButton::clicked, this, &HistoryPage::onExportClicked);
    connect(m_refreshButton, &QPushButton::clicked, this, &HistoryPage::refresh);
    connect(m_model, &HistoryModel::loadFailed, this, [this](const ApiError &error) {
        m_message->setText(tr("Could not load the history: %1").arg(error.description()));
        m_message->show();
    });
    connect(m_model, &HistoryModel::pageLoaded, this, [this] {
        m_message->hide();
        if (m_reselect == 0)
            return;
        const int row = m_model->rowOf(m_reselect);
        m_reselect = 0;
        if (row >= 0)
            m_table->setCurrentIndex(m_model->index(row, 0));
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_detail->setTransaction(0); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
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
    filter.from = m_from->date();
    filter.to = m_to->date();
    filter.type = m_type->currentData().toString();
    filter.operatorCode = m_operator->currentData().toString();
    filter.status = m_status->currentData().toString();
    filter.text = m_search->text().trimmed();
    filter.upstreamState = m_upstreamUnknown->isChecked() ? QStringLiteral("unknown") : QString();
    return filter;
}

void HistoryPage::refresh()
{
    const QModelIndex current = m_table->currentIndex();
    m_reselect = current.isValid() ? m_model->row(current.row()).transactionId : 0;
    applyFilter();
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
        m_message->setText(tr("The From date is after the To date."));
        m_message->show();
        return;
    }
    m_message->hide();
    m_model->setFilter(filter);
    loadSummary();
}

void HistoryPage::loadSummary()
{
    if (m_summaryCall)
        m_summaryCall->abort();
    m_totals->setText(tr("Counting…"));
    m_summaryCall = TransactionsApi(m_context.api())
                        .summary(m_model->filter())
                        .then(this, [this](const Answer<TransactionSummary> &answer) { onSummary(answer); });
}

void HistoryPage::onSummary(const Answer<TransactionSummary> &answer)
{
    m_summaryCall = nullptr;
    if (!answer.ok()) {
        m_totals->setText(tr("Totals not available: %1").arg(answer.error->description()));
        return;
    }
    const TransactionSummary &summary = *answer.value;
    const QLocale locale;
    m_totals->setText(tr("Sales: %1  (%2 successful, %3 pending, %4 failed)  ·  Bill %5  ·  Discount %6  ·  Paid %7 "
                         "(money over successful sales)")
                          .arg(locale.toString(summary.count), locale.toString(summary.success),
                               locale.toString(summary.pending), locale.toString(summary.failed),
                               Money::formatIndian(summary.billAmount), Money::formatIndian(summary.discount),
                               Money::formatIndian(summary.paid)));
    m_totals->setProperty("count", summary.count);
}

void HistoryPage::onCurrentRowChanged()
{
    const QModelIndex current = m_table->currentIndex();
    m_detail->setTransaction(current.isValid() ? m_model->row(current.row()).transactionId : 0);
}

void HistoryPage::onExportClicked()
{
    if (m_export)
        return;
    QString dir = m_context.settings().value(kExportDirKey).toString();
    if (dir.isEmpty())
        dir = QDir::homePath();
    const QString name = QStringLiteral("transactions-%1-to-%2.csv")
                             .arg(m_from->date().toString(Qt::ISODate), m_to->date().toString(Qt::ISODate));
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
    m_exportButton->setEnabled(false);
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
    m_exportButton->setEnabled(true);
    QLabel *label = error ? m_message : m_notice;
    (error ? m_notice : m_message)->hide();
    label->setText(message);
    label->show();
}
