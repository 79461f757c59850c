#include "webhookdeliverythread.h"

#include "store/database.h"
#include "webhookdispatcher.h"
#include "webhookendpointservice.h"
#include "webhookinboxverifier.h"

#include <QLoggingCategory>
#include <QMetaObject>

Q_DECLARE_LOGGING_CATEGORY(lcWebhooks)

WebhookDeliveryThread::WebhookDeliveryThread(const Database &serverDb, const Clock &clock, const AadhaarVault *vault,
                                             WebhookDeliverySettings settings, std::function<QUrl()> serverUrl)
    : m_serverDb(serverDb), m_clock(clock), m_vault(vault), m_settings(settings), m_serverUrl(std::move(serverUrl))
{
    setObjectName(QStringLiteral("webhook-delivery"));
}

WebhookDeliveryThread::~WebhookDeliveryThread()
{
    stopDelivery();
}

void WebhookDeliveryThread::startDelivery()
{
    if (m_stopped || isRunning())
        return;
    refreshInboxUrl();
    start();
}

void WebhookDeliveryThread::wake()
{
    refreshInboxUrl();
    const QMutexLocker lock(&m_mutex);
    if (m_dispatcher) // posted under the lock: run() clears the pointer under it before the dispatcher dies
        QMetaObject::invokeMethod(m_dispatcher, &WebhookDispatcher::wake, Qt::QueuedConnection);
}

void WebhookDeliveryThread::stopDelivery()
{
    m_stopped = true; // a stop before the first start() keeps it from starting
    requestInterruption();
    quit();
    wait();
}

QUrl WebhookDeliveryThread::inboxUrl() const
{
    const QMutexLocker lock(&m_mutex);
    return m_inboxUrl;
}

void WebhookDeliveryThread::refreshInboxUrl()
{
    if (QThread::currentThread() == this || !m_serverUrl)
        return;
    QUrl url = m_serverUrl();
    if (url.isValid())
        url.setPath(QStringLiteral("/hooks/inbox"));
    const QMutexLocker lock(&m_mutex);
    m_inboxUrl = url;
}

bool WebhookDeliveryThread::isDelivering() const
{
    const QMutexLocker lock(&m_mutex);
    return m_dispatcher != nullptr;
}

void WebhookDeliveryThread::run()
{
    std::unique_ptr<Database> db;
    while (!isInterruptionRequested()) {
        QString error;
        db = Database::open(m_serverDb.location(), &error);
        if (db)
            break;
        qCWarning(lcWebhooks, "webhook delivery cannot open its database connection, trying again: %s",
                  qPrintable(error));
        msleep(kReopenDelayMs);
    }
    if (!db)
        return;
    {
        WebhookEndpointService endpoints(*db, m_clock, m_vault, [this] { return inboxUrl(); });
        const WebhookInboxVerifier inbox(*db, m_clock, m_vault);
        WebhookDispatcher dispatcher(*db, endpoints, m_clock, m_settings.retryScale, m_settings.leaseMs, &inbox);
        dispatcher.setOwnCertificate(m_ownCertificate);
        {
            const QMutexLocker lock(&m_mutex);
            m_dispatcher = &dispatcher;
        }
        if (!isInterruptionRequested()) {
            dispatcher.start();
            exec();
        }
        const QMutexLocker lock(&m_mutex);
        m_dispatcher = nullptr;
    }
}
