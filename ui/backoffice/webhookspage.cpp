#include "webhookspage.h"

#include "backofficeui.h"
#include "collectionmodel.h"
#include "secretdialog.h"
#include "terminalcontext.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace {

using BackOfficeUi::card;

constexpr int kFollowIntervalMs = 1500;
constexpr int kFollowTicks = 8;

QString idText(const QJsonObject &item, const char *name)
{
    const QJsonValue value = item.value(QLatin1String(name));
    return value.isDouble() ? QString::number(value.toInteger()) : QString();
}

QString eventStatusText(const QString &status)
{
    if (status == QLatin1String("pending"))
        return WebhooksPage::tr("Retrying");
    if (status == QLatin1String("delivered"))
        return WebhooksPage::tr("Delivered");
    if (status == QLatin1String("failed"))
        return WebhooksPage::tr("Gave up");
    return status;
}

QList<CollectionColumn> deliveryColumns()
{
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        {WebhooksPage::tr("When (IST)"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "datetime"); }},
        {WebhooksPage::tr("Event"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "webhook_event"); }},
        {WebhooksPage::tr("Transaction"), [](const QJsonObject &i) { return idText(i, "transaction_id"); }, right},
        {WebhooksPage::tr("Try"), [](const QJsonObject &i) { return idText(i, "attempt"); }, right},
        {WebhooksPage::tr("Answer"),
         [](const QJsonObject &i) {
             const QString status = idText(i, "http_status");
             if (i.value(QStringLiteral("success")).toBool())
                 return WebhooksPage::tr("OK %1").arg(status);
             const QString error = BackOfficeUi::itemText(i, "error");
             return status.isEmpty() ? error : WebhooksPage::tr("HTTP %1 %2").arg(status, error).trimmed();
         }},
        {WebhooksPage::tr("Time"),
         [](const QJsonObject &i) { return WebhooksPage::tr("%1 ms").arg(idText(i, "latency_ms")); }, right},
        {WebhooksPage::tr("Event state"),
         [](const QJsonObject &i) { return eventStatusText(BackOfficeUi::itemText(i, "event_status")); }},
        {WebhooksPage::tr("Next try"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "next_attempt_at"); }},
        {WebhooksPage::tr("URL"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "url"); }},
    };
}

QList<CollectionColumn> inboxColumns()
{
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        {WebhooksPage::tr("Received (IST)"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "received_at"); }},
        {WebhooksPage::tr("Event"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "webhook_event"); }},
        {WebhooksPage::tr("Transaction"), [](const QJsonObject &i) { return idText(i, "transaction_id"); }, right},
        {WebhooksPage::tr("Received"),
         [](const QJsonObject &i) { return WebhooksPage::tr("%1×").arg(idText(i, "deliveries")); }, right},
        {WebhooksPage::tr("webhook-id"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "webhook_id"); }},
    };
}

} // namespace

