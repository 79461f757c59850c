#pragma once

#include "answer.h"
#include "entities/transactionsummary.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <memory>

class CsvExport;
class HistoryDetailPane;
class HistoryModel;
class QProgressDialog;
class TerminalContext;
struct TransactionQuery;
namespace Ui {
class HistoryPage;
}
using HistoryFilter = TransactionQuery;

/// Back office: the transaction history (issue 6, item 1). Filters (IST date range, default the
/// last 7 days; type; operator; status; text over transaction id, number and reference id,
/// debounced 300 ms; "Unknown at upstream" for live sales with no definite answer yet, issue 11; "Needs attention"
/// for live sales the upstream has not ended within the server's attention_after_s, of every date, issue 26), the
/// totals of the
/// filter (GET /api/v1/transactions/summary), the table (HistoryModel, loaded page by page as it scrolls), a detail
/// pane for the selected sale and a CSV export of every filtered row with progress and cancel.
class HistoryPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryPage)

public:
    HistoryPage(TerminalContext &context, QWidget *parent = nullptr);
    ~HistoryPage() override;

    HistoryModel *model() const { return m_model; }
    /// The filter the widgets show now.
    HistoryFilter currentFilter() const;
    /// Starts exporting the current filter's rows to `path` (the Export button asks for the path
    /// first); shows a progress dialog with Cancel.
    void exportCsv(const QString &path);
    /// Reloads the rows and totals of the current filter (new sales, settled ones), keeping the
    /// selected sale selected when it is still in the first page, and in the detail pane when it
    /// no longer matches the filter (a sale just resolved out of Needs attention).
    void refresh();
    /// Turns the "Needs attention" filter on — every other filter back to "all", so exactly the sales
    /// needing attention show — or off, loads at once and puts the keyboard focus in the table.
    void setNeedsAttention(bool on);
    bool needsAttention() const;
    /// The detail pane of the selected sale.
    HistoryDetailPane *detailPane() const { return m_detail; }

private:
    void applyFilter();
    void scheduleApply(int delayMs);
    void loadSummary();
    void onSummary(const Answer<TransactionSummary> &answer);
    void onExportClicked();
    void onCurrentRowChanged();
    void finishExport(const QString &message, bool error);

    TerminalContext &m_context;
    HistoryModel *m_model;
    QTimer m_debounce;
    QPointer<ApiCall> m_summaryCall;
    QPointer<CsvExport> m_export;
    QPointer<QProgressDialog> m_progress;

    std::unique_ptr<Ui::HistoryPage> m_ui; ///< the widgets of historypage.ui
    HistoryDetailPane *m_detail;
    qint64 m_reselect = 0; ///< transaction to select again once refresh() has loaded the first page
};
