#pragma once

#include "terminalcontext.h"

#include <QObject>
#include <QTimer>

class QLabel;
class QStatusBar;
class UpstreamIndicator;

/// The status bar: server address and state, wallet balance (red below the shop's low-balance
/// threshold), the number of PENDING sales, the upstream's state and the sales needing attention
/// (UpstreamIndicator). Polls the API in
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
    /// "Upstream online" / "Upstream unreachable since HH:MM"; empty when none is shown.
    QString upstreamText() const;
    /// "2 sales need attention" (issue 26); empty when none does or none is shown.
    QString attentionText() const;

private:
    void refreshHealth();
    void showServerState(bool online);
    void refreshWallet();
    void refreshPending();

    TerminalContext &m_context;
    QLabel *m_server;
    QLabel *m_wallet;
    QLabel *m_pending;
    QLabel *m_user;
    QLabel *m_upstreamLabel;
    QLabel *m_attentionLabel;
    UpstreamIndicator *m_upstream;
    QTimer m_timer;
    qint64 m_lowBalancePaise = 50'000;
};
