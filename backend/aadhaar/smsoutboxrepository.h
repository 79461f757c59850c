#pragma once

#include <QList>
#include <QString>

class Database;

/// One message of the sandbox SMS outbox as an admin reads it.
struct OutboxSms
{
    qint64 id = 0;
    qint64 transactionId = 0; ///< 0 when the message belongs to no transaction
    QString maskedMobile;     ///< "XXXXXX1234": the recipient is never stored in full
    QString text;
    qint64 createdAtMs = 0; ///< UTC milliseconds since the epoch
};

/// The `sms_outbox` table (migration 2) that SandboxSmsGateway writes and GET /api/v1/sandbox/sms reads.
/// Runs inside the caller's transaction if one is open. Throws DatabaseError.
class SmsOutboxRepository
{
public:
    explicit SmsOutboxRepository(Database &db) : m_db(db) {}

    /// Appends one message as given (`sms.id` ignored; `transactionId` 0 is stored as NULL).
    void insert(qint64 accountId, const OutboxSms &sms);
    /// The account's messages, newest first, at most `limit`.
    QList<OutboxSms> list(qint64 accountId, int limit);

private:
    Database &m_db;
};
