#include "terminalview.h"

#include "apiclient.h"
#include "terminal/planspage.h"
#include "terminal/verifypage.h"
#include "widgets/look.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QShortcut>
#include <QStackedWidget>
#include <QVBoxLayout>
// SCREEN INCLUDES go here
#include "backoffice/backofficeview.h"
#include "terminal/dthrechargepage.h"
#include "terminal/mobilerechargepage.h"
#include "terminal/saleflow.h"
#include "terminal/voucherpage.h"

TerminalView::TerminalView(TerminalContext &context, bool kiosk, QWidget *parent)
    : QWidget(parent), m_context(context), m_kiosk(kiosk)
{
    m_banner = new QLabel(tr("TEST MODE — sandbox sales, no real recharges, sandbox wallet"), this);
    m_banner->setObjectName(QStringLiteral("testModeBanner"));
    Look::set(m_banner, "testModeBanner");
    m_banner->setAlignment(Qt::AlignCenter);
    m_banner->setVisible(context.api().isTestMode());

    m_navigation = new QListWidget(this);
    m_navigation->setObjectName(QStringLiteral("navigation"));
    Look::set(m_navigation, "navigation");
    m_navigation->setFixedWidth(kiosk ? 260 : 210);
    m_navigation->setFocusPolicy(Qt::NoFocus);
    m_stack = new QStackedWidget(this);

    auto *lock = new QPushButton(tr("Lock (Ctrl+L)"), this);
    lock->setObjectName(QStringLiteral("lockButton"));
    connect(lock, &QPushButton::clicked, this, &TerminalView::lockRequested);
    auto *lockShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    connect(lockShortcut, &QShortcut::activated, this, &TerminalView::lockRequested);

    auto *side = new QVBoxLayout;
    side->setContentsMargins(0, 0, 0, 0);
    side->addWidget(m_navigation, 1);
    side->addWidget(lock);
    auto *body = new QHBoxLayout;
    body->setContentsMargins(0, 0, 0, 0);
    body->addLayout(side);
    body->addWidget(m_stack, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addLayout(body, 1);

    addScreen(QStringLiteral("verify"), tr("Verify customer"), new VerifyPage(m_context, this), false);
    auto *plans = new PlansPage(m_context, this);
    addScreen(QStringLiteral("plans"), tr("Plans"), plans, false);
    connect(plans, &PlansPage::sellPlanRequested, this,
            [this](const QString &operatorCode, const QString &circleCode, const PlanItem &plan) {
                if (auto *mobile = qobject_cast<MobileRechargePage *>(screen(QStringLiteral("mobile")))) {
                    mobile->fillFromPlan(operatorCode, circleCode, plan);
                    showScreen(QStringLiteral("mobile"));
                }
            });
    // SCREENS go here
    // (sales screens stay below the marker so verify and plans, added above it, come first)
    addScreen(QStringLiteral("mobile"), tr("Mobile recharge"), new MobileRechargePage(m_context, this), false);
    addScreen(QStringLiteral("dth"), tr("DTH recharge"), new DthRechargePage(m_context, this), false);
    addScreen(QStringLiteral("voucher"), tr("Gift voucher"), new VoucherPage(m_context, this), false);
    addScreen(QStringLiteral("backoffice"), tr("Back office"), new BackOfficeView(m_context, this), true);

    connect(m_navigation, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < m_screens.size()) {
            m_stack->setCurrentWidget(m_screens.at(row).widget);
            focusCurrentScreen();
        }
    });
    const QList<Qt::Key> keys{Qt::Key_F1, Qt::Key_F2, Qt::Key_F3, Qt::Key_F4, Qt::Key_F5, Qt::Key_F6};
    for (qsizetype i = 0; i < keys.size(); ++i) {
        auto *shortcut = new QShortcut(QKeySequence(keys.at(i)), this);
        connect(shortcut, &QShortcut::activated, this, [this, i] {
            if (i < m_screens.size() && !m_navigation->item(int(i))->isHidden())
                m_navigation->setCurrentRow(int(i));
        });
    }
    if (!m_screens.isEmpty())
        m_navigation->setCurrentRow(0);
    applyUser();
}

void TerminalView::addScreen(const QString &id, const QString &title, QWidget *widget, bool adminOnly)
{
    const int index = int(m_screens.size());
    m_screens.append(Screen{id, title, widget, adminOnly});
    m_stack->addWidget(widget);
    m_navigation->addItem(index < 6 ? tr("%1   F%2").arg(title).arg(index + 1) : title);
}

bool TerminalView::showScreen(const QString &id)
{
    for (qsizetype i = 0; i < m_screens.size(); ++i) {
        if (m_screens.at(i).id == id && !m_navigation->item(int(i))->isHidden()) {
            m_navigation->setCurrentRow(int(i));
            return true;
        }
    }
    return false;
}

QWidget *TerminalView::screen(const QString &id) const
{
    for (const Screen &s : m_screens) {
        if (s.id == id)
            return s.widget;
    }
    return nullptr;
}

void TerminalView::applyUser()
{
    const bool admin = m_context.user().isAdmin;
    for (qsizetype i = 0; i < m_screens.size(); ++i)
        m_navigation->item(int(i))->setHidden(m_screens.at(i).adminOnly && !admin);
    const int row = m_navigation->currentRow();
    if (row >= 0 && m_navigation->item(row)->isHidden())
        m_navigation->setCurrentRow(0);
}

void TerminalView::focusCurrentScreen()
{
    QWidget *screen = m_stack->currentWidget();
    if (!screen)
        return;
    // A sale screen knows its first field best (the form, or the default button of a result).
    if (auto *flow = screen->findChild<SaleFlow *>(); flow && flow->isVisible()) {
        flow->focusCurrentStage();
        return;
    }
    for (QWidget *widget = screen->nextInFocusChain(); widget != screen; widget = widget->nextInFocusChain()) {
        if (screen->isAncestorOf(widget) && widget->isVisible() && widget->isEnabled() &&
            (widget->focusPolicy() & Qt::TabFocus) == Qt::TabFocus) {
            widget->setFocus(Qt::OtherFocusReason);
            return;
        }
    }
}
