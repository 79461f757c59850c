#include "webhookdeliveriespane.h"

#include "backofficeui.h"
#include "clock.h"
#include "collectionmodel.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "ui_webhookdeliveriespane.h"

#include <QComboBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>

namespace {

QString eventStatusText(const QString &status)
{
    if (status == QLatin1String("pending"))
        return WebhookDeliveriesPane::tr("Retrying");
    if (status == QLatin1String("delivered"))
        return WebhookDeliveriesPane::tr("Delivered");
    if (status == QLatin1String("failed"))
        return WebhookDeliveriesPane::tr("Gave up");
    return status;
}

QString numberOrBlank(const std::optional<qint64> &number)
{
    return number ? QString::number(*number) : QString();
}

QString timeOrBlank(const std::optional<QDateTime> &instant)
{
    return instant ? IstTime::format(*instant) : QString();
}

QString answerText(const WebhookDelivery &d)
{
    const QString status = numberOrBlank(d.httpStatus);
    if (d.success)
        return WebhookDeliveriesPane::tr("OK %1").arg(status);
    const QString error = d.error.value_or(QString());
    return status.isEmpty() ? error : WebhookDeliveriesPane::tr("HTTP %1 %2").arg(status, error).trimmed();
}

QList<CollectionColumn> deliveryColumns()
{
    using Column = std::function<QString(const WebhookDelivery &)>;
    const auto column = [](const QString &title, Column text,
                           Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter) {
        return TypedColumn::make<WebhookDelivery>(title, std::move(text), alignment);
    };
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        column(WebhookDeliveriesPane::tr("When (IST)"),
               [](const WebhookDelivery &d) { return IstTime::format(d.datetime); }),
        column(WebhookDeliveriesPane::tr("Event"), [](const WebhookDelivery &d) { return d.webhookEvent; }),
        column(
            WebhookDeliveriesPane::tr("Transaction"),
            [](const WebhookDelivery &d) { return numberOrBlank(d.transactionId); }, right),
        column(
            WebhookDeliveriesPane::tr("Try"), [](const WebhookDelivery &d) { return QString::number(d.attempt); },
            right),
        column(WebhookDeliveriesPane::tr("Answer"), answerText),
        column(
            WebhookDeliveriesPane::tr("Time"),
            [](const WebhookDelivery &d) { return WebhookDeliveriesPane::tr("%1 ms").arg(d.latencyMs); }, right),
        column(WebhookDeliveriesPane::tr("Event state"),
               [](const WebhookDelivery &d) { return eventStatusText(d.eventStatus); }),
        column(WebhookDeliveriesPane::tr("Next try"),
               [](const WebhookDelivery &d) { return timeOrBlank(d.nextAttemptAt); }),
        column(WebhookDeliveriesPane::tr("URL"), [](const WebhookDelivery &d) { return d.url; }),
    };
}

} // namespace

WebhookDeliveriesPane::WebhookDeliveriesPane(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_api(context.api()), m_ui(std::make_unique<Ui::WebhookDeliveriesPane>()),
      m_model(new CollectionModel(context.api(), WebhooksApi::deliveriesPath(), deliveryColumns(), 100, this)),
      m_table(BackOfficeUi::table(m_model, QStringLiteral("deliveriesTable"), this))
{
    m_ui->setupUi(this);
    m_ui->deliveryStatus->addItem(tr("Any event state"), QString());
    m_ui->deliveryStatus->addItem(tr("Retrying"), QStringLiteral("pending"));
    m_ui->deliveryStatus->addItem(tr("Delivered"), QStringLiteral("delivered"));
    m_ui->deliveryStatus->addItem(tr("Gave up"), QStringLiteral("failed"));
    m_ui->deliveryResult->addItem(tr("Any answer"), QString());
    m_ui->deliveryResult->addItem(tr("Accepted (2xx)"), QStringLiteral("true"));
    m_ui->deliveryResult->addItem(tr("Not accepted"), QStringLiteral("false"));
    m_ui->paneLayout->insertWidget(2, m_table, 1); // under the filters and the error line
    setTabOrder(m_ui->refreshDeliveries, m_table);
    setTabOrder(m_table, m_ui->redeliver);
    int section = 0;
    for (const int width : {170, 150, 100, 50, 120, 80, 100})
        m_table->horizontalHeader()->resizeSection(section++, width);

    const auto reloadNow = [this] { reload(); };
    connect(m_ui->redeliver, &QPushButton::clicked, this, &WebhookDeliveriesPane::onRedeliverClicked);
    connect(m_ui->refreshDeliveries, &QPushButton::clicked, this, reloadNow);
    connect(m_ui->deliveryStatus, &QComboBox::currentIndexChanged, this, reloadNow);
    connect(m_ui->deliveryResult, &QComboBox::currentIndexChanged, this, reloadNow);
    connect(m_ui->deliveryTransaction, &QLineEdit::returnPressed, this, reloadNow);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &WebhookDeliveriesPane::updateButtons);
    connect(m_model, &CollectionModel::modelReset, this, &WebhookDeliveriesPane::updateButtons);
    connect(m_model, &CollectionModel::loaded, m_ui->logError, &QWidget::hide);
    connect(m_model, &CollectionModel::failed, this, [this](const ApiError &error) {
        m_ui->logError->setText(tr("Could not load: %1").arg(error.description()));
        m_ui->logError->show();
    });
}

WebhookDeliveriesPane::~WebhookDeliveriesPane() = default;

void WebhookDeliveriesPane::reload(bool evenIfLoading)
{
    if (!evenIfLoading && m_model->isLoading())
        return;
    QUrlQuery query;
    if (const QString status = m_ui->deliveryStatus->currentData().toString(); !status.isEmpty())
        query.addQueryItem(QStringLiteral("status"), status);
    if (const QString success = m_ui->deliveryResult->currentData().toString(); !success.isEmpty())
        query.addQueryItem(QStringLiteral("success"), success);
    if (const QString id = m_ui->deliveryTransaction->text().trimmed(); !id.isEmpty() && id.toLongLong() > 0)
        query.addQueryItem(QStringLiteral("transaction_id"), id);
    m_model->setQuery(query);
    m_model->reload();
}

void WebhookDeliveriesPane::updateButtons()
{
    const std::optional<WebhookDelivery> delivery =
        TypedColumn::item<WebhookDelivery>(*m_model, m_table->currentIndex().row());
    m_ui->redeliver->setEnabled(delivery && delivery->eventStatus != QLatin1String("pending"));
}

void WebhookDeliveriesPane::onRedeliverClicked()
{
    const std::optional<WebhookDelivery> delivery =
        TypedColumn::item<WebhookDelivery>(*m_model, m_table->currentIndex().row());
    if (!delivery)
        return;
    m_ui->logError->hide();
    BackOfficeUi::showNotice(m_ui->logNotice, QString());
    m_api.redeliver(delivery->id).then(this, [this](const Answer<WebhookEventInfo> &answer) {
        if (!answer.ok()) {
            m_ui->logError->setText(answer.error->httpStatus() == 409
                                        ? tr("This event is still being retried; it can be sent again once it is "
                                             "delivered or given up.")
                                        : answer.error->description());
            m_ui->logError->show();
            return;
        }
        BackOfficeUi::showNotice(m_ui->logNotice, tr("Event %1 will be sent again now.").arg(answer.value->webhookId));
        emit deliveryQueued();
    });
}
