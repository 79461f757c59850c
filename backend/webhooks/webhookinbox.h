#pragma once

#include "webhookinboxrepository.h"
#include "webhookinboxverifier.h"

#include <QByteArray>

#include <exception>
#include <functional>

class AadhaarVault;
class Clock;
class CommitBatcher;
class Database;

/// The built-in webhook receiver behind POST /hooks/inbox (issue 4): checks a delivery as a
/// careful receiver should — Standard Webhooks signature against the endpoint secrets of the
/// accounts, timestamp within kToleranceSeconds, the body's data.webhook_password — dedupes
/// on webhook-id and stores it, so a fresh install shows the whole round trip.
class WebhookInbox
{
public:
    /// Accepted distance between webhook-timestamp and now, in seconds.
    static constexpr qint64 kToleranceSeconds = WebhookInboxVerifier::kToleranceSeconds;

    /// What receive() did: the stored message; duplicate when its webhook-id was seen before.
    struct Receipt
    {
        InboxMessage message;
        bool duplicate = false;
    };

    /// The stored receipt, or the error that kept it from being stored (then `receipt` is null).
    using ReceiptCallback = std::function<void(const Receipt *receipt, std::exception_ptr error)>;

    /// `vault` opens the endpoints' sealed secrets (null: only clear ones verify). The messages are stored through
    /// `batcher`: in the grouped commit of the server's other writes, not one durable commit each (issue 17).
    WebhookInbox(Database &db, CommitBatcher &batcher, const Clock &clock, const AadhaarVault *vault)
        : m_db(db), m_batcher(batcher), m_verifier(db, clock, vault)
    {}

    /// Verifies one delivery at once (WebhookInboxVerifier) and stores it in the next grouped commit; `done` runs once
    /// that commit is durable (or with its error). Throws ApiError 400 (missing webhook headers, a body that is not a
    /// webhook) or 401 (timestamp outside the tolerance, no endpoint secret signs it, wrong webhook_password); nothing
    /// is stored then and `done` is not called.
    void receive(const QByteArray &webhookId, const QByteArray &timestamp, const QByteArray &signature,
                 const QByteArray &body, ReceiptCallback done);
    /// Messages of an account and mode, newest first.
    QList<InboxMessage> list(qint64 accountId, Mode mode, int limit, qint64 beforeId);

private:
    Database &m_db;
    CommitBatcher &m_batcher;
    WebhookInboxVerifier m_verifier;
};
