#include "webhookinboxpane.h"

#include "backofficeui.h"
#include "clock.h"
#include "collectionmodel.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "ui_webhookinboxpane.h"
#include "webhooksapi.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>

namespace {

QList<CollectionColumn> inboxColumns()
{
    using Message = WebhookInboxMessage;
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        TypedColumn::make<Message>(WebhookInboxPane::tr("Received (IST)"),
                                   [](const Message &m) { return IstTime::format(m.receivedAt); }),
        TypedColumn::make<Message>(WebhookInboxPane::tr("Event"), [](const Message &m) { return m.webhookEvent; }),
        TypedColumn::make<Message>(
            WebhookInboxPane::tr("Transaction"),
            [](const Message &m) { return m.transactionId ? QString::number(*m.transactionId) : QString(); }, right),
        TypedColumn::make<Message>(
            WebhookInboxPane::tr("Received"),
            [](const Message &m) { return WebhookInboxPane::tr("%1×").arg(m.deliveries); }, right),
        TypedColumn::make<Message>(WebhookInboxPane::tr("webhook-id"), [](const Message &m) { return m.webhookId; }),
    };
}

} // namespace

WebhookInboxPane::WebhookInboxPane(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_ui(std::make_unique<Ui::WebhookInboxPane>()),
      m_model(new CollectionModel(context.api(), WebhooksApi::inboxPath(), inboxColumns(), 100, this)),
      m_table(BackOfficeUi::table(m_model, QStringLiteral("inboxTable"), this))
{
    m_ui->setupUi(this);
    m_ui->split->insertWidget(0, m_table);
    m_ui->split->setStretchFactor(0, 3);
    m_ui->split->setStretchFactor(1, 2);
    int section = 0;
    for (const int width : {170, 150, 100, 80})
        m_table->horizontalHeader()->resizeSection(section++, width);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &WebhookInboxPane::onRowChanged);
    connect(m_model, &CollectionModel::modelReset, this, &WebhookInboxPane::onRowChanged);
    connect(m_model, &CollectionModel::loaded, m_ui->inboxError, &QWidget::hide);
    connect(m_model, &CollectionModel::failed, this, [this](const ApiError &error) {
        m_ui->inboxError->setText(tr("Could not load: %1").arg(error.description()));
        m_ui->inboxError->show();
    });
}

WebhookInboxPane::~WebhookInboxPane() = default;

void WebhookInboxPane::reload(bool evenIfLoading)
{
    if (evenIfLoading || !m_model->isLoading())
        m_model->reload();
}

void WebhookInboxPane::onRowChanged()
{
    QString problem;
    const std::optional<WebhookInboxMessage> message =
        TypedColumn::item<WebhookInboxMessage>(*m_model, m_table->currentIndex().row(), &problem);
    if (message)
        m_ui->inboxBody->setPlainText(QString::fromUtf8(QJsonDocument(message->body).toJson(QJsonDocument::Indented)));
    else
        m_ui->inboxBody->setPlainText(problem);
}
