#include "sandboxsmsgateway.h"

#include "store/database.h"

void SandboxSmsGateway::send(const SmsMessage &message)
{
    m_db.run(QStringLiteral("INSERT INTO sms_outbox (account_id, transaction_id, mobile_masked, message, created_at)"
                            " VALUES (?, ?, ?, ?, ?)"),
             {message.accountId, message.transactionId > 0 ? QVariant(message.transactionId) : QVariant(),
              maskMobile(message.mobile), textValue(message.text), message.createdAtMs});
}

QList<OutboxSms> SandboxSmsGateway::list(qint64 accountId, int limit)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT id, transaction_id, mobile_masked, message, created_at"
                                           " FROM sms_outbox WHERE account_id = ? ORDER BY id DESC LIMIT ?"),
                            {accountId, qBound(1, limit, 200)});
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

QString SandboxSmsGateway::maskMobile(const QString &mobile)
{
    QString lastFour;
    for (qsizetype i = mobile.size() - 1; i >= 0 && lastFour.size() < 4; --i) {
        if (mobile.at(i) >= u'0' && mobile.at(i) <= u'9')
            lastFour.prepend(mobile.at(i));
    }
    if (lastFour.size() < 4)
        return QStringLiteral("XXXXXXXXXX");
    return QStringLiteral("XXXXXX") + lastFour;
}