WebhooksPage::WebhooksPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context),
      m_deliveries(new CollectionModel(context.api(), QStringLiteral("/api/v1/webhook-deliveries"), deliveryColumns(),
                                       100, this)),
      m_inbox(new CollectionModel(context.api(), QStringLiteral("/api/v1/webhook-inbox"), inboxColumns(), 100, this)),
      m_state(new QLabel(this)), m_url(new QLineEdit(this)), m_password(new QLineEdit(this)),
      m_save(new QPushButton(tr("&Save endpoint"), this)), m_rotate(new QPushButton(tr("R&otate secret…"), this)),
      m_test(new QPushButton(tr("Send &test delivery"), this)), m_notice(BackOfficeUi::notice(this)),
      m_status(new QComboBox(this)), m_result(new QComboBox(this)), m_transaction(new QLineEdit(this)),
      m_redeliver(new QPushButton(tr("Re&deliver selected"), this)), m_logNotice(BackOfficeUi::notice(this)),
      m_logError(BackOfficeUi::generalError(this)),
      m_deliveriesTable(BackOfficeUi::table(m_deliveries, QStringLiteral("deliveriesTable"), this)),
      m_inboxTable(BackOfficeUi::table(m_inbox, QStringLiteral("inboxTable"), this)),
      m_inboxBody(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("page"));
    const bool test = context.api().isTestMode();
    QLabel *general = BackOfficeUi::generalError(this);
    general->setObjectName(QStringLiteral("endpointError"));
    m_errors = std::make_unique<FormErrors>(general);

    // Endpoint
    m_state->setObjectName(QStringLiteral("endpointState"));
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_url->setObjectName(QStringLiteral("webhookUrl"));
    m_url->setPlaceholderText(tr("https://example.com/recharge-events"));
    m_url->setMaxLength(2048);
    m_password->setObjectName(QStringLiteral("webhookPassword"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setMaxLength(256);
    m_password->setPlaceholderText(tr("Sent in every event as webhook_password"));
    auto *showPassword = new QPushButton(tr("Show"), this);
    showPassword->setObjectName(QStringLiteral("showWebhookPassword"));
    showPassword->setCheckable(true);
    m_save->setObjectName(QStringLiteral("saveEndpoint"));
    BackOfficeUi::makePrimary(m_save);
    m_rotate->setObjectName(QStringLiteral("rotateSecret"));
    m_test->setObjectName(QStringLiteral("testDelivery"));
    m_notice->setObjectName(QStringLiteral("endpointNotice"));
    QLabel *urlError = FormErrors::makeLabel(this);
    QLabel *passwordError = FormErrors::makeLabel(this);
    m_errors->addField(QStringLiteral("url"), urlError);
    m_errors->addField(QStringLiteral("webhook_password"), passwordError);

    auto *passwordRow = new QHBoxLayout;
    passwordRow->addWidget(m_password, 1);
    passwordRow->addWidget(showPassword);
    auto *urlRow = new QHBoxLayout;
    urlRow->addWidget(m_url, 1);
    if (test) {
        auto *useInbox = new QPushButton(tr("Use built-in &inbox"), this);
        useInbox->setObjectName(QStringLiteral("useInbox"));
        useInbox->setToolTip(tr("Sends test events to this server's own inbox, shown in the Inbox tab below."));
        urlRow->addWidget(useInbox);
        connect(useInbox, &QPushButton::clicked, this, [this] {
            QUrl inbox = m_context.api().baseUrl();
            inbox.setPath(QStringLiteral("/hooks/inbox"));
            m_url->setText(inbox.toString());
            m_password->setFocus();
        });
    }
    auto *form = new QFormLayout;
    form->setVerticalSpacing(4);
    form->addRow(tr("URL"), urlRow);
    form->addRow(QString(), urlError);
    form->addRow(tr("Password"), passwordRow);
    form->addRow(QString(), passwordError);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_save);
    buttons->addWidget(m_test);
    buttons->addWidget(m_rotate);
    buttons->addStretch();
    QWidget *endpointCard = card(this);
    auto *endpointLayout = new QVBoxLayout(endpointCard);
    endpointLayout->setContentsMargins(16, 12, 16, 12);
    endpointLayout->setSpacing(6);
    endpointLayout->addWidget(m_state);
    endpointLayout->addLayout(form);
    endpointLayout->addLayout(buttons);
    endpointLayout->addWidget(general);
    endpointLayout->addWidget(m_notice);

    // Delivery log
    m_status->setObjectName(QStringLiteral("deliveryStatus"));
    m_status->addItem(tr("Any event state"), QString());
    m_status->addItem(tr("Retrying"), QStringLiteral("pending"));
    m_status->addItem(tr("Delivered"), QStringLiteral("delivered"));
    m_status->addItem(tr("Gave up"), QStringLiteral("failed"));
    m_result->setObjectName(QStringLiteral("deliveryResult"));
    m_result->addItem(tr("Any answer"), QString());
    m_result->addItem(tr("Accepted (2xx)"), QStringLiteral("true"));
    m_result->addItem(tr("Not accepted"), QStringLiteral("false"));
    m_transaction->setObjectName(QStringLiteral("deliveryTransaction"));
    m_transaction->setPlaceholderText(tr("Transaction id"));
    m_transaction->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,18}")), m_transaction));
    m_transaction->setClearButtonEnabled(true);
    m_transaction->setMinimumWidth(220);
    auto *refresh = new QPushButton(tr("&Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshDeliveries"));
    m_redeliver->setObjectName(QStringLiteral("redeliver"));
    m_redeliver->setEnabled(false);
    m_redeliver->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    m_logNotice->setObjectName(QStringLiteral("logNotice"));
    m_logError->setObjectName(QStringLiteral("logError"));
    m_deliveriesTable->horizontalHeader()->resizeSection(0, 170);
    m_deliveriesTable->horizontalHeader()->resizeSection(1, 150);
    m_deliveriesTable->horizontalHeader()->resizeSection(2, 100);
    m_deliveriesTable->horizontalHeader()->resizeSection(3, 50);
    m_deliveriesTable->horizontalHeader()->resizeSection(4, 120);
    m_deliveriesTable->horizontalHeader()->resizeSection(5, 80);
    m_deliveriesTable->horizontalHeader()->resizeSection(6, 100);
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_status);
    filters->addWidget(m_result);
    filters->addWidget(m_transaction);
    filters->addWidget(refresh);
    filters->addStretch(1);
    auto *logActions = new QHBoxLayout;
    logActions->addWidget(m_logNotice, 1);
    logActions->addWidget(m_redeliver);
    auto *logTab = new QWidget(this);
    auto *logLayout = new QVBoxLayout(logTab);
    logLayout->addLayout(filters);
    logLayout->addWidget(m_logError);
    logLayout->addWidget(m_deliveriesTable, 1);
    logLayout->addLayout(logActions);

    // Inbox
    m_inboxBody->setObjectName(QStringLiteral("inboxBody"));
    m_inboxBody->setReadOnly(true);
    m_inboxBody->setFont(QFont(QStringLiteral("DejaVu Sans Mono")));
    m_inboxBody->setPlaceholderText(tr("Choose a message to see the body the server received."));
    m_inboxTable->horizontalHeader()->resizeSection(0, 170);
    m_inboxTable->horizontalHeader()->resizeSection(1, 150);
    m_inboxTable->horizontalHeader()->resizeSection(2, 100);
    m_inboxTable->horizontalHeader()->resizeSection(3, 80);
    auto *inboxSplit = new QSplitter(Qt::Horizontal, this);
    inboxSplit->addWidget(m_inboxTable);
    inboxSplit->addWidget(m_inboxBody);
    inboxSplit->setStretchFactor(0, 3);
    inboxSplit->setStretchFactor(1, 2);
    auto *inboxTab = new QWidget(this);
    auto *inboxLayout = new QVBoxLayout(inboxTab);
    inboxLayout->addWidget(BackOfficeUi::hint(
        tr("What this server's built-in inbox received (test mode): each event once, with how many times it "
           "arrived. Receivers must accept repeats of the same webhook-id."),
        inboxTab));
    inboxLayout->addWidget(inboxSplit, 1);

    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("webhookTabs"));
    tabs->addTab(logTab, tr("Delivery log"));
    tabs->addTab(inboxTab, tr("Built-in inbox"));

    // The endpoint form and the logs scroll together when kiosk fonts make them taller than the page.
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(BackOfficeUi::title(tr("Webhooks"), this));
    layout->addWidget(endpointCard);
    layout->addWidget(tabs, 1);
    auto *outer = new QVBoxLayout(this);
    outer->addWidget(BackOfficeUi::scrollArea(content, this));

    m_follow.setInterval(kFollowIntervalMs);
    connect(&m_follow, &QTimer::timeout, this, [this] {
        if (--m_followTicks <= 0)
            m_follow.stop();
        if (!m_deliveries->isLoading())
            m_deliveries->reload();
        if (!m_inbox->isLoading())
            m_inbox->reload();
    });
    connect(showPassword, &QPushButton::toggled, this,
            [this](bool shown) { m_password->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password); });
    connect(m_url, &QLineEdit::returnPressed, m_password, qOverload<>(&QWidget::setFocus));
    connect(m_password, &QLineEdit::returnPressed, this, &WebhooksPage::onSaveClicked);
    connect(m_save, &QPushButton::clicked, this, &WebhooksPage::onSaveClicked);
    connect(m_rotate, &QPushButton::clicked, this, &WebhooksPage::onRotateClicked);
    connect(m_test, &QPushButton::clicked, this, &WebhooksPage::onTestClicked);
    connect(m_redeliver, &QPushButton::clicked, this, &WebhooksPage::onRedeliverClicked);
    connect(refresh, &QPushButton::clicked, this, &WebhooksPage::applyDeliveryFilter);
    connect(m_status, &QComboBox::currentIndexChanged, this, &WebhooksPage::applyDeliveryFilter);
    connect(m_result, &QComboBox::currentIndexChanged, this, &WebhooksPage::applyDeliveryFilter);
    connect(m_transaction, &QLineEdit::returnPressed, this, &WebhooksPage::applyDeliveryFilter);
    connect(m_deliveriesTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &WebhooksPage::updateButtons);
    connect(m_deliveries, &CollectionModel::modelReset, this, &WebhooksPage::updateButtons);
    connect(m_inboxTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &WebhooksPage::onInboxRowChanged);
    connect(m_inbox, &CollectionModel::modelReset, this, &WebhooksPage::onInboxRowChanged);
    connect(m_deliveries, &CollectionModel::loaded, m_logError, &QWidget::hide);
    for (CollectionModel *model : {m_deliveries, m_inbox}) {
        connect(model, &CollectionModel::failed, this, [this](const ApiError &error) {
            m_logError->setText(tr("Could not load: %1").arg(error.description()));
            m_logError->show();
        });
    }
}

