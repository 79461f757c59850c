#pragma once

#include "entities/transactionrecord.h"

#include <QPointer>
#include <QWidget>

class ApiCall;
class QLabel;
class QPushButton;
class QTableWidget;
class TerminalContext;

/// In the history's detail pane, for a live sale made through the upstream (issue 11): its
/// upstream state and reference, the "Recheck with upstream" action (POST
/// /api/v1/transactions/{id}/upstream-recheck, offered while the sale waits on the upstream) and
/// every call made to the upstream for it (GET …/upstream-calls: time IST, endpoint, HTTP status,
/// latency, error or outcome), oldest first; for a refused sale what its reason means. A sale sent once (its upstream
/// offers no status check) is never rechecked. Hidden for sales without an upstream.
class UpstreamCallsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamCallsView)

public:
    explicit UpstreamCallsView(TerminalContext &context, QWidget *parent = nullptr);

    /// Shows the upstream part of `record` and loads its calls; hides itself when the record
    /// has no "upstream" object.
    void showRecord(const TransactionRecord &record);
    /// Forgets the sale shown and hides.
    void clear();
    QTableWidget *callsTable() const { return m_calls; }
    QPushButton *recheckButton() const { return m_recheck; }

signals:
    /// The recheck answered with the sale's record as it is now.
    void rechecked(const TransactionRecord &record);
    /// A message for the pane (the recheck's outcome); `error` for failures.
    void message(const QString &text, bool error);

private:
    void loadCalls();
    void onRecheckClicked();

    TerminalContext &m_context;
    qint64 m_transactionId = 0;
    QPointer<ApiCall> m_callsCall;
    QLabel *m_state;
    QLabel *m_reference;
    QPushButton *m_recheck;
    QTableWidget *m_calls;
    QLabel *m_note;
};
