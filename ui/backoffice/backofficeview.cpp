#include "backofficeview.h"

#include "apiclient.h"
#include "complaintspage.h"
#include "dayendpage.h"
#include "historydetailpane.h"
#include "historypage.h"
#include "keyspage.h"
#include "settingspage.h"
#include "shiftspage.h"
#include "shops/shopspage.h"
#include "terminalcontext.h"
#include "upstreamapi.h"
#include "upstreamstatus.h"
#include "userspage.h"
#include "walletpage.h"
#include "webhookspage.h"
#include "widgets/look.h"

#include <QApplication>
#include <QKeyEvent>
#include <QPushButton>
#include <QShortcut>

BackOfficeView::BackOfficeView(TerminalContext &context, QWidget *parent)
    : QTabWidget(parent), m_history(new HistoryPage(context, this)), m_dayEnd(new DayEndPage(context, this)),
      m_shifts(new ShiftsPage(context, this)), m_complaints(new ComplaintsPage(context, this)),
      m_shops(new ShopsPage(context, this)), m_wallet(new WalletPage(context, this)),
      m_keys(new KeysPage(context, this)), m_webhooks(new WebhooksPage(context, this)),
      m_users(new UsersPage(context, this)), m_settings(new SettingsPage(context, this)), m_context(context),
      m_attention(new QPushButton(this))
{
    setObjectName(QStringLiteral("backOffice"));
    setDocumentMode(true);
    addTab(m_history, tr("History"));
    addTab(m_dayEnd, tr("Day-end"));
    addTab(m_shifts, tr("Shifts"));
    addTab(m_complaints, tr("Complaints"));
    addTab(m_shops, tr("Shops"));
    addTab(m_wallet, tr("Wallet"));
    addTab(m_keys, tr("API keys"));
    addTab(m_webhooks, tr("Webhooks"));
    addTab(m_users, tr("Users"));
    addTab(m_settings, tr("Settings"));

    m_refreshers.insert(m_history, {[this] { m_history->refresh(); }});
    m_refreshers.insert(m_dayEnd, {[this] { m_dayEnd->refresh(); }});
    m_refreshers.insert(m_shifts, {[this] { m_shifts->refresh(); }});
    m_refreshers.insert(m_complaints, {[this] { m_complaints->refresh(); }});
    m_refreshers.insert(m_shops, {[this] { m_shops->refresh(); }});
    // A credit reverses a sale: the history and the day's figures change.
    connect(m_complaints, &ComplaintsPage::complaintResolved, &context, &TerminalContext::salesChanged);
    m_refreshers.insert(m_wallet, {[this] { m_wallet->refresh(); }, true});
    connect(&context, &TerminalContext::salesChanged, this, &BackOfficeView::onSalesChanged);
    // What a page loaded before an admin signed in was refused (the terminal's pos key alone has no
    // back-office power): an admin's sign-in reloads the figures as a sale would.
    connect(&context, &TerminalContext::userChanged, this, [this, &context] {
        if (context.user().isAdmin)
            onSalesChanged();
    });
    connect(this, &QTabWidget::currentChanged, this, &BackOfficeView::refreshIfStale);

    m_attention->setObjectName(QStringLiteral("attentionButton"));
    Look::set(m_attention, "attentionBanner");
    m_attention->hide();
    setCornerWidget(m_attention, Qt::TopRightCorner);
    connect(m_attention, &QPushButton::clicked, this, [this] {
        setCurrentWidget(m_history);
        m_history->setNeedsAttention(true);
    });
    auto *shortcut = new QShortcut(QKeySequence(Qt::ALT | Qt::Key_N), this);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &BackOfficeView::toggleNeedsAttention);
    // Ctrl+Tab / Ctrl+Shift+Tab from any widget of any page: QTabWidget sees them only when the focus widget lets
    // them through, and tables and drop-downs keep them. (Shift+Tab arrives as Backtab from a keyboard.)
    const auto switchTabs = [this](QKeyCombination keys, int step) {
        auto *tabKey = new QShortcut(QKeySequence(keys), this);
        tabKey->setContext(Qt::WidgetWithChildrenShortcut);
        connect(tabKey, &QShortcut::activated, this, [this, step] { stepTab(step); });
    };
    switchTabs(Qt::CTRL | Qt::Key_Tab, 1);
    switchTabs(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab, -1);
    switchTabs(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab, -1);
    // The count follows the sales, a resolve here, an admin's sign-in and, while on screen, the clock.
    m_attentionTimer.setInterval(30'000);
    connect(&m_attentionTimer, &QTimer::timeout, this, &BackOfficeView::refreshAttention);
    m_attentionTimer.start();
    connect(&context, &TerminalContext::salesChanged, this, &BackOfficeView::refreshAttention);
    connect(&context, &TerminalContext::userChanged, this, &BackOfficeView::refreshAttention);
    connect(m_history->detailPane(), &HistoryDetailPane::saleResolved, this, &BackOfficeView::refreshAttention);
}

void BackOfficeView::refreshAttention()
{
    // Not asked while hidden (a clerk never sees the back office): showEvent() asks when it appears.
    if (m_context.api().isTestMode() || m_attentionCall || !isVisible())
        return;
    m_attentionCall = UpstreamApi(m_context.api()).get().then(this, [this](const Answer<UpstreamInfo> &answer) {
        m_attentionCall = nullptr;
        if (!answer.ok())
            return; // the status bar says what is wrong with the server; the last count stays
        const UpstreamStatus status = UpstreamStatus::from(*answer.value);
        const QString text = status.attentionText();
        m_attention->setText(text.isEmpty() ? QString() : tr("%1 · show them (Alt+N)").arg(text));
        m_attention->setToolTip(text.isEmpty() ? QString()
                                               : status.attentionToolTip() + QLatin1Char(' ') +
                                                     tr("Press to show them in History: Needs attention."));
        m_attention->setVisible(!text.isEmpty());
    });
}

void BackOfficeView::toggleNeedsAttention()
{
    const bool showing = currentWidget() == m_history && m_history->needsAttention();
    setCurrentWidget(m_history);
    m_history->setNeedsAttention(!showing);
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

void BackOfficeView::stepTab(int step)
{
    if (count() == 0)
        return;
    int index = currentIndex();
    do
        index = (index + step + count()) % count();
    while (!isTabEnabled(index) && index != currentIndex());
    setCurrentIndex(index);
    // The focus goes to the new page (as QTabWidget's own Ctrl+Tab does), not to a widget now hidden.
    if (QWidget *page = currentWidget(); page && !page->isAncestorOf(QApplication::focusWidget()))
        page->setFocus(Qt::TabFocusReason);
}

void BackOfficeView::keyPressEvent(QKeyEvent *event)
{
    if (isRefreshKey(*event) && refreshCurrentPage()) {
        event->accept();
        return;
    }
    // Enter or Return on a focused button presses it on every page, as Space does. Outside a dialog a QPushButton
    // that is not autoDefault lets these keys go, and they come up here from the focus widget.
    const int key = event->key();
    if ((key == Qt::Key_Return || key == Qt::Key_Enter) &&
        (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier) {
        auto *button = qobject_cast<QPushButton *>(QApplication::focusWidget());
        if (button && isAncestorOf(button) && button->isEnabled()) {
            event->accept();
            button->click();
            return;
        }
    }
    QTabWidget::keyPressEvent(event);
}

void BackOfficeView::showEvent(QShowEvent *event)
{
    QTabWidget::showEvent(event);
    refreshIfStale();
    refreshAttention();
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