WebhooksPage::~WebhooksPage() = default;

void WebhooksPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void WebhooksPage::refresh()
{
    loadEndpoint();
    applyDeliveryFilter();
    m_inbox->reload();
}

void WebhooksPage::loadEndpoint()
{
    ApiCall *call = m_context.api().get(QStringLiteral("/api/v1/webhook-endpoint"));
    connect(call, &ApiCall::finished, this, [this](const ApiResult &result) {
        if (!result.ok()) {
            if (result.error->reason() == QLatin1String("webhook_endpoint_not_configured"))
                m_state->setText(tr("No webhook endpoint yet. Enter the URL that should receive sale events and a "
                                    "password, then save."));
            else
                m_state->setText(tr("Could not read the endpoint: %1").arg(result.error->description()));
            m_rotate->setEnabled(false);
            m_test->setEnabled(false);
            return;
        }
        showEndpoint(result.data);
    });
}

void WebhooksPage::showEndpoint(const QJsonObject &endpoint)
{
    const bool builtin = endpoint.value(QStringLiteral("builtin_inbox")).toBool();
    const bool enabled = endpoint.value(QStringLiteral("enabled")).toBool();
    QStringList lines;
    lines << (builtin ? tr("Events go to this server's built-in inbox (the test-mode default).")
                      : tr("Events go to %1").arg(BackOfficeUi::itemText(endpoint, "url")));
    if (!enabled)
        lines << tr("DISABLED: %1. Save the endpoint again to turn it back on.").arg(BackOfficeUi::itemText(endpoint, "disabled_reason"));
    const QString previous = BackOfficeUi::itemText(endpoint, "previous_secret_expires_at");
    if (!previous.isEmpty())
        lines << tr("The previous secret keeps signing until %1 (IST).").arg(previous);
    m_state->setText(lines.join(QLatin1Char('\n')));
    m_state->setStyleSheet(enabled ? QString() : QStringLiteral("color: #b42318; font-weight: 600;"));
    if (!m_url->hasFocus() && !m_password->hasFocus()) {
        m_url->setText(builtin ? QString() : BackOfficeUi::itemText(endpoint, "url"));
        m_password->setText(BackOfficeUi::itemText(endpoint, "webhook_password"));
    }
    m_rotate->setEnabled(true);
    m_test->setEnabled(true);
}

