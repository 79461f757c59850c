#pragma once

#include "entities/fundrequest.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class ApiCall;
class ApiError;
class CollectionModel;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class TerminalContext;

/// Back office → Shops → Fund requests (issue 30): what the shops asked to be credited with, the pending ones first and
/// then oldest first (the server's order), filtered by state. A request whose UTR another request also carries says
/// "DUPLICATE UTR" in its UTR cell and is shaded red. Beside the table the selected request in full with its slip photo
/// (GET /api/v1/fund-requests/{id}/slip), and Approve… (Alt+A; a confirmation naming the shop and the amount: the
/// shop's wallet is credited once) and Reject… (Alt+R; a reason). Widgets: "fundStateFilter", "fundRequestsTable",
/// "fundRequestDetail", "fundDuplicate", "fundSlip", "approveFundRequest", "rejectFundRequest", "fundMessage".
class FundRequestsPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FundRequestsPane)

public:
    explicit FundRequestsPane(TerminalContext &context, QWidget *parent = nullptr);

    CollectionModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QLabel *slip() const { return m_slip; }
    /// The request of the current row, if it decodes.
    std::optional<FundRequest> selected() const;
    /// Loads the list again, keeping the selected request selected.
    void refresh();
    /// "UPI", "Bank transfer", "Cash deposit".
    static QString methodText(const QString &method);
    /// "Pending", "Approved", "Rejected".
    static QString stateText(const QString &state);

signals:
    /// A request was approved or rejected here (a shop's balance changed or not).
    void decided(const FundRequest &request);

private:
    void updateSelection();
    void showSlip(const FundRequest &request);
    void onApprove();
    void onReject();
    void showError(const QString &text);

    TerminalContext &m_context;
    CollectionModel *m_model;
    QComboBox *m_state;
    QLabel *m_message;
    QTableView *m_table;
    QLabel *m_heading;
    QLabel *m_detail;
    QLabel *m_duplicate;
    QLabel *m_slip;
    QPushButton *m_approve;
    QPushButton *m_reject;
    QPointer<ApiCall> m_slipCall;
    qint64 m_slipShown = 0; ///< the request whose slip is on screen (or on its way)
    qint64 m_keepSelected = 0;
};
