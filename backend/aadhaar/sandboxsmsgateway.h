#pragma once

#include "smsgateway.h"
#include "smsoutboxrepository.h"

#include <QList>

class Database;

/// The SMS gateway of test mode: nothing leaves the machine; each message becomes a row of the `sms_outbox` table
/// (SmsOutboxRepository) that admin keys in test mode read through GET /api/v1/sandbox/sms. The recipient is stored
/// masked (maskMobile); the text is stored as sent, since reading the OTP from it is the point of the sandbox, until
/// the verification ends (AadhaarRepository erases it then; the row stays with an empty text).
class SandboxSmsGateway final : public SmsGateway
{
public:
    explicit SandboxSmsGateway(Database &db) : m_db(db) {}

    /// Writes @p message to the outbox in the caller's database transaction. Throws DatabaseError.
    void send(const SmsMessage &message) override;

    /// The account's outbox messages, newest first, at most @p limit (1..200). Throws DatabaseError.
    QList<OutboxSms> list(qint64 accountId, int limit);

    /// Masks a mobile number as "XXXXXX1234" (the last four digits kept, the rest as X); fewer than four digits
    /// reveal nothing: "XXXXXXXXXX".
    static QString maskMobile(const QString &mobile);

private:
    Database &m_db;
};
