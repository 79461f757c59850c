#include "backofficeview.h"

#include "dayendpage.h"
#include "historypage.h"
#include "keyspage.h"
#include "settingspage.h"
#include "userspage.h"
#include "walletpage.h"
#include "webhookspage.h"

BackOfficeView::BackOfficeView(TerminalContext &context, QWidget *parent)
    : QTabWidget(parent), m_history(new HistoryPage(context, this)), m_dayEnd(new DayEndPage(context, this)),
      m_wallet(new WalletPage(context, this)), m_keys(new KeysPage(context, this)),
      m_webhooks(new WebhooksPage(context, this)), m_users(new UsersPage(context, this)),
      m_settings(new SettingsPage(context, this))
{
    setObjectName(QStringLiteral("backOffice"));
    setDocumentMode(true);
    addTab(m_history, tr("History"));
    addTab(m_dayEnd, tr("Day-end"));
    addTab(m_wallet, tr("Wallet"));
    addTab(m_keys, tr("API keys"));
    addTab(m_webhooks, tr("Webhooks"));
    addTab(m_users, tr("Users"));
    addTab(m_settings, tr("Settings"));
}
