#include "webhookdeliveriespane.h"

#include "backofficeui.h"
#include "clock.h"
#include "collectionmodel.h"
#include "terminalcontext.h"
#include "typedcolumn.h"
#include "widgets/digitslineedit.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

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
    : QWidget(parent), m_api(context.api()),
      m_model(new CollectionModel(context.api(), WebhooksApi::deliveriesPath(), deliveryColumns(), 100, this)),
      m_status(new QComboBox(this)), m_result(new QComboBox(this)),
      m_transaction(new DigitsLineEdit(DigitsLineEdit::Kind::Digits, 18, this)),
      m_redeliver(new QPushButton(tr("Re&deliver selected"), this)), m_notice(BackOfficeUi::notice(this)),
      m_error(BackOfficeUi::generalError(this)),
      m_table(BackOfficeUi::table(m_model, QStringLiteral("deliveriesTable"), this))
{
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
    m_transaction->setClearButtonEnabled(true);
    m_transaction->setMinimumWidth(220);
    auto *refresh = new QPushButton(tr("&Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshDeliveries"));
    m_redeliver->setObjectName(QStringLiteral("redeliver"));
    m_redeliver->setEnabled(false);
    m_redeliver->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    m_notice->setObjectName(QStringLiteral("logNotice"));
    m_error->setObjectName(QStringLiteral("logError"));
    int section = 0;
    for (const int width : {170, 150, 100, 50, 120, 80, 100})
        m_table->horizontalHeader()->resizeSection(section++, width);

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_status);
    filters->addWidget(m_result);
    filters->addWidget(m_transaction);
    filters->addWidget(refresh);
    filters->addStretch(1);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_notice, 1);
    actions->addWidget(m_redeliver);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(m_error);
    layout->addWidget(m_table, 1);
    layout->addLayout(actions);

    const auto reloadNow = [this] { reload(); };
    connect(m_redeliver, &QPushButton::clicked, this, &WebhookDeliveriesPane::onRedeliverClicked);
    connect(refresh, &QPushButton::clicked, this, reloadNow);
    connect(m_status, &QComboBox::currentIndexChanged, this, reloadNow);
    connect(m_result, &QComboBox::currentIndexChanged, this, reloadNow);
    connect(m_transaction, &QLineEdit::returnPressed, this, reloadNow);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &WebhookDeliveriesPane::updateButtons);
    connect(m_model, &CollectionModel::modelReset, this, &WebhookDeliveriesPane::updateButtons);
    connect(m_model, &CollectionModel::loaded, m_error, &QWidget::hide);
    connect(m_model, &CollectionModel::failed, this, [this](const ApiError &error) {
        m_error->setText(tr("Could not load: %1").arg(error.description()));
        m_error->show();
    });
}

void WebhookDeliveriesPane::reload(bool evenIfLoading)
{
    if (!evenIfLoading && m_model->isLoading())
        return;
    QUrlQuery query;
    if (const QString status = m_status->currentData().toString(); !status.isEmpty())
        query.addQueryItem(QStringLiteral("status"), status);
    if (const QString success = m_result->currentData().toString(); !success.isEmpty())
        query.addQueryItem(QStringLiteral("success"), success);
    if (const QString id = m_transaction->text().trimmed(); !id.isEmpty() && id.toLongLong() > 0)
        query.addQueryItem(QStringLiteral("transaction_id"), id);
    m_model->setQuery(query);
    m_model->reload();
}

void WebhookDeliveriesPane::updateButtons()
{
    const std::optional<WebhookDelivery> delivery =
        TypedColumn::item<WebhookDelivery>(*m_model, m_table->currentIndex().row());
    m_redeliver->setEnabled(delivery && delivery->eventStatus != QLatin1String("pending"));
}

void WebhookDeliveriesPane::onRedeliverClicked()
{
    const std::optional<WebhookDelivery> delivery =
        TypedColumn::item<WebhookDelivery>(*m_model, m_table->currentIndex().row());
    if (!delivery)
        return;
    m_error->hide();
    BackOfficeUi::showNotice(m_notice, QString());
    m_api.redeliver(delivery->id).then(this, [this](const Answer<WebhookEventInfo> &answer) {
        if (!answer.ok()) {
            m_error->setText(answer.error->httpStatus() == 409
                                 ? tr("This event is still being retried; it can be sent again once it is "
                                      "delivered or given up.")
                                 : answer.error->description());
            m_error->show();
            return;
        }
        BackOfficeUi::showNotice(m_notice, tr("Event %1 will be sent again now.").arg(answer.value->webhookId));
        emit deliveryQueued();
    });
}
