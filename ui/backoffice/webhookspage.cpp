#include "webhookspage.h"

#include "backofficeui.h"
#include "webhookdeliveriespane.h"
#include "webhookendpointpane.h"
#include "webhookinboxpane.h"
#include "widgets/look.h"

#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

namespace {

constexpr int kFollowIntervalMs = 1500;
constexpr int kFollowTicks = 8;

} // namespace

WebhooksPage::WebhooksPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_endpoint(new WebhookEndpointPane(context, this)),
      m_deliveries(new WebhookDeliveriesPane(context, this)), m_inbox(new WebhookInboxPane(context, this))
{
    Look::set(this, "page");
    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("webhookTabs"));
    tabs->addTab(m_deliveries, tr("Delivery log"));
    tabs->addTab(m_inbox, tr("Built-in inbox"));

    // The endpoint form and the logs scroll together when kiosk fonts make them taller than the page.
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(BackOfficeUi::title(tr("Webhooks"), this));
    layout->addWidget(m_endpoint);
    layout->addWidget(tabs, 1);
    auto *outer = new QVBoxLayout(this);
    outer->addWidget(BackOfficeUi::scrollArea(content, this));

    m_follow.setInterval(kFollowIntervalMs);
    connect(&m_follow, &QTimer::timeout, this, [this] {
        if (--m_followTicks <= 0)
            m_follow.stop();
        m_deliveries->reload(false);
        m_inbox->reload(false);
    });
    connect(m_endpoint, &WebhookEndpointPane::deliveryQueued, this, &WebhooksPage::followDeliveries);
    connect(m_deliveries, &WebhookDeliveriesPane::deliveryQueued, this, &WebhooksPage::followDeliveries);
}

CollectionModel *WebhooksPage::deliveriesModel() const
{
    return m_deliveries->model();
}

CollectionModel *WebhooksPage::inboxModel() const
{
    return m_inbox->model();
}

void WebhooksPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void WebhooksPage::refresh()
{
    m_endpoint->reload();
    m_deliveries->reload();
    m_inbox->reload();
}

void WebhooksPage::followDeliveries()
{
    m_followTicks = kFollowTicks;
    m_deliveries->reload();
    m_inbox->reload();
    m_follow.start();
}
