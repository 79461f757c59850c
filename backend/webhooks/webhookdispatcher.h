#pragma once

#include "auth/authcontext.h"
#include "retryschedule.h"
#include "webhookinboxrepository.h"
#include "webhookoutboxrepository.h"

#include <QHash>
#include <QNetworkAccessManager>
#include <QObject>
#include <QSet>
#include <QSslCertificate>
#include <QTimer>
#include <QUrl>

#include <optional>
#include <vector>

class Clock;
class Database;
class QNetworkReply;
class WebhookEndpointService;
class WebhookInboxVerifier;
struct WebhookEndpoint;

/// Delivers the webhook outbox (api-conventions.md, "Webhooks"): asynchronous HTTP POSTs on the
/// thread it lives on (WebhookDeliveryThread: its own thread and connection, issue 17), at most
/// kMaxInFlightPerEndpoint at a time per endpoint, Standard Webhooks headers signed with every
/// current secret, a kTimeoutMs limit, redirects not followed, only 2xx counted as delivered. A
/// failure is retried on the RetrySchedule; 410 Gone disables the endpoint; an exhausted schedule
/// marks the event failed. Every try is an attempt row. The built-in inbox is reached by a direct
/// call (issue 17): the same signed body and headers, the inbox's checks, and its message stored
/// in the same transaction as the attempt row, one commit per batch; no HTTP round trip.
///
/// Leases (issue 16): a claimed event is reserved for this server until now + leaseMs (default
/// kDefaultLeaseMs, serve --lease-seconds) with FOR UPDATE SKIP LOCKED on PostgreSQL, and
/// the lease is renewed every leaseMs / 3 for as long as the event is in memory or in flight, so a
/// long lane never loses it to another live server, while the claims of a server that stopped
/// delivering (hung, SIGSTOP, cut off) are claimable by another within leaseMs. On PostgreSQL a
/// lease also names its server's instance key, on which that server holds a session advisory lock
/// for as long as its connection lives: the leases of a server whose connection is gone (kill -9,
/// power cut) are taken back every kLeaseCheckMs, sooner than the lease. A server restarting over
/// SQLite takes every lease back at start(). Live-mode targets are resolved first and refused when
/// the address is not public (AddressGuard); the request then goes to that checked address with the
/// original Host header, so DNS cannot change it.
class WebhookDispatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WebhookDispatcher)

public:
    static constexpr int kMaxInFlightPerEndpoint = 4;
    /// The built-in inbox is this server itself: as many requests in flight as QNetworkAccessManager opens
    /// connections to one host (6), so that the inbox's stores share one grouped commit (issue 17).
    static constexpr int kMaxInFlightBuiltinInbox = 6;
    /// Events taken from the outbox per endpoint at once (in flight plus queued).
    static constexpr int kLaneCapacity = 64;
    /// Outcomes are written in groups: at most this long after the first one, in milliseconds
    /// (one commit for many attempts; a crash before it only means a repeat with the same id).
    static constexpr int kFlushDelayMs = 10;
    /// Limit of one HTTP attempt, in milliseconds.
    static constexpr int kTimeoutMs = 15'000;
    /// How long a claimed event stays reserved for this server unless renewed, in milliseconds
    /// (issue 16: a server that stops delivering loses its claims within this time).
    static constexpr qint64 kDefaultLeaseMs = 30'000;
    /// Shortest lease accepted (renewed every third of it, and the outbox is looked at every kPollMs).
    static constexpr qint64 kMinLeaseMs = 3'000;
    /// Longest wait between two looks at the outbox (events written by other processes), ms.
    static constexpr qint64 kPollMs = 1'000;
    /// PostgreSQL: how often the leases of servers that died are looked for, in milliseconds.
    static constexpr qint64 kLeaseCheckMs = 10'000;

    /// `retryScale` multiplies the retry schedule (serve --webhook-retry-scale); `leaseMs` is the
    /// lease of a claim (at least kMinLeaseMs). With `inbox`, deliveries to the built-in inbox are
    /// checked by it and stored directly on `db` (it must read that same database); without, they
    /// go over HTTP like any endpoint's.
    WebhookDispatcher(Database &db, WebhookEndpointService &endpoints, const Clock &clock, double retryScale,
                      qint64 leaseMs = kDefaultLeaseMs, const WebhookInboxVerifier *inbox = nullptr,
                      QObject *parent = nullptr);
    ~WebhookDispatcher() override;

    /// "RechargeDesk-Webhooks/<version>", the version of project(VERSION …) (Version::text()).
    static QByteArray userAgent();
    /// The request body of an event: {"data": {"entity": "webhook", "webhook_event",
    /// "webhook_password", "payload"}} (api-v1.md, Events), compact JSON.
    static QByteArray body(const WebhookEvent &event, const QString &password);

    /// Takes back leases (SQLite: all; PostgreSQL: those of servers that died) and starts
    /// delivering what is due; called once the server listens.
    void start();
    /// Looks at the outbox on the next turn of the event loop (new events are due now).
    void wake();

    /// Under `serve --tls` the built-in inbox is this server itself, usually with a self-signed certificate:
    /// deliveries to the built-in inbox (and only those) trust exactly `certificate` instead of the system trust
    /// store (issue 12). Every other https endpoint keeps the system trust store.
    void setOwnCertificate(const QSslCertificate &certificate) { m_ownCertificate = certificate; }

    /// Attempts finished and recorded so far (for tests and benchmarks).
    quint64 attemptCount() const { return m_attemptCount; }

