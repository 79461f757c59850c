#include "statementscard.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "clock.h"
#include "terminalcontext.h"
#include "upstreamapi.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"
#include "widgets/readonlytable.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QStringDecoder>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

const QString kStatementDirKey = QStringLiteral("backoffice/statement_dir");

/// makeReadOnlyTable() whose text stays on one line and which Tab leaves (Ctrl+Tab reaches the back office's tabs).
QTableWidget *makeTable(QWidget *parent, const char *name, const QStringList &headers)
{
    QTableWidget *table = makeReadOnlyTable(parent, name, headers);
    table->setWordWrap(false);
    table->setTabKeyNavigation(false);
    return table;
}

void setRow(QTableWidget *table, int row, const QStringList &cells, int firstNumber = -1)
{
    for (int column = 0; column < cells.size(); ++column) {
        auto *item = new QTableWidgetItem(cells.at(column));
        if (firstNumber >= 0 && column >= firstNumber)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(cells.at(column));
        table->setItem(row, column, item);
    }
}

/// A count with its thousands grouped as people in India read them ("1,204").
QString number(qint64 value)
{
    return QLocale(QLocale::English, QLocale::India).toString(value);
}

/// A statement line's kind in words.
QString kindText(StatementLine::Kind kind)
{
    switch (kind) {
    case StatementLine::Kind::Mismatch:
        return StatementsCard::tr("Differs from our sale");
    case StatementLine::Kind::Unknown:
        return StatementsCard::tr("No sale of ours");
    case StatementLine::Kind::Unreadable:
        return StatementsCard::tr("Unreadable row");
    }
    return {};
}

} // namespace

