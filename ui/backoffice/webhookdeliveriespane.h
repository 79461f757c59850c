#pragma once

#include "webhooksapi.h"

#include <QWidget>

#include <memory>

class CollectionModel;
class QTableView;
class TerminalContext;

namespace Ui {
class WebhookDeliveriesPane;
}

/// The webhook delivery log (WebhooksApi::deliveriesPath): every attempt, newest first, filtered by event state,
/// answer and transaction on the server, with "Redeliver selected" for an event that is no longer being retried.
class WebhookDeliveriesPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookDeliveriesPane)

public:
    explicit WebhookDeliveriesPane(TerminalContext &context, QWidget *parent = nullptr);
    ~WebhookDeliveriesPane() override;

    CollectionModel *model() const { return m_model; }
    /// Loads the first page with the filters as they are (unless a page is on its way and `evenIfLoading` is false).
    void reload(bool evenIfLoading = true);

signals:
    /// An event was queued again: the log will change in the background.
    void deliveryQueued();

private:
    void onRedeliverClicked();
    void updateButtons();

    WebhooksApi m_api;
    std::unique_ptr<Ui::WebhookDeliveriesPane> m_ui; ///< the form of webhookdeliveriespane.ui
    CollectionModel *m_model;
    QTableView *m_table;
};
