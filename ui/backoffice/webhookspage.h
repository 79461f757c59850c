#pragma once

#include "apiclient.h"

#include <QTimer>
#include <QWidget>

#include <memory>

class CollectionModel;
class FormErrors;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class TerminalContext;

/// Back office: webhooks of the terminal key's mode (issue 6, item 5) — the endpoint URL and
/// webhook_password (GET/PUT /api/v1/webhook-endpoint), secret rotation (POST
/// /api/v1/webhook-endpoint/rotate-secret; a new secret is shown once), a test delivery (POST
/// /api/v1/webhook-endpoint/test), the delivery log with filters and redeliver (GET
/// /api/v1/webhook-deliveries, POST /api/v1/webhook-deliveries/{id}/redeliver) and the built-in
/// inbox viewer (GET /api/v1/webhook-inbox). After a test or a redelivery the log refreshes a few
/// times, since delivery happens in the background. Loads when shown.
class WebhooksPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhooksPage)

public:
    WebhooksPage(TerminalContext &context, QWidget *parent = nullptr);
    ~WebhooksPage() override;

    CollectionModel *deliveriesModel() const { return m_deliveries; }
    CollectionModel *inboxModel() const { return m_inbox; }
    /// Reloads endpoint, delivery log and inbox.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void loadEndpoint();
    void showEndpoint(const QJsonObject &endpoint);
    void showSecretIfAny(const QJsonObject &endpoint);
    void onSaveClicked();
    void onRotateClicked();
    void onTestClicked();
    void onRedeliverClicked();
    void applyDeliveryFilter();
    void onInboxRowChanged();
    void updateButtons();
    /// Refreshes the log and inbox a few times while background deliveries happen.
    void followDeliveries();

    TerminalContext &m_context;
    CollectionModel *m_deliveries;
    CollectionModel *m_inbox;
    QTimer m_follow;
    int m_followTicks = 0;

    QLabel *m_state;
    QLineEdit *m_url;
    QLineEdit *m_password;
    QPushButton *m_save;
    QPushButton *m_rotate;
    QPushButton *m_test;
    QLabel *m_notice;
    std::unique_ptr<FormErrors> m_errors;

    QComboBox *m_status;
    QComboBox *m_result;
    QLineEdit *m_transaction;
    QPushButton *m_redeliver;
    QLabel *m_logNotice;
    QLabel *m_logError;
    QTableView *m_deliveriesTable;
    QTableView *m_inboxTable;
    QPlainTextEdit *m_inboxBody;
};
