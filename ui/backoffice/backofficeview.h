#pragma once

#include <QHash>
#include <QPointer>
#include <QSet>
#include <QTabWidget>
#include <QTimer>

#include <functional>

class ApiCall;
class ComplaintsPage;
class DayEndPage;
class HistoryPage;
class KeysPage;
class QKeyEvent;
class QPushButton;
class SettingsPage;
class ShopsPage;
class ShiftsPage;
class TerminalContext;
class UsersPage;
class WalletPage;
class WebhooksPage;

/// The back office (issue 6), admin only: one tab per screen — History, Day-end, Shifts (issue 28), Complaints
/// (issue 29), Shops (issue 30: the shops of this server's account, the distributor), Wallet, Keys,
/// Webhooks, Users, Settings. Each page loads its data when its tab is shown, so nothing is
/// fetched for a clerk who never sees it. Ctrl+Tab / Ctrl+Shift+Tab move between tabs from any widget of a page,
/// and Enter or Return presses the focused button (issue 27).
///
/// The figures of History, Day-end and Wallet follow the sales: when a sale is recorded or settles
/// (TerminalContext::salesChanged) the page on screen reloads at once and the others the next time
/// they are shown. F5 or Ctrl+R reloads the page on screen (inside the back office F5 means
/// "refresh" as in a browser; elsewhere it still opens the fifth screen).
///
/// Beside the tabs, "2 sales need attention · show them (Alt+N)" (issue 26: live sales the upstream has not ended
/// within the server's attention_after_s, counted by GET /api/v1/upstream, asked again while the back
/// office is on screen) opens History with its Needs attention filter; Alt+N does the same from any
/// tab, and in History with that filter on turns it off again.
class BackOfficeView final : public QTabWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BackOfficeView)

public:
    BackOfficeView(TerminalContext &context, QWidget *parent = nullptr);

    HistoryPage *historyPage() const { return m_history; }
    DayEndPage *dayEndPage() const { return m_dayEnd; }
    ShiftsPage *shiftsPage() const { return m_shifts; }
    ComplaintsPage *complaintsPage() const { return m_complaints; }
    /// Shops (issue 30): the distributor's shops and their fund requests.
    ShopsPage *shopsPage() const { return m_shops; }
    WalletPage *walletPage() const { return m_wallet; }
    KeysPage *keysPage() const { return m_keys; }
    WebhooksPage *webhooksPage() const { return m_webhooks; }
    UsersPage *usersPage() const { return m_users; }
    SettingsPage *settingsPage() const { return m_settings; }

    /// Reloads the page on screen if it shows figures (History, Day-end, Shifts, Wallet); false otherwise.
    bool refreshCurrentPage();
    /// Asks the server again how many sales need attention (one call at a time; none in TEST mode).
    void refreshAttention();
    /// "2 sales need attention · show them (Alt+N)" beside the tabs; hidden while none does.
    QPushButton *attentionButton() const { return m_attention; }

protected:
    bool event(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    /// How a page with figures is reloaded, and whether it reloads by itself whenever it is shown.
    struct Refresher
    {
        std::function<void()> refresh;
        bool refreshesWhenShown = false;
    };
    static bool isRefreshKey(const QKeyEvent &event);
    void onSalesChanged();
    void refreshIfStale();
    /// Alt+N: History with Needs attention, or (already there) History without it.
    void toggleNeedsAttention();
    /// Ctrl+Tab (`step` 1) or Ctrl+Shift+Tab (-1): the next or previous enabled tab, round the end.
    void stepTab(int step);

    HistoryPage *m_history;
    DayEndPage *m_dayEnd;
    ShiftsPage *m_shifts;
    ComplaintsPage *m_complaints;
    ShopsPage *m_shops;
    WalletPage *m_wallet;
    KeysPage *m_keys;
    WebhooksPage *m_webhooks;
    UsersPage *m_users;
    SettingsPage *m_settings;
    QHash<QWidget *, Refresher> m_refreshers;
    QSet<QWidget *> m_stale; ///< pages whose figures changed while they were not on screen
    TerminalContext &m_context;
    QPushButton *m_attention;
    QPointer<ApiCall> m_attentionCall;
    QTimer m_attentionTimer;
};
