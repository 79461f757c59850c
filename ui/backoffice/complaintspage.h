#pragma once

#include "entities/complaint.h"

#include <QWidget>

#include <optional>

class CollectionModel;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class TerminalContext;

/// Back office → Complaints (issue 29): the shop's complaints, unresolved first then newest (the server's order),
/// filtered by state (default: the unresolved), with each one's sale, reason, state, age and deadline (raised + the
/// shop's complaint_deadline_hours). One past its deadline says "PAST DEADLINE" in its Deadline cell and is shaded.
/// Below, the selected complaint in words; an admin resolves an unresolved one with Resolve… (ResolveComplaintDialog).
/// Loads when shown; F5 reloads (BackOfficeView).
class ComplaintsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ComplaintsPage)

public:
    ComplaintsPage(TerminalContext &context, QWidget *parent = nullptr);

    CollectionModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QPushButton *resolveButton() const { return m_resolve; }
    /// The complaint of the current row, if it decodes.
    std::optional<Complaint> selected() const;
    /// Loads the list again with the filter shown.
    void refresh();
    /// "3 d 4 h", "2 h 15 min", "5 min": how long a complaint has been (or was) waiting.
    static QString ageText(qint64 seconds);

signals:
    /// A complaint was resolved here (a credit reverses a sale: the history changes).
    void complaintResolved(const Complaint &complaint);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void updateSelection();
    void onResolveClicked();

    TerminalContext &m_context;
    CollectionModel *m_model;
    QComboBox *m_state;
    QLabel *m_error;
    QTableView *m_table;
    QLabel *m_detail;
    QPushButton *m_resolve;
};