void WebhooksPage::showSecretIfAny(const QJsonObject &endpoint)
{
    const QString secret = BackOfficeUi::itemText(endpoint, "secret");
    if (secret.isEmpty() || endpoint.value(QStringLiteral("builtin_inbox")).toBool())
        return; // the built-in inbox checks signatures itself; nobody needs its secret
    auto *dialog = new SecretDialog(
        tr("Webhook signing secret"),
        tr("Events to %1 are signed with this secret (webhook-signature header).").arg(BackOfficeUi::itemText(endpoint, "url")),
        tr("Secret"), secret, this);
    dialog->open();
}

void WebhooksPage::onSaveClicked()
{
    if (!m_save->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    const QString url = m_url->text().trimmed();
    if (url.isEmpty()) {
        m_errors->showAt(QStringLiteral("url"), tr("Enter the http:// or https:// address that receives events."));
        m_url->setFocus();
        return;
    }
    if (m_password->text().isEmpty()) {
        m_errors->showAt(QStringLiteral("webhook_password"),
                         tr("Enter a password; the receiver checks it in every event."));
        m_password->setFocus();
        return;
    }
    m_save->setEnabled(false);
    ApiCall *call = m_context.api().put(
        QStringLiteral("/api/v1/webhook-endpoint"),
        QJsonObject{{QStringLiteral("url"), url}, {QStringLiteral("webhook_password"), m_password->text()}});
    connect(call, &ApiCall::finished, this, [this](const ApiResult &result) {
        m_save->setEnabled(true);
        if (!result.ok()) {
            m_errors->show(*result.error);
            (result.error->field() == QLatin1String("webhook_password") ? m_password : m_url)->setFocus();
            return;
        }
        m_url->clearFocus();
        m_password->clearFocus();
        showEndpoint(result.data);
        BackOfficeUi::showNotice(m_notice, tr("Saved. Press \"Send test delivery\" to check the receiver."));
        m_test->setFocus();
        showSecretIfAny(result.data);
    });
}

void WebhooksPage::onRotateClicked()
{
    BackOfficeUi::confirm(
        this, tr("Rotate secret"),
        tr("Make a new signing secret?\nThe old one keeps signing for 24 hours, so the receiver can switch over."),
        tr("Rotate"), [this] {
            m_errors->clear();
            ApiCall *call =
                m_context.api().post(QStringLiteral("/api/v1/webhook-endpoint/rotate-secret"), QJsonObject());
            connect(call, &ApiCall::finished, this, [this](const ApiResult &result) {
                if (!result.ok()) {
                    m_errors->show(*result.error);
                    return;
                }
                showEndpoint(result.data);
                BackOfficeUi::showNotice(m_notice, tr("New secret made."));
                QJsonObject shown = result.data;
                shown.insert(QStringLiteral("builtin_inbox"), false); // a rotation is always shown
                showSecretIfAny(shown);
            });
        });
}

void WebhooksPage::onTestClicked()
{
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    m_test->setEnabled(false);
    ApiCall *call = m_context.api().post(QStringLiteral("/api/v1/webhook-endpoint/test"), QJsonObject());
    connect(call, &ApiCall::finished, this, [this](const ApiResult &result) {
        m_test->setEnabled(true);
        if (!result.ok()) {
            m_errors->show(*result.error);
            return;
        }
        BackOfficeUi::showNotice(
            m_notice, tr("Test event %1 queued; watch the delivery log below.").arg(BackOfficeUi::itemText(result.data, "webhook_id")));
        followDeliveries();
    });
}

void WebhooksPage::applyDeliveryFilter()
{
    QUrlQuery query;
    if (const QString status = m_status->currentData().toString(); !status.isEmpty())
        query.addQueryItem(QStringLiteral("status"), status);
    if (const QString success = m_result->currentData().toString(); !success.isEmpty())
        query.addQueryItem(QStringLiteral("success"), success);
    if (const QString id = m_transaction->text().trimmed(); !id.isEmpty() && id.toLongLong() > 0)
        query.addQueryItem(QStringLiteral("transaction_id"), id);
    m_deliveries->setQuery(query);
    m_deliveries->reload();
}

void WebhooksPage::updateButtons()
{
    const QJsonObject item = m_deliveries->item(m_deliveriesTable->currentIndex().row());
    m_redeliver->setEnabled(!item.isEmpty() && BackOfficeUi::itemText(item, "event_status") != QLatin1String("pending"));
}

void WebhooksPage::onRedeliverClicked()
{
    const QJsonObject item = m_deliveries->item(m_deliveriesTable->currentIndex().row());
    if (item.isEmpty())
        return;
    m_logError->hide();
    BackOfficeUi::showNotice(m_logNotice, QString());
    const qint64 id = item.value(QStringLiteral("id")).toInteger();
    ApiCall *call =
        m_context.api().post(QStringLiteral("/api/v1/webhook-deliveries/%1/redeliver").arg(id), QJsonObject());
    connect(call, &ApiCall::finished, this, [this](const ApiResult &result) {
        if (!result.ok()) {
            m_logError->setText(result.error->httpStatus() == 409
                                    ? tr("This event is still being retried; it can be sent again once it is "
                                         "delivered or given up.")
                                    : result.error->description());
            m_logError->show();
            return;
        }
        BackOfficeUi::showNotice(m_logNotice,
                                 tr("Event %1 will be sent again now.").arg(BackOfficeUi::itemText(result.data, "webhook_id")));
        followDeliveries();
    });
}

void WebhooksPage::onInboxRowChanged()
{
    const QJsonObject item = m_inbox->item(m_inboxTable->currentIndex().row());
    m_inboxBody->setPlainText(
        item.isEmpty()
            ? QString()
            : QString::fromUtf8(
                  QJsonDocument(item.value(QStringLiteral("body")).toObject()).toJson(QJsonDocument::Indented)));
}

void WebhooksPage::followDeliveries()
{
    m_followTicks = kFollowTicks;
    applyDeliveryFilter();
    m_inbox->reload();
    m_follow.start();
}
