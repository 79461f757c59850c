#include "webhookoutbox.h"

#include "apierror.h"
#include "clock.h"
#include "entities/transactionrecord.h"
#include "store/database.h"

#include <QJsonDocument>

WebhookOutbox::WebhookOutbox(Database &db, const Clock &clock, std::function<void()> wake)
    : m_db(db), m_clock(clock), m_wake(std::move(wake))
{}

void WebhookOutbox::enqueueTransaction(qint64 accountId, Mode mode, const TransactionRecord &record)
{
    const qint64 now = m_clock.nowMs();
    WebhookEvent event;
    event.accountId = accountId;
    event.mode = mode;
    event.eventType = TransactionNames::webhookEvent(record.type);
    event.transactionId = record.transactionId;
    event.payload = QJsonDocument(record.toJson()).toJson(QJsonDocument::Compact);
    event.nextAttemptAtMs = now;
    event.createdAtMs = now;
    WebhookOutboxRepository(m_db).insertEvent(event);
}

void WebhookOutbox::enqueueEvent(qint64 accountId, Mode mode, const QString &eventType, qint64 transactionId,
                                 const QJsonObject &payload)
{
    const qint64 now = m_clock.nowMs();
    WebhookEvent event;
    event.accountId = accountId;
    event.mode = mode;
    event.eventType = eventType;
    event.transactionId = transactionId;
    event.payload = QJsonDocument(payload).toJson(QJsonDocument::Compact);
    event.nextAttemptAtMs = now;
    event.createdAtMs = now;
    WebhookOutboxRepository(m_db).insertEvent(event);
}

WebhookEvent WebhookOutbox::enqueueTest(qint64 accountId, Mode mode)
{
    const qint64 now = m_clock.nowMs();
    WebhookEvent event;
    event.accountId = accountId;
    event.mode = mode;
    event.eventType = testEventType();
    event.payload = QJsonDocument(QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_test")},
                                              {QStringLiteral("msg"), QStringLiteral("Test event from RechargeDesk")},
                                              {QStringLiteral("datetime"), IstTime::formatMs(now)}})
                        .toJson(QJsonDocument::Compact);
    event.nextAttemptAtMs = now;
    event.createdAtMs = now;
    WriteTransaction transaction(m_db);
    WebhookOutboxRepository(m_db).insertEvent(event);
    transaction.commit();
    if (m_wake)
        m_wake();
    return event;
}

QList<WebhookDeliveryRow> WebhookOutbox::deliveries(qint64 accountId, Mode mode, const WebhookDeliveryFilter &filter)
{
    return WebhookOutboxRepository(m_db).deliveries(accountId, mode, filter);
}

WebhookEvent WebhookOutbox::redeliver(qint64 accountId, Mode mode, qint64 attemptId)
{
    WriteTransaction transaction(m_db);
    WebhookOutboxRepository outbox(m_db);
    const std::optional<WebhookAttempt> attempt = outbox.findAttempt(accountId, mode, attemptId);
    if (!attempt)
        throw ApiError::notFound(QStringLiteral("not_found"),
                                 QStringLiteral("no webhook delivery with id %1").arg(attemptId));
    if (!outbox.requeue(attempt->eventId, m_clock.nowMs()))
        throw ApiError::conflict(QStringLiteral("delivery_pending"),
                                 QStringLiteral("the event of delivery %1 is still being delivered").arg(attemptId));
    std::optional<WebhookEvent> event = outbox.findEvent(attempt->eventId);
    transaction.commit();
    if (m_wake)
        m_wake();
    return event.value_or(WebhookEvent{});
}