StatementsCard::StatementsCard(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_upstream(new QComboBox(this)),
      m_import(new QPushButton(tr("&Import statement…"), this)),
      m_runs(makeTable(this, "statementRunsTable",
                       {tr("When (IST)"), tr("File"), tr("By"), tr("Rows"), tr("Matched"), tr("Settled"),
                        tr("Reversed"), tr("Mismatched"), tr("Unknown"), tr("Unreadable")})),
      m_runsNote(BackOfficeUi::hint(QString(), this)), m_runView(new QWidget(this)), m_runTitle(new QLabel(this)),
      m_linesNote(new QLabel(this)), m_lines(makeTable(this, "statementLinesTable",
                                                       {tr("Row"), tr("What"), tr("Reference"), tr("Sale"),
                                                        tr("Statement says"), tr("Held here"), tr("Why")})),
      m_notice(BackOfficeUi::notice(this))
{
    setObjectName(QStringLiteral("statementsCard"));
    BackOfficeUi::makeCard(this);
    auto *heading = BackOfficeUi::heading(tr("Statements"), this);
    auto *hint = BackOfficeUi::hint(
        tr("Import the CSV statement the aggregator's dashboard exports. Each row is matched by its reference to a "
           "sale sent to that upstream: a sale still waiting settles once; FAILED for a sale held SUCCESS is a "
           "reversal, refunded once; anything else that differs moves no money and is listed for a person. "
           "Importing the same statement again changes nothing."),
        this);
    hint->setObjectName(QStringLiteral("statementsHint"));

    m_upstream->setObjectName(QStringLiteral("statementUpstream"));
    m_upstream->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_upstream->setMinimumContentsLength(12);
    auto *upstreamLabel = new QLabel(tr("&For upstream"), this);
    upstreamLabel->setBuddy(m_upstream);
    m_import->setObjectName(QStringLiteral("importStatementButton"));
    BackOfficeUi::makePrimary(m_import);
    m_import->setToolTip(tr("Choose the statement's CSV file and reconcile it (a live admin)"));
    auto *chooseRow = new QHBoxLayout;
    chooseRow->addWidget(upstreamLabel);
    chooseRow->addWidget(m_upstream);
    chooseRow->addSpacing(12);
    chooseRow->addWidget(m_import);
    chooseRow->addStretch(1);

    auto *runsLabel = new QLabel(tr("Past &runs (newest first)"), this);
    Look::set(runsLabel, "strong");
    runsLabel->setBuddy(m_runs);
    m_runs->setMinimumHeight(110);
    m_runs->setMaximumHeight(160);
    m_runsNote->setObjectName(QStringLiteral("statementRunsNote"));

    // The run shown: its file, when and by whom; the counts; the lines for a person.
    m_runView->setObjectName(QStringLiteral("statementRun"));
    m_runTitle->setObjectName(QStringLiteral("statementRunTitle"));
    Look::set(m_runTitle, "strong");
    m_runTitle->setWordWrap(true);
    auto *counts = new QGridLayout;
    counts->setHorizontalSpacing(18);
    counts->setVerticalSpacing(0);
    const std::pair<const char *, QString> countNames[] = {
        {"rows", tr("Rows")},         {"matched", tr("Matched")},       {"settled", tr("Settled")},
        {"reversed", tr("Reversed")}, {"mismatched", tr("Mismatched")}, {"unchanged", tr("Unchanged")},
        {"unknown", tr("Unknown")},   {"unreadable", tr("Unreadable")}};
    int column = 0;
    for (const auto &[key, name] : countNames) {
        auto *value = new QLabel(m_runView);
        value->setObjectName(QStringLiteral("statementCount_%1").arg(QLatin1String(key)));
        Look::set(value, "reportValue");
        auto *caption = new QLabel(name, m_runView);
        Look::set(caption, "reportCardHeading");
        counts->addWidget(value, 0, column);
        counts->addWidget(caption, 1, column);
        m_counts.append(std::pair{value, caption});
        ++column;
    }
    counts->setColumnStretch(column, 1);
    m_linesNote->setObjectName(QStringLiteral("statementLinesNote"));
    m_linesNote->setWordWrap(true);
    m_lines->setMinimumHeight(140);
    m_lines->setWordWrap(true); // why, in whole words
    auto *runLayout = new QVBoxLayout(m_runView);
    runLayout->setContentsMargins(0, 6, 0, 0);
    runLayout->addWidget(m_runTitle);
    runLayout->addLayout(counts);
    runLayout->addWidget(m_linesNote);
    runLayout->addWidget(m_lines, 1);
    m_runView->hide();

    QLabel *general = BackOfficeUi::generalError(this);
    general->setObjectName(QStringLiteral("statementError"));
    m_errors = std::make_unique<FormErrors>(general);
    m_notice->setObjectName(QStringLiteral("statementNotice"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 14, 20, 14);
    layout->addWidget(heading);
    layout->addWidget(hint);
    layout->addLayout(chooseRow);
    layout->addWidget(general);
    layout->addWidget(m_notice);
    layout->addWidget(runsLabel);
    layout->addWidget(m_runs);
    layout->addWidget(m_runsNote);
    layout->addWidget(m_runView, 1);

    connect(m_upstream, &QComboBox::currentIndexChanged, this, [this] {
        m_run.reset();
        m_runView->hide();
        m_errors->clear();
        BackOfficeUi::showNotice(m_notice, QString());
        loadRuns();
    });
    connect(m_import, &QPushButton::clicked, this, &StatementsCard::onImportClicked);
    connect(m_runs, &QTableWidget::currentCellChanged, this, [this](int row) {
        const QTableWidgetItem *item = row >= 0 ? m_runs->item(row, 0) : nullptr;
        const qint64 id = item ? item->data(Qt::UserRole).toLongLong() : 0;
        if (id > 0 && (!m_run || m_run->id != id))
            openRun(id);
    });
    updateButtons();
}

StatementsCard::~StatementsCard() = default;

QString StatementsCard::upstream() const
{
    return m_upstream->currentText();
}

void StatementsCard::setUpstreams(const QStringList &names, bool live)
{
    m_live = live;
    const QString chosen = upstream();
    QStringList current;
    for (int i = 0; i < m_upstream->count(); ++i)
        current << m_upstream->itemText(i);
    if (current != names) {
        const QSignalBlocker block(m_upstream);
        m_upstream->clear();
        m_upstream->addItems(names);
        m_upstream->setCurrentIndex(qMax(0, int(names.indexOf(chosen))));
        if (upstream() != chosen) {
            m_run.reset();
            m_runView->hide();
        }
        loadRuns();
    }
    updateButtons();
}

void StatementsCard::setUpstream(const QString &name)
{
    const int index = m_upstream->findText(name);
    if (index >= 0)
        m_upstream->setCurrentIndex(index); // loads its runs when it changes
}

void StatementsCard::updateButtons()
{
    if (m_busy && m_import->hasFocus())
        m_runs->setFocus(); // the list of runs, where the new run shows, rather than the next widget
    m_import->setEnabled(m_live && !m_busy && !upstream().isEmpty());
    m_upstream->setEnabled(!m_busy);
}

void StatementsCard::loadRuns()
{
    if (m_runsCall)
        m_runsCall->abort();
    const QString name = upstream();
    m_runs->setRowCount(0);
    m_runsNote->hide();
    if (name.isEmpty())
        return;
    m_runsCall =
        UpstreamApi(m_context.api())
            .statementRuns(name)
            .then(this, [this, name](const Answer<Collection<StatementRun>> &answer) {
                m_runsCall = nullptr;
                if (name != upstream())
                    return;
                if (!answer.ok()) {
                    m_runsNote->setText(tr("The past runs are not available: %1").arg(answer.error->description()));
                    m_runsNote->show();
                    return;
                }
                const QList<StatementRun> &runs = answer.value->items;
                const QSignalBlocker block(m_runs); // filling the table opens no run
                m_runs->setRowCount(int(runs.size()));
                int shown = -1;
                for (int row = 0; row < runs.size(); ++row) {
                    const StatementRun &run = runs.at(row);
                    const StatementCounts &c = run.counts;
                    setRow(m_runs, row,
                           {IstTime::formatMs(run.createdAtMs), run.fileName, BackOfficeUi::actorText(run.actor),
                            number(c.rows), number(c.matched), number(c.settled), number(c.reversed),
                            number(c.mismatched), number(c.unknown), number(c.unreadable)},
                           3);
                    m_runs->item(row, 0)->setData(Qt::UserRole, run.id);
                    if (m_run && m_run->id == run.id)
                        shown = row;
                }
                if (shown >= 0)
                    m_runs->selectRow(shown);
                m_runsNote->setText(tr("No statement of %1 was imported yet.").arg(name));
                m_runsNote->setVisible(runs.isEmpty());
            });
}

void StatementsCard::openRun(qint64 id)
{
    if (m_runCall)
        m_runCall->abort();
    const QString name = upstream();
    m_runCall = UpstreamApi(m_context.api())
                    .statementRun(name, id)
                    .then(this, [this, name](const Answer<StatementRun> &answer) {
                        m_runCall = nullptr;
                        if (name != upstream())
                            return;
                        if (!answer.ok()) {
                            m_errors->show(*answer.error);
                            return;
                        }
                        m_errors->clear();
                        showRun(*answer.value);
                    });
}

void StatementsCard::showRun(const StatementRun &run)
{
    m_run = run;
    m_runTitle->setText(tr("%1 — imported %2 (IST) by %3")
                            .arg(run.fileName, IstTime::formatMs(run.createdAtMs), BackOfficeUi::actorText(run.actor)));
    const StatementCounts &c = run.counts;
    const qint64 values[] = {c.rows,       c.matched,   c.settled, c.reversed,
                             c.mismatched, c.unchanged, c.unknown, c.unreadable};
    for (qsizetype i = 0; i < m_counts.size(); ++i)
        m_counts.at(i).first->setText(number(values[i]));
    if (run.linesTotal == 0)
        m_linesNote->setText(tr("Nothing for a person to look at: every row matched a sale as it is, or settled it."));
    else if (run.linesTotal > run.lines.size())
        m_linesNote->setText(tr("For a person to look at: the first %1 of %2 lines (the counts are of every row).")
                                 .arg(number(run.lines.size()), number(run.linesTotal)));
    else
        m_linesNote->setText(tr("For a person to look at (no money was moved for these):"));
    m_lines->setRowCount(int(run.lines.size()));
    for (int row = 0; row < run.lines.size(); ++row) {
        const StatementLine &line = run.lines.at(row);
        setRow(m_lines, row,
               {QString::number(line.row), kindText(line.kind), line.referenceId,
                line.transactionId > 0 ? QString::number(line.transactionId) : tr("—"), line.statement,
                line.held.isEmpty() ? tr("—") : line.held, line.description});
        if (line.kind == StatementLine::Kind::Mismatch)
            m_lines->item(row, 1)->setForeground(QColor(0xb5, 0x47, 0x08));
    }
    m_lines->resizeRowsToContents();
    m_lines->setVisible(!run.lines.isEmpty());
    m_runView->show();
}

void StatementsCard::onImportClicked()
{
    if (!m_import->isEnabled())
        return;
    const QString dir = m_context.settings().value(kStatementDirKey, QDir::homePath()).toString();
    auto *dialog = new QFileDialog(this, tr("The statement of %1 (CSV)").arg(upstream()), dir,
                                   tr("CSV statements (*.csv);;All files (*)"));
    dialog->setObjectName(QStringLiteral("statementFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        m_context.settings().setValue(kStatementDirKey, QFileInfo(path).absolutePath());
        importFile(path);
    });
    dialog->open();
}

QScrollArea *StatementsCard::enclosingScrollArea() const
{
    for (QWidget *widget = parentWidget(); widget; widget = widget->parentWidget()) {
        if (auto *area = qobject_cast<QScrollArea *>(widget))
            return area;
    }
    return nullptr;
}

void StatementsCard::importFile(const QString &path)
{
    if (m_busy || upstream().isEmpty())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    const QString where = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_errors->showAt(QString(), tr("Could not read %1: %2").arg(where, file.errorString()));
        return;
    }
    if (file.size() > kMaxBytes) {
        m_errors->showAt(QString(), tr("%1 is larger than 8 MiB, the most the server takes: export a shorter period "
                                       "from the aggregator's dashboard.")
                                        .arg(where));
        return;
    }
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString csv = utf8(file.readAll());
    if (utf8.hasError()) {
        m_errors->showAt(QString(),
                         tr("%1 is not UTF-8 text: export it from the dashboard as CSV (UTF-8).").arg(where));
        return;
    }
    m_busy = true;
    updateButtons();
    const QString name = upstream();
    const QString fileName = QFileInfo(path).fileName();
    BackOfficeUi::showNotice(m_notice, tr("Reconciling %1 with the sales sent to %2…").arg(fileName, name));
    UpstreamApi(m_context.api())
        .importStatement(name, fileName, csv)
        .then(this, [this, name, fileName](const Answer<StatementRun> &answer) {
            m_busy = false;
            updateButtons();
            if (!answer.ok()) {
                BackOfficeUi::showNotice(m_notice, QString());
                const ApiError &error = *answer.error;
                m_errors->showAt(QString(), error.httpStatus() == 0
                                                ? tr("The server did not answer: %1").arg(error.description())
                                                : tr("%1 was not taken over: %2").arg(fileName, error.description()));
                return;
            }
            const StatementRun &run = *answer.value;
            showRun(run);
            const StatementCounts &c = run.counts;
            BackOfficeUi::showNotice(
                m_notice, tr("Reconciled %1 against %2: settled %3, reversed %4 (refunded "
                             "once); lines for a person below: %5.")
                              .arg(fileName, name, number(c.settled), number(c.reversed), number(run.linesTotal)));
            if (name == upstream())
                loadRuns();
            // What came of it on screen: the run's title, counts and lines; the keyboard in the runs.
            m_runs->setFocus();
            if (auto *area = enclosingScrollArea()) {
                // The run just shown gets its place (and the scroll area its new height) now, not at the next paint.
                for (int round = 0; round < 3; ++round)
                    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
                area->ensureWidgetVisible(m_lines, 0, 0);
                area->ensureWidgetVisible(m_runTitle, 0, 20);
            }
            if (c.settled > 0 || c.reversed > 0)
                emit m_context.salesChanged(); // the wallet, pending and attention counts and the history follow
            emit imported(run);
        });
}
