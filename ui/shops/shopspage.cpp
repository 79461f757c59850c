#include "shopspage.h"

#include "backoffice/backofficeui.h"
#include "fundrequestspane.h"
#include "shopdetailpane.h"
#include "shoplistpane.h"
#include "widgets/look.h"

#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

ShopsPage::ShopsPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_shops(new ShopListPane(context, this)), m_fundRequests(new FundRequestsPane(context, this)),
      m_tabs(new QTabWidget(this))
{
    setObjectName(QStringLiteral("shopsPage"));
    Look::set(this, "page");
    m_tabs->setObjectName(QStringLiteral("shopsTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_shops, tr("Sh&ops"));
    m_tabs->addTab(m_fundRequests, tr("&Fund requests"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(BackOfficeUi::title(tr("Shops"), this));
    layout->addWidget(m_tabs, 1);

    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (isVisible()) // nothing is asked of the server before the page is on screen
            refresh();
    });
    connect(m_fundRequests, &FundRequestsPane::decided, this, [this] {
        emit shopsChanged();
        m_shops->refresh(); // the shop's balance changed: its row is loaded again when shown
    });
    connect(m_shops->detail(), &ShopDetailPane::shopChanged, this, &ShopsPage::shopsChanged);
}

void ShopsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void ShopsPage::refresh()
{
    if (m_tabs->currentWidget() == m_fundRequests)
        m_fundRequests->refresh();
    else
        m_shops->refresh();
}
