#include "webhookinboxrepository.h"

#include "store/database.h"

namespace {

const QString kColumns =
    QStringLiteral("id, account_id, mode, webhook_id, event_type, transaction_id, body, received_at, deliveries");

InboxMessage readMessage(const QSqlQuery &q)
{
    InboxMessage m;
    m.id = q.value(0).toLongLong();
    m.accountId = q.value(1).toLongLong();
    m.mode = ModeNames::modeFromString(q.value(2).toString()).value_or(Mode::Test);
    m.webhookId = q.value(3).toString();
    m.eventType = q.value(4).toString();
    m.transactionId = q.value(5).toLongLong();
    m.body = q.value(6).toString().toUtf8();
    m.receivedAtMs = q.value(7).toLongLong();
    m.deliveries = q.value(8).toInt();
    return m;
}

} // namespace

InboxMessage WebhookInboxRepository::store(const InboxMessage &m)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("INSERT INTO webhook_inbox (account_id, mode, webhook_id, event_type, transaction_id, body,"
                       " received_at, deliveries) VALUES (?, ?, ?, ?, ?, ?, ?, 1)"
                       " ON CONFLICT (account_id, mode, webhook_id) DO UPDATE SET"
                       " deliveries = webhook_inbox.deliveries + 1 RETURNING ") +
            kColumns,
        {m.accountId, ModeNames::mode(m.mode), m.webhookId, textValue(m.eventType), m.transactionId,
         QString::fromUtf8(m.body), m.receivedAtMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("inbox insert returned no row"));
    const InboxMessage stored = readMessage(q);
    q.finish();
    return stored;
}

QList<InboxMessage> WebhookInboxRepository::list(qint64 accountId, Mode mode, int limit, qint64 beforeId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT ") + kColumns +
                                QStringLiteral(" FROM webhook_inbox WHERE account_id = ? AND mode = ?"
                                               " AND (? = 0 OR id < ?) ORDER BY id DESC LIMIT ?"),
                            {accountId, ModeNames::mode(mode), beforeId, beforeId, limit});
    QList<InboxMessage> messages;
    while (q.next())
        messages.append(readMessage(q));
    q.finish();
    return messages;
}
