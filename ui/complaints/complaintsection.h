#pragma once

#include "entities/complaint.h"
#include "entities/transactionrecord.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class ApiCall;
class QLabel;
class QPushButton;
class TerminalContext;

/// The complaint part of a sale's screen (History's detail pane, the sale result panel; issue 29): "Raise
/// complaint…" for a SUCCESS or PENDING sale without an unresolved complaint (RaiseComplaintDialog), and a line with
/// the sale's latest complaint and its state (GET /api/v1/complaints?transaction_id=).
class ComplaintSection final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ComplaintSection)

public:
    explicit ComplaintSection(TerminalContext &context, QWidget *parent = nullptr);

    /// Shows `record`'s complaint state (asks the server) and whether one can be raised.
    void setSale(const TransactionRecord &record);
    /// Forgets the sale: nothing shown.
    void clear();
    QPushButton *raiseButton() const { return m_raise; }
    QLabel *stateLabel() const { return m_state; }
    /// The sale's latest complaint as last known; nullopt when it has none (or before the answer).
    const std::optional<Complaint> &complaint() const { return m_complaint; }
    /// "Complaint 7: open — Not received, raised 28 Nov 21:15 by Asha" and so on for each state.
    static QString stateText(const Complaint &complaint);

signals:
    /// A complaint was raised here.
    void raised(const Complaint &complaint);

private:
    void load();
    void show(const std::optional<Complaint> &complaint);
    void onRaiseClicked();

    TerminalContext &m_context;
    std::optional<TransactionRecord> m_record;
    std::optional<Complaint> m_complaint;
    QPointer<ApiCall> m_call;
    QPushButton *m_raise;
    QLabel *m_state;
};
