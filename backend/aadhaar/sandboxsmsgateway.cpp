#include "sandboxsmsgateway.h"

void SandboxSmsGateway::send(const SmsMessage &message)
{
    OutboxSms sms;
    sms.transactionId = message.transactionId;
    sms.maskedMobile = maskMobile(message.mobile);
    sms.text = message.text;
    sms.createdAtMs = message.createdAtMs;
    SmsOutboxRepository(m_db).insert(message.accountId, sms);
}

QList<OutboxSms> SandboxSmsGateway::list(qint64 accountId, int limit)
{
    return SmsOutboxRepository(m_db).list(accountId, qBound(1, limit, 200));
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
