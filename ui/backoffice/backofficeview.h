#pragma once

#include <QTabWidget>

class DayEndPage;
class HistoryPage;
class KeysPage;
class SettingsPage;
class TerminalContext;
class UsersPage;
class WalletPage;
class WebhooksPage;

/// The back office (issue 6), admin only: one tab per screen — History, Day-end, Wallet, Keys,
/// Webhooks, Users, Settings. Each page loads its data when its tab is shown, so nothing is
/// fetched for a clerk who never sees it. Ctrl+Tab / Ctrl+Shift+Tab move between tabs.
class BackOfficeView final : public QTabWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BackOfficeView)

public:
    BackOfficeView(TerminalContext &context, QWidget *parent = nullptr);

    HistoryPage *historyPage() const { return m_history; }
    DayEndPage *dayEndPage() const { return m_dayEnd; }
    WalletPage *walletPage() const { return m_wallet; }
    KeysPage *keysPage() const { return m_keys; }
    WebhooksPage *webhooksPage() const { return m_webhooks; }
    UsersPage *usersPage() const { return m_users; }
    SettingsPage *settingsPage() const { return m_settings; }

private:
    HistoryPage *m_history;
    DayEndPage *m_dayEnd;
    WalletPage *m_wallet;
    KeysPage *m_keys;
    WebhooksPage *m_webhooks;
    UsersPage *m_users;
    SettingsPage *m_settings;
};