signals:
    /// After an attempt's outcome is committed.
    void attempted(qint64 eventId, bool delivered);

private:
    QSslCertificate m_ownCertificate;
    using LaneKey = std::pair<qint64, int>;
    struct Lane
    {
        QList<WebhookEvent> queue;
        int inFlight = 0;
        bool builtinInbox = false; ///< the endpoint was the built-in inbox at the last delivery
    };
    struct Outcome
    {
        WebhookEvent event;
        WebhookAttempt attempt;
        bool disableEndpoint = false;
        std::optional<InboxMessage> inboxMessage; ///< a direct delivery to the built-in inbox: stored with the attempt
    };
    /// The body and Standard Webhooks header values of one try.
    struct SignedRequest
    {
        QByteArray body;
        QByteArray webhookId;
        qint64 timestamp = 0; ///< Unix seconds
        QByteArray signature;
    };
    enum class Failure
    {
        None,
        Retry,
        Permanent,
        Gone
    };

    void pump();
    void flushAndClaim(qint64 nowMs);
    void startDeliveries();
    void deliver(const WebhookEvent &event);
    void resolveAndPost(const WebhookEvent &event, const WebhookEndpoint &endpoint, const QUrl &url);
    SignedRequest sign(const WebhookEvent &event, const WebhookEndpoint &endpoint) const;
    void post(const WebhookEvent &event, const WebhookEndpoint &endpoint, const QUrl &url, const QUrl &target);
    void deliverToInbox(const WebhookEvent &event, const WebhookEndpoint &endpoint, const QUrl &url);
    void completeWithStatus(const WebhookEvent &event, const QUrl &url, int status, qint64 latencyMs,
                            const QByteArray &location, std::optional<InboxMessage> inboxMessage = std::nullopt);
    void complete(const WebhookEvent &event, const QUrl &url, std::optional<int> httpStatus, qint64 latencyMs,
                  const QString &error, Failure failure, std::optional<InboxMessage> inboxMessage = std::nullopt);
    void armPoll(qint64 nowMs);
    void releaseDeadLeases(qint64 nowMs);
    void renewLeases(qint64 nowMs);

    Database &m_db;
    WebhookEndpointService &m_endpoints;
    const Clock &m_clock;
    RetrySchedule m_schedule;
    qint64 m_leaseMs;
    const WebhookInboxVerifier *m_inbox;
    QNetworkAccessManager m_network;
    QTimer m_pumpTimer;
    QTimer m_flushTimer;
    QTimer m_sendTimer;
    QTimer m_pollTimer;
    QHash<LaneKey, Lane> m_lanes;
    QSet<qint64> m_inMemory;
    QSet<QNetworkReply *> m_replies;
    std::vector<Outcome> m_results;
    quint64 m_attemptCount = 0;
    bool m_started = false;
    qint64 m_instanceKey = 0;      ///< PostgreSQL: the key this server's leases carry (advisory-locked)
    qint64 m_nextLeaseCheckMs = 0; ///< PostgreSQL: when releaseDeadLeases() runs next
    qint64 m_nextRenewalMs = 0;    ///< when the leases of the events in memory are renewed next
};
