#include "webhookendpointpane.h"

#include "backofficeui.h"
#include "clock.h"
#include "secretdialog.h"
#include "terminalcontext.h"
#include "ui_webhookendpointpane.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>

WebhookEndpointPane::WebhookEndpointPane(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_api(context.api()), m_ui(std::make_unique<Ui::WebhookEndpointPane>())
{
    m_ui->setupUi(this);
    Look::set(this, "card");
    setAttribute(Qt::WA_StyledBackground);
    BackOfficeUi::makePrimary(m_ui->saveEndpoint);
    QLabel *general = BackOfficeUi::generalError(this);
    general->setObjectName(QStringLiteral("endpointError"));
    m_notice = BackOfficeUi::notice(this);
    m_notice->setObjectName(QStringLiteral("endpointNotice"));
    m_ui->paneLayout->addWidget(general);
    m_ui->paneLayout->addWidget(m_notice);
    m_errors = std::make_unique<FormErrors>(general);
    for (QLabel *fieldError : {m_ui->urlError, m_ui->passwordError})
        fieldError->setObjectName(QStringLiteral("fieldError")); // the test handle of FormErrors (its look: addField)
    m_errors->addField(QStringLiteral("url"), m_ui->urlError);
    m_errors->addField(QStringLiteral("webhook_password"), m_ui->passwordError);

    if (context.api().isTestMode()) {
        connect(m_ui->useInbox, &QPushButton::clicked, this, [this] {
            m_ui->webhookUrl->setText(WebhooksApi::inboxUrl(m_context.api().baseUrl()).toString());
            m_ui->webhookPassword->setFocus();
        });
    } else {
        delete m_ui->useInbox; // live endpoints go to real receivers only
        m_ui->useInbox = nullptr;
    }

    connect(m_ui->showWebhookPassword, &QPushButton::toggled, this, [this](bool shown) {
        m_ui->webhookPassword->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
    });
    connect(m_ui->webhookUrl, &QLineEdit::returnPressed, m_ui->webhookPassword, qOverload<>(&QWidget::setFocus));
    connect(m_ui->webhookPassword, &QLineEdit::returnPressed, this, &WebhookEndpointPane::onSaveClicked);
    connect(m_ui->saveEndpoint, &QPushButton::clicked, this, &WebhookEndpointPane::onSaveClicked);
    connect(m_ui->rotateSecret, &QPushButton::clicked, this, &WebhookEndpointPane::onRotateClicked);
    connect(m_ui->testDelivery, &QPushButton::clicked, this, &WebhookEndpointPane::onTestClicked);
}

WebhookEndpointPane::~WebhookEndpointPane() = default;

void WebhookEndpointPane::reload()
{
    m_api.endpoint().then(this, [this](const Answer<WebhookEndpointInfo> &answer) {
        if (!answer.ok()) {
            if (answer.error->reason() == QLatin1String("webhook_endpoint_not_configured"))
                m_ui->endpointState->setText(
                    tr("No webhook endpoint yet. Enter the URL that should receive sale events and a "
                       "password, then save."));
            else
                m_ui->endpointState->setText(tr("Could not read the endpoint: %1").arg(answer.error->description()));
            m_ui->rotateSecret->setEnabled(false);
            m_ui->testDelivery->setEnabled(false);
            return;
        }
        show(*answer.value);
    });
}

void WebhookEndpointPane::show(const WebhookEndpointInfo &endpoint)
{
    QStringList lines;
    lines << (endpoint.builtinInbox ? tr("Events go to this server's built-in inbox (the test-mode default).")
                                    : tr("Events go to %1").arg(endpoint.url));
    if (!endpoint.enabled)
        lines << tr("DISABLED: %1. Save the endpoint again to turn it back on.")
                     .arg(endpoint.disabledReason.value_or(QString()));
    if (endpoint.previousSecretExpiresAt)
        lines << tr("The previous secret keeps signing until %1 (IST).")
                     .arg(IstTime::format(*endpoint.previousSecretExpiresAt));
    m_ui->endpointState->setText(lines.join(QLatin1Char('\n')));
    m_ui->endpointState->setProperty("off", !endpoint.enabled); // red in style.qss
    m_ui->endpointState->style()->unpolish(m_ui->endpointState);
    m_ui->endpointState->style()->polish(m_ui->endpointState);
    if (!m_ui->webhookUrl->hasFocus() && !m_ui->webhookPassword->hasFocus()) {
        m_ui->webhookUrl->setText(endpoint.builtinInbox ? QString() : endpoint.url);
        m_ui->webhookPassword->setText(endpoint.webhookPassword);
    }
    m_ui->rotateSecret->setEnabled(true);
    m_ui->testDelivery->setEnabled(true);
}

void WebhookEndpointPane::showSecretIfAny(const WebhookEndpointInfo &endpoint, bool evenForTheInbox)
{
    if (!endpoint.secret || (endpoint.builtinInbox && !evenForTheInbox))
        return; // the built-in inbox checks signatures itself; nobody needs its secret
    auto *dialog =
        new SecretDialog(tr("Webhook signing secret"),
                         tr("Events to %1 are signed with this secret (webhook-signature header).").arg(endpoint.url),
                         tr("Secret"), *endpoint.secret, this);
    dialog->open();
}

void WebhookEndpointPane::onSaveClicked()
{
    if (!m_ui->saveEndpoint->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    const QString url = m_ui->webhookUrl->text().trimmed();
    if (url.isEmpty()) {
        m_errors->showAt(QStringLiteral("url"), tr("Enter the http:// or https:// address that receives events."));
        m_ui->webhookUrl->setFocus();
        return;
    }
    if (m_ui->webhookPassword->text().isEmpty()) {
        m_errors->showAt(QStringLiteral("webhook_password"),
                         tr("Enter a password; the receiver checks it in every event."));
        m_ui->webhookPassword->setFocus();
        return;
    }
    m_ui->saveEndpoint->setEnabled(false);
    m_api.setEndpoint(url, m_ui->webhookPassword->text()).then(this, [this](const Answer<WebhookEndpointInfo> &answer) {
        m_ui->saveEndpoint->setEnabled(true);
        if (!answer.ok()) {
            m_errors->show(*answer.error);
            (answer.error->field() == QLatin1String("webhook_password") ? m_ui->webhookPassword : m_ui->webhookUrl)
                ->setFocus();
            return;
        }
        m_ui->webhookUrl->clearFocus();
        m_ui->webhookPassword->clearFocus();
        show(*answer.value);
        BackOfficeUi::showNotice(m_notice, tr("Saved. Press \"Send test delivery\" to check the receiver."));
        m_ui->testDelivery->setFocus();
        showSecretIfAny(*answer.value, false);
    });
}

void WebhookEndpointPane::onRotateClicked()
{
    BackOfficeUi::confirm(
        this, tr("Rotate secret"),
        tr("Make a new signing secret?\nThe old one keeps signing for 24 hours, so the receiver can switch over."),
        tr("Rotate"), [this] {
            m_errors->clear();
            m_api.rotateSecret().then(this, [this](const Answer<WebhookEndpointInfo> &answer) {
                if (!answer.ok()) {
                    m_errors->show(*answer.error);
                    return;
                }
                show(*answer.value);
                BackOfficeUi::showNotice(m_notice, tr("New secret made."));
                showSecretIfAny(*answer.value, true); // a rotation is always shown
            });
        });
}

void WebhookEndpointPane::onTestClicked()
{
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    m_ui->testDelivery->setEnabled(false);
    m_api.sendTest().then(this, [this](const Answer<WebhookEventInfo> &answer) {
        m_ui->testDelivery->setEnabled(true);
        if (!answer.ok()) {
            m_errors->show(*answer.error);
            return;
        }
        BackOfficeUi::showNotice(
            m_notice, tr("Test event %1 queued; watch the delivery log below.").arg(answer.value->webhookId));
        emit deliveryQueued();
    });
}
