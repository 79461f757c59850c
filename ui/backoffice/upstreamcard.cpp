#include "upstreamcard.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "terminalcontext.h"
#include "upstreamapi.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

QLineEdit *secretEdit(QWidget *parent, const char *name)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(QLatin1String(name));
    edit->setEchoMode(QLineEdit::Password);
    edit->setMaxLength(256);
    return edit;
}

} // namespace

UpstreamCard::UpstreamCard(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_state(new QLabel(this)), m_webhookUrl(new QLabel(this)),
      m_baseUrl(new QLineEdit(this)), m_keyId(new QLineEdit(this)), m_keySecret(secretEdit(this, "upstreamKeySecret")),
      m_webhookPassword(secretEdit(this, "upstreamWebhookPassword")),
      m_webhookSecret(secretEdit(this, "upstreamWebhookSecret")), m_save(new QPushButton(tr("Save &upstream"), this)),
      m_check(new QPushButton(tr("C&heck"), this)), m_clear(new QPushButton(tr("Clea&r…"), this)),
      m_checkResult(new QLabel(this)), m_notice(BackOfficeUi::notice(this))
{
    setObjectName(QStringLiteral("card"));
    setAttribute(Qt::WA_StyledBackground);
    QLabel *general = BackOfficeUi::generalError(this);
    general->setObjectName(QStringLiteral("upstreamError"));
    m_errors = std::make_unique<FormErrors>(general);
    m_notice->setObjectName(QStringLiteral("upstreamNotice"));

    m_state->setObjectName(QStringLiteral("upstreamStateText"));
    m_state->setWordWrap(true);
    Look::set(m_state, "strong");
    m_webhookUrl->setObjectName(QStringLiteral("upstreamWebhookUrl"));
    m_webhookUrl->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_webhookUrl->setWordWrap(true);
    m_baseUrl->setObjectName(QStringLiteral("upstreamBaseUrl"));
    m_baseUrl->setPlaceholderText(tr("https://distributor.example.in/api/v1"));
    m_baseUrl->setMaxLength(500);
    m_keyId->setObjectName(QStringLiteral("upstreamKeyId"));
    m_keyId->setPlaceholderText(tr("The key id the upstream gave this shop"));
    m_keyId->setMaxLength(128);
    m_keySecret->setPlaceholderText(tr("Typed again on every save; never shown back"));
    m_webhookPassword->setPlaceholderText(tr("Optional: the password of the upstream's webhooks"));
    m_webhookSecret->setPlaceholderText(tr("Optional: the upstream's webhook signing secret (whsec_…)"));
    m_save->setObjectName(QStringLiteral("saveUpstream"));
    BackOfficeUi::makePrimary(m_save);
    m_check->setObjectName(QStringLiteral("checkUpstream"));
    m_clear->setObjectName(QStringLiteral("clearUpstream"));
    m_checkResult->setObjectName(QStringLiteral("upstreamCheckResult"));
    m_checkResult->setWordWrap(true);
    m_checkResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_checkResult->hide();

    const QList<std::pair<QString, QLabel *>> fields{{QStringLiteral("base_url"), FormErrors::makeLabel(this)},
                                                     {QStringLiteral("key_id"), FormErrors::makeLabel(this)},
                                                     {QStringLiteral("key_secret"), FormErrors::makeLabel(this)},
                                                     {QStringLiteral("webhook_password"), FormErrors::makeLabel(this)},
                                                     {QStringLiteral("webhook_secret"), FormErrors::makeLabel(this)}};
    for (const auto &[field, label] : fields) {
        label->setObjectName(QStringLiteral("upstreamError_") + field);
        m_errors->addField(field, label);
    }
    auto *form = new QFormLayout;
    form->setVerticalSpacing(4);
    const QList<std::pair<QString, QLineEdit *>> rows{{tr("Base URL"), m_baseUrl},
                                                      {tr("Key id"), m_keyId},
                                                      {tr("Key secret"), m_keySecret},
                                                      {tr("Webhook password"), m_webhookPassword},
                                                      {tr("Webhook secret"), m_webhookSecret}};
    for (int i = 0; i < rows.size(); ++i) {
        form->addRow(rows.at(i).first, rows.at(i).second);
        form->addRow(QString(), fields.at(i).second);
    }

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_save);
    buttons->addWidget(m_check);
    buttons->addStretch();
    buttons->addWidget(m_clear);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(20, 14, 20, 14);
    layout->addWidget(BackOfficeUi::heading(tr("Upstream (live sales)"), this));
    layout->addWidget(BackOfficeUi::hint(
        tr("Live sales are sent to this provider (a distributor or aggregator speaking the same API). Kept by the "
           "server; a change applies to the next live sale without a restart."),
        this));
    layout->addWidget(m_state);
    layout->addWidget(m_webhookUrl);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_checkResult);
    layout->addWidget(general);
    layout->addWidget(m_notice);

    setTabOrder(m_baseUrl, m_keyId);
    setTabOrder(m_keyId, m_keySecret);
    setTabOrder(m_keySecret, m_webhookPassword);
    setTabOrder(m_webhookPassword, m_webhookSecret);
    setTabOrder(m_webhookSecret, m_save);
    setTabOrder(m_save, m_check);
    setTabOrder(m_check, m_clear);

    for (QLineEdit *edit : {m_baseUrl, m_keyId, m_keySecret, m_webhookPassword, m_webhookSecret})
        connect(edit, &QLineEdit::returnPressed, this, &UpstreamCard::onSaveClicked);
    connect(m_save, &QPushButton::clicked, this, &UpstreamCard::onSaveClicked);
    connect(m_check, &QPushButton::clicked, this, &UpstreamCard::onCheckClicked);
    connect(m_clear, &QPushButton::clicked, this, &UpstreamCard::onClearClicked);
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
    m_state->setText(tr("State: %1").arg(status.description()));
    m_webhookUrl->setText(
        tr("The upstream sends its webhooks to %1 (use the address by which the upstream reaches this server).")
            .arg(webhookUrl()));
    // What the person typed stays until it is saved or cleared.
    if (!m_baseUrl->isModified())
        m_baseUrl->setText(status.baseUrl);
    if (!m_keyId->isModified())
        m_keyId->setText(status.keyId);
    m_check->setEnabled(status.configured);
    m_clear->setEnabled(status.configured);
}

