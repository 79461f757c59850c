#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>

class Clock;
class UpstreamDispatcher;

/// POST /hooks/upstream/{name} and POST /hooks/upstream for `default` (docs/upstream-contract.md): takes an upstream's
/// webhook for one of the live sales sent to it. Checks the Standard Webhooks signature when that upstream's webhook
/// secret is configured, then data.webhook_password in constant time (IncomingWebhook), then hands the record to the
/// dispatcher, which settles the sale exactly once (or reverses it, or records a mismatch). An `event.complaint` (issue
/// 29: a RechargeDesk upstream's complaint about one of those sales changed) goes to the complaint handler instead, an
/// `event.fund_request` (issue 30: a fund request this server sent there was taken or decided) to the fund request
/// handler.
class UpstreamWebhookReceiver
{
public:
    /// What receive() did.
    enum class Result
    {
        Settled,  ///< the sale moved to its final state now, or was reversed (FAILED after SUCCESS)
        Unchanged ///< a repeat, a PENDING event, or a mismatch left for a person: no money moved
    };

    /// Takes an authenticated `event.complaint` of the upstream named first, with its data.payload (the upstream's
    /// complaint entity); throws ApiError like receive().
    using ComplaintHandler = std::function<Result(const QString &upstreamName, const QJsonObject &payload)>;
    /// Takes an authenticated `event.fund_request` the same way (its payload the upstream's fund_request entity).
    using FundRequestHandler = ComplaintHandler;

    UpstreamWebhookReceiver(UpstreamDispatcher &dispatcher, const Clock &clock)
        : m_dispatcher(dispatcher), m_clock(clock)
    {}

    /// Where `event.complaint` webhooks go (ComplaintService::fromUpstreamWebhook); without one they are 400
    /// `not_a_transaction` as any other event that carries no sale.
    void setComplaintHandler(ComplaintHandler handler) { m_complaints = std::move(handler); }
    /// Where `event.fund_request` webhooks go (UpstreamFundRequestService::fromUpstreamWebhook); without one they are
    /// 400 `not_a_transaction`.
    void setFundRequestHandler(FundRequestHandler handler) { m_fundRequests = std::move(handler); }

    /// A webhook of the upstream `upstreamName`. Throws ApiError 401 (no such upstream or no webhook password
    /// configured for it, wrong password, bad or missing signature when a secret is configured, stale timestamp),
    /// 400 (not a webhook body) and 404 `unknown_upstream_transaction` (no sale sent to it has this reference_id /
    /// id). Nothing changes when it throws.
    Result receive(const QString &upstreamName, const QByteArray &webhookId, const QByteArray &timestamp,
                   const QByteArray &signature, const QByteArray &body);

    /// The Standard Webhooks check of one delivery against the upstream's "whsec_…" `secret` at `nowSeconds`
    /// (Unix seconds): IncomingWebhook::checkedTimestamp(), and a webhook-signature entry made with the secret over
    /// id, timestamp and body. Throws ApiError 401 (IncomingWebhook's reasons, or `invalid_signature`); returns
    /// normally only for a signed delivery.
    static void checkSignature(const QString &secret, const QByteArray &webhookId, const QByteArray &timestamp,
                               const QByteArray &signature, const QByteArray &body, qint64 nowSeconds);

private:
    UpstreamDispatcher &m_dispatcher;
    const Clock &m_clock;
    ComplaintHandler m_complaints;
    FundRequestHandler m_fundRequests;
};
