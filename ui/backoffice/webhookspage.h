#pragma once

#include <QTimer>
#include <QWidget>

class CollectionModel;
class TerminalContext;
class WebhookDeliveriesPane;
class WebhookEndpointPane;
class WebhookInboxPane;

/// Back office: webhooks of the terminal key's mode (issue 6, item 5), in three panes: the endpoint
/// (WebhookEndpointPane), the delivery log (WebhookDeliveriesPane) and the built-in inbox (WebhookInboxPane). After a
/// test or a redelivery the log and inbox refresh a few times, since delivery happens in the background. Loads when
/// shown.
class WebhooksPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhooksPage)

public:
    WebhooksPage(TerminalContext &context, QWidget *parent = nullptr);

    CollectionModel *deliveriesModel() const;
    CollectionModel *inboxModel() const;
    /// Reloads endpoint, delivery log and inbox.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    /// Refreshes the log and inbox a few times while background deliveries happen.
    void followDeliveries();

    WebhookEndpointPane *m_endpoint;
    WebhookDeliveriesPane *m_deliveries;
    WebhookInboxPane *m_inbox;
    QTimer m_follow;
    int m_followTicks = 0;
};
