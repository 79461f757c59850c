#pragma once

#include "terminalcontext.h"

#include <QList>
#include <QObject>
#include <QTimer>

class QLabel;
class QPushButton;
class DistributorBalanceWatch;
class ElidedLabel;
class QStatusBar;
class UpstreamIndicator;

/// The status bar: server address and state, wallet balance (red below the shop's low-balance
/// threshold; issue 30: the distributor's figure for the shop when that is below it, DistributorBalanceWatch), the
/// number of PENDING sales, the upstream's state and the sales needing attention
/// (UpstreamIndicator), and "Give ₹… back to the customer" for a sale the clerk left PENDING that then failed
/// (issue 27; TerminalContext::saleLeftPending; paid by UPI: "Refund ₹… by UPI", issue 28) until the clerk presses
/// "Given back" ("Refunded"). Polls the API in
/// the background; the server state also follows every API call of the terminal
/// (ApiClient::reachabilityChanged).
class StatusPanel final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StatusPanel)

public:
    StatusPanel(TerminalContext &context, QStatusBar *bar, QObject *parent = nullptr);
    /// Refreshes everything now.
    void refresh();

    QString serverText() const;
    QString walletText() const;
    QString pendingText() const;
    /// "Distributor balance ₹… — below ₹…" (issue 30); empty when none is shown.
    QString distributorText() const;
    /// "Upstream online" / "Upstream unreachable since HH:MM"; empty when none is shown.
    QString upstreamText() const;
    /// "2 sales need attention" (issue 26); empty when none does or none is shown.
    QString attentionText() const;
    /// "Give ₹199.00 back to the customer of 98765 42222 (sale 17)" for the oldest sale left PENDING that failed
    /// and is not given back yet (issue 27); empty when there is none.
    QString moneyBackText() const;
    /// The "Given back" button beside moneyBackText(): the clerk has returned that money.
    QPushButton *moneyBackButton() const { return m_moneyBackDone; }

private:
    void refreshHealth();
    void showServerState(bool online);
    void refreshWallet();
    void refreshPending();
    /// Checks the sales left PENDING: FAILED ones move to the money-back list, SUCCESS ones are dropped.
    void refreshLeftPending();
    void showMoneyBack();
    void onMoneyGivenBack();

    TerminalContext &m_context;
    QLabel *m_server;
    QLabel *m_wallet;
    ElidedLabel *m_distributorLabel;
    QLabel *m_pending;
    QLabel *m_user;
    QLabel *m_upstreamLabel;
    QLabel *m_attentionLabel;
    QLabel *m_moneyBack;
    QPushButton *m_moneyBackDone;
    QList<TransactionRecord> m_leftPending;    ///< sales the clerk moved on from while PENDING, still followed
    QList<TransactionRecord> m_moneyBackSales; ///< of those, FAILED: money to give back, oldest first
    UpstreamIndicator *m_upstream;
    DistributorBalanceWatch *m_distributor;
    QTimer m_timer;
    qint64 m_lowBalancePaise = 50'000;
};
