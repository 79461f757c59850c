#include "backofficeview.h"

#include "dayendpage.h"
#include "historypage.h"
#include "keyspage.h"
#include "settingspage.h"
#include "terminalcontext.h"
#include "userspage.h"
#include "walletpage.h"
#include "webhookspage.h"

#include <QKeyEvent>

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

    m_refreshers.insert(m_history, {[this] { m_history->refresh(); }});
    m_refreshers.insert(m_dayEnd, {[this] { m_dayEnd->refresh(); }});
    m_refreshers.insert(m_wallet, {[this] { m_wallet->refresh(); }, true});
    connect(&context, &TerminalContext::salesChanged, this, &BackOfficeView::onSalesChanged);
    // What a page loaded before an admin signed in was refused (the terminal's pos key alone has no
    // back-office power): an admin's sign-in reloads the figures as a sale would.
    connect(&context, &TerminalContext::userChanged, this, [this, &context] {
        if (context.user().isAdmin)
            onSalesChanged();
    });
    connect(this, &QTabWidget::currentChanged, this, &BackOfficeView::refreshIfStale);
}

bool BackOfficeView::refreshCurrentPage()
{
    const auto found = m_refreshers.constFind(currentWidget());
    if (found == m_refreshers.cend())
        return false;
    m_stale.remove(currentWidget());
    found->refresh();
    return true;
}

bool BackOfficeView::isRefreshKey(const QKeyEvent &event)
{
    const QKeyCombination keys = event.keyCombination();
    return keys == QKeyCombination(Qt::Key_F5) || keys == QKeyCombination(Qt::ControlModifier, Qt::Key_R);
}

bool BackOfficeView::event(QEvent *event)
{
    // F5 is also the terminal's window-wide shortcut for its fifth screen: claiming the key here
    // (the focus is inside the back office) keeps that shortcut from firing, and the key press
    // then arrives in keyPressEvent().
    if (event->type() == QEvent::ShortcutOverride && isRefreshKey(*static_cast<QKeyEvent *>(event)) &&
        m_refreshers.contains(currentWidget())) {
        event->accept();
        return true;
    }
    return QTabWidget::event(event);
}

void BackOfficeView::keyPressEvent(QKeyEvent *event)
{
    if (isRefreshKey(*event) && refreshCurrentPage()) {
        event->accept();
        return;
    }
    QTabWidget::keyPressEvent(event);
}

void BackOfficeView::showEvent(QShowEvent *event)
{
    QTabWidget::showEvent(event);
    refreshIfStale();
}

void BackOfficeView::onSalesChanged()
{
    for (auto it = m_refreshers.cbegin(); it != m_refreshers.cend(); ++it) {
        if (it.key()->isVisible()) {
            m_stale.remove(it.key());
            it->refresh();
        } else if (!it->refreshesWhenShown) {
            m_stale.insert(it.key());
        }
    }
}

void BackOfficeView::refreshIfStale()
{
    QWidget *page = currentWidget();
    if (isVisible() && m_stale.remove(page))
        m_refreshers.value(page).refresh();
}
