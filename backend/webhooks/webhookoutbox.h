#pragma once

#include "webhookoutboxrepository.h"

#include <QJsonObject>

#include <functional>

class Clock;
class Database;
struct TransactionRecord;

/// Writes webhook events into the outbox and serves the delivery log (api-v1.md, Events;
/// api-conventions.md, "Webhooks"). The event row of a settled transaction is written inside
/// the settling database transaction, so a status change and its event commit together.
class WebhookOutbox
{
public:
    /// webhook_event of the admin's test message (beyond the spec).
    static QString testEventType() { return QStringLiteral("event.test"); }
    /// webhook_event of a complaint that was raised or changed (issue 29, beyond the spec): data.payload is the
    /// complaint entity.
    static QString complaintEventType() { return QStringLiteral("event.complaint"); }
    /// webhook_event of a shop's fund request that was sent or decided (issue 30, beyond the spec): data.payload is
    /// the fund_request entity, sent to the shop's live endpoint.
    static QString fundRequestEventType() { return QStringLiteral("event.fund_request"); }

    /// `wake` is called when new work is due now (the dispatcher's wake()).
    WebhookOutbox(Database &db, const Clock &clock, std::function<void()> wake);

    /// Writes the event of a transaction that left PENDING, with `record` (operatorName filled)
    /// as data.payload. Runs inside the caller's transaction; throws DatabaseError.
    void enqueueTransaction(qint64 accountId, Mode mode, const TransactionRecord &record);
    /// Writes an event of `eventType` about the sale `transactionId` (its delivery log filters by the sale) with
    /// `payload` as data.payload, inside the caller's transaction; wake() after the commit. Throws DatabaseError.
    void enqueueEvent(qint64 accountId, Mode mode, const QString &eventType, qint64 transactionId,
                      const QJsonObject &payload);
    /// Tells the delivery that new events are due now (after the commit of enqueueEvent()).
    void wake()
    {
        if (m_wake)
            m_wake();
    }
    /// Writes and schedules a test event ("event.test") for the account's endpoint; returns it.
    WebhookEvent enqueueTest(qint64 accountId, Mode mode);
    /// The delivery log (newest attempt first).
    QList<WebhookDeliveryRow> deliveries(qint64 accountId, Mode mode, const WebhookDeliveryFilter &filter);
    /// Sends the event of delivery `attemptId` again with the same webhook-id and a fresh retry
    /// schedule. Throws ApiError 404 (no such delivery for the account) or 409 (the event is
    /// still pending).
    WebhookEvent redeliver(qint64 accountId, Mode mode, qint64 attemptId);

private:
    Database &m_db;
    const Clock &m_clock;
    std::function<void()> m_wake;
};
