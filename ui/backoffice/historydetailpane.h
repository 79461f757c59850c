#pragma once

#include "answer.h"
#include "entities/transactionrecord.h"

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

#include <memory>

class QFormLayout;
class QLabel;
class QPrinter;
class QPushButton;
class QTableWidget;
class StatusBadge;
class TerminalContext;
class UpstreamCallsView;

/// The right-hand pane of the history: the whole record of one transaction (fetched fresh with
/// GET /api/v1/transactions/{id}), its wallet ledger rows (/ledger), its webhook delivery
/// attempts (GET /api/v1/webhook-deliveries?transaction_id=), for a live sale its upstream state
/// and calls (UpstreamCallsView, with Recheck with upstream) and the actions Recheck status,
/// Reprint receipt (DUPLICATE, through ReceiptRenderer) and Redeliver webhook.
class HistoryDetailPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryDetailPane)

public:
    HistoryDetailPane(TerminalContext &context, QWidget *parent = nullptr);
    ~HistoryDetailPane() override;

    /// Shows this transaction (0: nothing) and loads its record, ledger and deliveries.
    void setTransaction(qint64 transactionId);
    qint64 transactionId() const { return m_transactionId; }
    /// The record last loaded (nullopt until it arrives).
    const std::optional<TransactionRecord> &record() const { return m_record; }
    /// The upstream part (hidden for sales without an upstream).
    UpstreamCallsView *upstream() const { return m_upstream; }

signals:
    /// A fresher record arrived (e.g. a PENDING sale settled): the table can update its row.
    void recordChanged(const TransactionRecord &record);

private:
    void loadRecord();
    void loadLedger();
    void loadDeliveries();
    void onRecord(const Answer<TransactionRecord> &answer);
    void onRecheckClicked();
    void onReprintClicked();
    void onRedeliverClicked();
    void showMessage(const QString &text, bool error);
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
    QPushButton *m_recheck;
    QPushButton *m_reprint;
    QPushButton *m_redeliver;
    UpstreamCallsView *m_upstream;
};
