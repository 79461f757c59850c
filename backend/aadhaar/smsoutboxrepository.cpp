#include "smsoutboxrepository.h"

#include "store/database.h"

void SmsOutboxRepository::insert(qint64 accountId, const OutboxSms &sms)
{
    m_db.run(QStringLiteral("INSERT INTO sms_outbox (account_id, transaction_id, mobile_masked, message, created_at)"
                            " VALUES (?, ?, ?, ?, ?)"),
             {accountId, sms.transactionId > 0 ? QVariant(sms.transactionId) : QVariant(), sms.maskedMobile,
              textValue(sms.text), sms.createdAtMs});
}

QList<OutboxSms> SmsOutboxRepository::list(qint64 accountId, int limit)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT id, transaction_id, mobile_masked, message, created_at"
                                           " FROM sms_outbox WHERE account_id = ? ORDER BY id DESC LIMIT ?"),
                            {accountId, limit});
    QList<OutboxSms> rows;
    while (q.next()) {
        OutboxSms sms;
        sms.id = q.value(0).toLongLong();
        sms.transactionId = q.value(1).toLongLong();
        sms.maskedMobile = q.value(2).toString();
        sms.text = q.value(3).toString();
        sms.createdAtMs = q.value(4).toLongLong();
        rows.append(sms);
    }
    q.finish();
    return rows;
}
