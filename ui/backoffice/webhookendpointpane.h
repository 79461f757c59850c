#pragma once

#include "webhooksapi.h"

#include <QWidget>

#include <memory>

class FormErrors;
class QLabel;
class TerminalContext;

namespace Ui {
class WebhookEndpointPane;
}

/// The webhook endpoint of the terminal key's mode (issue 6, item 5): its state, URL and webhook_password
/// (WebhooksApi::endpoint/setEndpoint), secret rotation (a new secret is shown once) and a test delivery. In test
/// mode "Use built-in inbox" fills in this server's own inbox.
class WebhookEndpointPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookEndpointPane)

public:
    explicit WebhookEndpointPane(TerminalContext &context, QWidget *parent = nullptr);
    ~WebhookEndpointPane() override;

    /// Reads the endpoint again.
    void reload();

signals:
    /// A test event was queued: the delivery log will change in the background.
    void deliveryQueued();

private:
    void show(const WebhookEndpointInfo &endpoint);
    void showSecretIfAny(const WebhookEndpointInfo &endpoint, bool evenForTheInbox);
    void onSaveClicked();
    void onRotateClicked();
    void onTestClicked();

    TerminalContext &m_context;
    WebhooksApi m_api;
    std::unique_ptr<Ui::WebhookEndpointPane> m_ui; ///< the form of webhookendpointpane.ui
    std::unique_ptr<FormErrors> m_errors;
    QLabel *m_notice;
};
