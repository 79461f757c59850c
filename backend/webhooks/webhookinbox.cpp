#include "webhookinbox.h"

#include "services/commitbatcher.h"
#include "store/database.h"

#include <memory>

void WebhookInbox::receive(const QByteArray &webhookId, const QByteArray &timestamp, const QByteArray &signature,
                           const QByteArray &body, ReceiptCallback done)
{
    const InboxMessage message = m_verifier.verified(webhookId, timestamp, signature, body);
    auto receipt = std::make_shared<Receipt>();
    m_batcher.submit(
        [this, message, receipt] {
            receipt->message = WebhookInboxRepository(m_db).store(message);
            receipt->duplicate = receipt->message.deliveries > 1;
        },
        [receipt, done = std::move(done)](std::exception_ptr error) { done(error ? nullptr : receipt.get(), error); });
}

QList<InboxMessage> WebhookInbox::list(qint64 accountId, Mode mode, int limit, qint64 beforeId)
{
    return WebhookInboxRepository(m_db).list(accountId, mode, limit, beforeId);
}
