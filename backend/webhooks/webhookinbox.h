#pragma once

#include "webhookinboxrepository.h"

#include <QByteArray>

class AadhaarVault;
class Clock;
class Database;

/// The built-in webhook receiver behind POST /hooks/inbox (issue 4): checks a delivery as a
/// careful receiver should — Standard Webhooks signature against the endpoint secrets of the
/// accounts, timestamp within kToleranceSeconds, the body's data.webhook_password — dedupes
/// on webhook-id and stores it, so a fresh install shows the whole round trip.
class WebhookInbox
{
public:
    /// Accepted distance between webhook-timestamp and now, in seconds.
    static constexpr qint64 kToleranceSeconds = 300;

    /// What receive() did: the stored message; duplicate when its webhook-id was seen before.
    struct Receipt
    {
        InboxMessage message;
        bool duplicate = false;
    };

    /// `vault` opens the endpoints' sealed secrets (null: only clear ones verify).
    WebhookInbox(Database &db, const Clock &clock, const AadhaarVault *vault) : m_db(db), m_clock(clock), m_vault(vault)
    {}

    /// Verifies and stores one delivery. Throws ApiError 400 (missing webhook headers, a body
    /// that is not a webhook) or 401 (timestamp outside the tolerance, no endpoint secret
    /// signs it, wrong webhook_password); nothing is stored then.
    Receipt receive(const QByteArray &webhookId, const QByteArray &timestamp, const QByteArray &signature,
                    const QByteArray &body);
    /// Messages of an account and mode, newest first.
    QList<InboxMessage> list(qint64 accountId, Mode mode, int limit, qint64 beforeId);

private:
    Database &m_db;
    const Clock &m_clock;
    const AadhaarVault *m_vault;
};
