#pragma once

#include "answer.h"
#include "entities/transactionrecord.h"
#include "receipts/receiptdata.h"

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

#include <memory>

class QFormLayout;
class QGridLayout;
class QLabel;
class QPrinter;
class QPushButton;
class QScrollArea;
class QTableWidget;
class StatusBadge;
class ComplaintSection;
class TerminalContext;
class UpstreamCallsView;

/// The right-hand pane of the history: the whole record of one transaction (fetched fresh with
/// GET /api/v1/transactions/{id}), its wallet ledger rows (/ledger), its webhook delivery
/// attempts (GET /api/v1/webhook-deliveries?transaction_id=), for a live sale its upstream state
/// and calls (UpstreamCallsView, with Recheck with upstream) and the actions Recheck status,
/// Reprint receipt (DUPLICATE, through ReceiptRenderer) and Redeliver webhook. A live sale that
/// needs attention says in plain words what is known (issue 26), a refused one the upstream's own
/// words; a PENDING live sale offers Resolve… (ResolveDialog), and a sale a person resolved says
/// who, when and why. A sale the upstream reversed says "Reversed by the operator at 14:05" (also on its reprinted
/// receipt), a SUCCESS or PENDING sale offers "Raise complaint…" and any sale shows its complaint's state (issue 29),
/// a status the upstream reports against ours is a warning for a person, and the upstreams that refused
/// the sale before the one it went to are listed with their words.
class HistoryDetailPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryDetailPane)

public:
    HistoryDetailPane(TerminalContext &context, QWidget *parent = nullptr);
    ~HistoryDetailPane() override;

    /// Shows this transaction (0: nothing) and loads its record, ledger and deliveries; the one already shown is
    /// loaded again, keeping its message.
    void setTransaction(qint64 transactionId);
    qint64 transactionId() const { return m_transactionId; }
    /// The record last loaded (nullopt until it arrives).
    const std::optional<TransactionRecord> &record() const { return m_record; }
    /// The upstream part (hidden for sales without an upstream).
    UpstreamCallsView *upstream() const { return m_upstream; }
    /// The sale's complaint and "Raise complaint…" (issue 29).
    ComplaintSection *complaints() const { return m_complaints; }
    /// Resolve… (shown for live sales, enabled while PENDING).
    QPushButton *resolveButton() const { return m_resolve; }
    /// What Reprint receipt prints for the sale shown (DUPLICATE): the receipt of record() for this shop, today's
    /// date from the terminal's clock. Empty before the record arrives.
    ReceiptData receiptData() const;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

signals:
    /// A fresher record arrived (e.g. a PENDING sale settled): the table can update its row.
    void recordChanged(const TransactionRecord &record);
    /// A person resolved the sale here (after recordChanged with its settled record).
    void saleResolved(const TransactionRecord &record);

private:
    void loadRecord();
    void loadLedger();
    void loadDeliveries();
    void onRecord(const Answer<TransactionRecord> &answer);
    void onRecheckClicked();
    void onReprintClicked();
    void onRedeliverClicked();
    void onResolveClicked();
    /// The attention, resolution and Resolve… parts for `record`.
    void showUpstreamOutcome(const TransactionRecord &record);
    void showMessage(const QString &text, bool error);
    /// Puts the action buttons two a row, or one a row when two do not fit the pane's width.
    void fitActions();
    void arrangeActions(int columns);
    void clearTables();

    TerminalContext &m_context;
    qint64 m_transactionId = 0;
    std::optional<TransactionRecord> m_record;
    TransactionStatus m_status = TransactionStatus::Pending; ///< of m_record
    qint64 m_latestAttemptId = 0;
    QPointer<ApiCall> m_recordCall;
    QPointer<ApiCall> m_ledgerCall;
    QPointer<ApiCall> m_deliveriesCall;
    std::unique_ptr<QPrinter> m_printer;

    QLabel *m_title;
    StatusBadge *m_badge;
    QFormLayout *m_fields;
    QTableWidget *m_ledger;
    QTableWidget *m_deliveries;
    QLabel *m_deliveriesNote;
    QLabel *m_message;
    QLabel *m_attention;
    QLabel *m_words;
    QLabel *m_resolution;
    QLabel *m_reversal;
    QLabel *m_mismatch;
    QLabel *m_tried;
    QPushButton *m_recheck;
    QPushButton *m_reprint;
    QPushButton *m_redeliver;
    QPushButton *m_resolve;
    UpstreamCallsView *m_upstream;
    ComplaintSection *m_complaints;
    QGridLayout *m_actions;
    int m_actionColumns = 0;
    QScrollArea *m_scroll = nullptr;
};
