#pragma once

#include "auth/authcontext.h"

#include <QByteArray>
#include <QList>
#include <QString>

class Database;

/// A webhook the built-in inbox accepted. Times are UTC milliseconds.
struct InboxMessage
{
    qint64 id = 0;
    qint64 accountId = 0;
    Mode mode = Mode::Test;
    QString webhookId;
    QString eventType;
    qint64 transactionId = 0; ///< data.payload.transaction_id, 0 when absent
    QByteArray body;          ///< the request body as received
    qint64 receivedAtMs = 0;  ///< first receipt
    int deliveries = 1;       ///< receipts of this webhook-id (more than one: redelivered, deduplicated)
};

/// Rows of the built-in inbox (POST /hooks/inbox), unique per account, mode and webhook-id.
/// Writes run inside the caller's transaction. Throws DatabaseError.
class WebhookInboxRepository
{
public:
    explicit WebhookInboxRepository(Database &db) : m_db(db) {}

    /// Stores the message, or counts one more receipt when its webhook-id is already stored
    /// for that account and mode. Returns the stored row (deliveries > 1 for a duplicate).
    InboxMessage store(const InboxMessage &message);
    /// The account's messages of this mode, newest first; `beforeId` > 0 continues a listing.
    QList<InboxMessage> list(qint64 accountId, Mode mode, int limit, qint64 beforeId);

private:
    Database &m_db;
};
