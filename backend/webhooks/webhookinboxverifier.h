#pragma once

#include "incomingwebhook.h"
#include "webhookinboxrepository.h"

#include <QByteArray>

class AadhaarVault;
class Clock;
class Database;

/// The checks of the built-in webhook receiver (issue 4), shared by POST /hooks/inbox and the delivery thread's
/// direct call (issue 17): Standard Webhooks signature against the endpoint secrets of every account, timestamp
/// within kToleranceSeconds, the body's data.webhook_password. Reads the endpoints through its own `db`, so each
/// thread verifies on its own connection.
class WebhookInboxVerifier
{
public:
    /// Accepted distance between webhook-timestamp and now, in seconds.
    static constexpr qint64 kToleranceSeconds = IncomingWebhook::kToleranceSeconds;

    /// `vault` opens the endpoints' sealed secrets (null: only clear ones verify); it and `clock` must be safe to read
    /// on the thread that calls verified().
    WebhookInboxVerifier(Database &db, const Clock &clock, const AadhaarVault *vault)
        : m_db(db), m_clock(clock), m_vault(vault)
    {}

    /// The message to store for a delivery with these header values and body (received now), checked as
    /// IncomingWebhook says. Throws ApiError 400 (a body that is not a webhook) or 401 (missing webhook headers,
    /// timestamp outside the tolerance, no endpoint secret signs it, wrong webhook_password), and DatabaseError.
    InboxMessage verified(const QByteArray &webhookId, const QByteArray &timestamp, const QByteArray &signature,
                          const QByteArray &body) const;

private:
    Database &m_db;
    const Clock &m_clock;
    const AadhaarVault *m_vault;
};
