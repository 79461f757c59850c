#pragma once

#include "terminalcontext.h"

#include <QObject>
#include <QTimer>

class QLabel;
class QStatusBar;

/// The status bar: server address and state, wallet balance (red below the shop's low-balance
/// threshold) and the number of PENDING sales. Polls the API in the background; the server state
/// also follows every API call of the terminal (ApiClient::reachabilityChanged).
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
    QTimer m_timer;
    qint64 m_lowBalancePaise = 50'000;
};
