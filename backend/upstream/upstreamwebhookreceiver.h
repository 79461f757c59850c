#pragma once

#include <QByteArray>
#include <QString>

class Clock;
class UpstreamDispatcher;

/// POST /hooks/upstream (upstream-contract.md): takes the upstream's webhook for one of our
/// live sales. Checks the Standard Webhooks signature when an upstream webhook secret is
/// configured (timestamp within WebhookInbox::kToleranceSeconds), then data.webhook_password in
/// constant time, then hands the record to the dispatcher, which settles the sale exactly once.
class UpstreamWebhookReceiver
{
public:
    /// What receive() did.
    enum class Result
    {
        Settled,  ///< the sale moved to its final state now
        Unchanged ///< a repeat, a PENDING event, or a sale already settled: nothing changed
    };

    UpstreamWebhookReceiver(UpstreamDispatcher &dispatcher, const Clock &clock)
        : m_dispatcher(dispatcher), m_clock(clock)
    {}

    /// Throws ApiError 401 (no upstream or webhook password configured, wrong password, bad or
    /// missing signature when a secret is configured, stale timestamp), 400 (not a webhook body)
    /// and 404 `unknown_upstream_transaction` (no sale of ours has this reference_id / id).
    /// Nothing changes when it throws.
    Result receive(const QByteArray &webhookId, const QByteArray &timestamp, const QByteArray &signature,
                   const QByteArray &body);

    /// The Standard Webhooks check of one delivery against the upstream's "whsec_…" `secret` at `nowSeconds`
    /// (Unix seconds): webhook-id present, webhook-timestamp Unix seconds within WebhookInbox::kToleranceSeconds
    /// of now, and a webhook-signature entry made with the secret over id, timestamp and body. Throws ApiError 401
    /// `missing_signature`, `stale_timestamp` or `bad_signature`; returns normally only for a signed delivery.
    static void checkSignature(const QString &secret, const QByteArray &webhookId, const QByteArray &timestamp,
                               const QByteArray &signature, const QByteArray &body, qint64 nowSeconds);

private:
    UpstreamDispatcher &m_dispatcher;
    const Clock &m_clock;
};
