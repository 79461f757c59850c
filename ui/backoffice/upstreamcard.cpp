#include "upstreamcard.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "terminalcontext.h"
#include "ui_upstreamcard.h"
#include "upstreamapi.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

UpstreamCard::UpstreamCard(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_ui(std::make_unique<Ui::UpstreamCard>())
{
    m_ui->setupUi(this);
    BackOfficeUi::makeCard(this);
    m_ui->cardLayout->insertWidget(0, BackOfficeUi::heading(tr("Upstream (live sales)"), this));
    m_errors = std::make_unique<FormErrors>(m_ui->upstreamError);
    const std::pair<const char *, QLabel *> fields[] = {{"base_url", m_ui->upstreamError_base_url},
                                                        {"key_id", m_ui->upstreamError_key_id},
                                                        {"key_secret", m_ui->upstreamError_key_secret},
                                                        {"webhook_password", m_ui->upstreamError_webhook_password},
                                                        {"webhook_secret", m_ui->upstreamError_webhook_secret}};
    for (const auto &[field, label] : fields)
        m_errors->addField(QLatin1String(field), label);

    for (QLineEdit *edit : {m_ui->upstreamBaseUrl, m_ui->upstreamKeyId, m_ui->upstreamKeySecret,
                            m_ui->upstreamWebhookPassword, m_ui->upstreamWebhookSecret})
        connect(edit, &QLineEdit::returnPressed, this, &UpstreamCard::onSaveClicked);
    connect(m_ui->saveUpstream, &QPushButton::clicked, this, &UpstreamCard::onSaveClicked);
    connect(m_ui->checkUpstream, &QPushButton::clicked, this, &UpstreamCard::onCheckClicked);
    connect(m_ui->clearUpstream, &QPushButton::clicked, this, &UpstreamCard::onClearClicked);
    showStatus(UpstreamStatus{});
}

UpstreamCard::~UpstreamCard() = default;

QString UpstreamCard::webhookUrl() const
{
    QUrl url = m_context.api().baseUrl();
    url.setPath(m_status.webhookPath);
    url.setQuery(QString());
    return url.toString();
}

void UpstreamCard::refresh()
{
    if (m_loadCall)
        return;
    m_loadCall = UpstreamApi(m_context.api()).get().then(this, [this](const Answer<UpstreamInfo> &answer) {
        m_loadCall = nullptr;
        if (!answer.ok()) {
            m_errors->show(*answer.error);
            return;
        }
        showStatus(UpstreamStatus::from(*answer.value));
    });
}

void UpstreamCard::showStatus(const UpstreamStatus &status)
{
    m_status = status;
    m_ui->upstreamStateText->setText(tr("State: %1").arg(status.description()));
    m_ui->upstreamWebhookUrl->setText(
        tr("The upstream sends its webhooks to %1 (use the address by which the upstream reaches this server).")
            .arg(webhookUrl()));
    // What the person typed stays until it is saved or cleared.
    if (!m_ui->upstreamBaseUrl->isModified())
        m_ui->upstreamBaseUrl->setText(status.baseUrl);
    if (!m_ui->upstreamKeyId->isModified())
        m_ui->upstreamKeyId->setText(status.keyId);
    m_ui->checkUpstream->setEnabled(status.configured);
    m_ui->clearUpstream->setEnabled(status.configured);
}

void UpstreamCard::setBusy(bool busy)
{
    m_ui->saveUpstream->setEnabled(!busy);
    m_ui->checkUpstream->setEnabled(!busy && m_status.configured);
    m_ui->clearUpstream->setEnabled(!busy && m_status.configured);
}

void UpstreamCard::onSaveClicked()
{
    if (!m_ui->saveUpstream->isEnabled())
        return;
    m_errors->clear();
    m_ui->upstreamCheckResult->hide();
    BackOfficeUi::showNotice(m_ui->upstreamNotice, QString());
    const QString baseUrl = m_ui->upstreamBaseUrl->text().trimmed();
    const QString keyId = m_ui->upstreamKeyId->text().trimmed();
    // Only emptiness is checked here; the server judges the URL (http/https, ending in /api/v1).
    if (baseUrl.isEmpty())
        m_errors->showAt(QStringLiteral("base_url"), tr("Enter the upstream's base URL, ending in /api/v1."));
    if (keyId.isEmpty())
        m_errors->showAt(QStringLiteral("key_id"), tr("Enter the key id the upstream gave this shop."));
    if (m_ui->upstreamKeySecret->text().isEmpty())
        m_errors->showAt(QStringLiteral("key_secret"),
                         tr("Enter the key secret: it is never shown back, so it is typed again on every save."));
    if (m_errors->hasErrors())
        return;
    QJsonObject body{{QStringLiteral("base_url"), baseUrl},
                     {QStringLiteral("key_id"), keyId},
                     {QStringLiteral("key_secret"), m_ui->upstreamKeySecret->text()}};
    if (!m_ui->upstreamWebhookPassword->text().isEmpty())
        body.insert(QStringLiteral("webhook_password"), m_ui->upstreamWebhookPassword->text());
    if (!m_ui->upstreamWebhookSecret->text().isEmpty())
        body.insert(QStringLiteral("webhook_secret"), m_ui->upstreamWebhookSecret->text());
    setBusy(true);
    UpstreamApi(m_context.api()).save(body).then(this, [this](const Answer<UpstreamInfo> &answer) {
        setBusy(false);
        if (!answer.ok()) {
            m_errors->show(*answer.error);
            return;
        }
        for (QLineEdit *edit : {m_ui->upstreamKeySecret, m_ui->upstreamWebhookPassword, m_ui->upstreamWebhookSecret})
            edit->clear();
        m_ui->upstreamBaseUrl->setModified(false);
        m_ui->upstreamKeyId->setModified(false);
        showStatus(UpstreamStatus::from(*answer.value));
        BackOfficeUi::showNotice(
            m_ui->upstreamNotice,
            tr("Saved. The next live sale goes to %1; press Check to try the key now.").arg(m_status.baseUrl));
        emit changed();
    });
}

void UpstreamCard::onClearClicked()
{
    if (!m_status.configured)
        return;
    BackOfficeUi::confirm(
        this, tr("Clear the upstream"),
        tr("Remove the upstream %1? Live sales are refused until one is saved again; sales already "
           "waiting on it keep being followed.")
            .arg(m_status.baseUrl),
        tr("Clear upstream"), [this] {
            m_errors->clear();
            m_ui->upstreamCheckResult->hide();
            setBusy(true);
            UpstreamApi(m_context.api()).clear().then(this, [this](const Answer<UpstreamInfo> &answer) {
                setBusy(false);
                if (!answer.ok()) {
                    m_errors->show(*answer.error);
                    return;
                }
                m_ui->upstreamBaseUrl->setModified(false);
                m_ui->upstreamKeyId->setModified(false);
                showStatus(UpstreamStatus::from(*answer.value));
                BackOfficeUi::showNotice(m_ui->upstreamNotice, tr("Cleared. Live sales are refused now."));
                emit changed();
            });
        });
}

void UpstreamCard::onCheckClicked()
{
    if (!m_ui->checkUpstream->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_ui->upstreamNotice, QString());
    m_ui->upstreamCheckResult->setText(tr("Checking…"));
    Look::set(m_ui->upstreamCheckResult, "");
    m_ui->upstreamCheckResult->show();
    setBusy(true);
    UpstreamApi(m_context.api()).check().then(this, [this](const Answer<UpstreamCheck> &answer) {
        setBusy(false);
        if (!answer.ok()) {
            m_ui->upstreamCheckResult->hide();
            m_errors->show(*answer.error);
            return;
        }
        const bool ok = answer.value->ok;
        m_ui->upstreamCheckResult->setText(answer.value->message);
        m_ui->upstreamCheckResult->setProperty("ok", ok);
        Look::set(m_ui->upstreamCheckResult, ok ? "notice" : "problem");
        refresh(); // the check moved the state (online / unreachable)
    });
}