void UpstreamCard::setBusy(bool busy)
{
    m_save->setEnabled(!busy);
    m_check->setEnabled(!busy && m_status.configured);
    m_clear->setEnabled(!busy && m_status.configured);
}

void UpstreamCard::onSaveClicked()
{
    if (!m_save->isEnabled())
        return;
    m_errors->clear();
    m_checkResult->hide();
    BackOfficeUi::showNotice(m_notice, QString());
    const QString baseUrl = m_baseUrl->text().trimmed();
    const QString keyId = m_keyId->text().trimmed();
    // Only emptiness is checked here; the server judges the URL (http/https, ending in /api/v1).
    if (baseUrl.isEmpty())
        m_errors->showAt(QStringLiteral("base_url"), tr("Enter the upstream's base URL, ending in /api/v1."));
    if (keyId.isEmpty())
        m_errors->showAt(QStringLiteral("key_id"), tr("Enter the key id the upstream gave this shop."));
    if (m_keySecret->text().isEmpty())
        m_errors->showAt(QStringLiteral("key_secret"),
                         tr("Enter the key secret: it is never shown back, so it is typed again on every save."));
    if (m_errors->hasErrors())
        return;
    QJsonObject body{{QStringLiteral("base_url"), baseUrl},
                     {QStringLiteral("key_id"), keyId},
                     {QStringLiteral("key_secret"), m_keySecret->text()}};
    if (!m_webhookPassword->text().isEmpty())
        body.insert(QStringLiteral("webhook_password"), m_webhookPassword->text());
    if (!m_webhookSecret->text().isEmpty())
        body.insert(QStringLiteral("webhook_secret"), m_webhookSecret->text());
    setBusy(true);
    UpstreamApi(m_context.api()).save(body).then(this, [this](const Answer<UpstreamInfo> &answer) {
        setBusy(false);
        if (!answer.ok()) {
            m_errors->show(*answer.error);
            return;
        }
        for (QLineEdit *edit : {m_keySecret, m_webhookPassword, m_webhookSecret})
            edit->clear();
        m_baseUrl->setModified(false);
        m_keyId->setModified(false);
        showStatus(UpstreamStatus::from(*answer.value));
        BackOfficeUi::showNotice(
            m_notice,
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
            m_checkResult->hide();
            setBusy(true);
            UpstreamApi(m_context.api()).clear().then(this, [this](const Answer<UpstreamInfo> &answer) {
                setBusy(false);
                if (!answer.ok()) {
                    m_errors->show(*answer.error);
                    return;
                }
                m_baseUrl->setModified(false);
                m_keyId->setModified(false);
                showStatus(UpstreamStatus::from(*answer.value));
                BackOfficeUi::showNotice(m_notice, tr("Cleared. Live sales are refused now."));
                emit changed();
            });
        });
}

void UpstreamCard::onCheckClicked()
{
    if (!m_check->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    m_checkResult->setText(tr("Checking…"));
    Look::set(m_checkResult, "");
    m_checkResult->show();
    setBusy(true);
    UpstreamApi(m_context.api()).check().then(this, [this](const Answer<UpstreamCheck> &answer) {
        setBusy(false);
        if (!answer.ok()) {
            m_checkResult->hide();
            m_errors->show(*answer.error);
            return;
        }
        const bool ok = answer.value->ok;
        m_checkResult->setText(answer.value->message);
        m_checkResult->setProperty("ok", ok);
        Look::set(m_checkResult, ok ? "notice" : "problem");
        refresh(); // the check moved the state (online / unreachable)
    });
}
