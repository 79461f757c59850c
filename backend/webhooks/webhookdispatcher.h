#pragma once

#include "auth/authcontext.h"
#include "retryschedule.h"
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
struct WebhookEndpoint;

/// Delivers the webhook outbox (api-conventions.md, "Webhooks"): asynchronous HTTP POSTs on the
/// server thread, at most kMaxInFlightPerEndpoint at a time per endpoint, Standard Webhooks
/// headers signed with every current secret, a kTimeoutMs limit, redirects not followed, only
/// 2xx counted as delivered. A failure is retried on the RetrySchedule; 410 Gone disables the
/// endpoint; an exhausted schedule marks the event failed. Every try is an attempt row. Events
/// are leased in the database while in memory, so several servers may share a PostgreSQL
/// outbox; a server restarting over SQLite takes every lease back at start(). On PostgreSQL a
/// lease names its server's instance key, on which that server holds a session advisory lock for
/// as long as it runs: the leases of a server that died (kill -9, power cut) are taken back at the
/// next start of any server and every kLeaseCheckMs after, not kLeaseMs later. Live-mode targets
/// are resolved first and refused when the address is not public (AddressGuard); the request
/// then goes to that checked address with the original Host header, so DNS cannot change it.
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
    /// How long a claimed event stays reserved for this server, in milliseconds (longer than
    /// a full lane takes at kTimeoutMs per attempt).
    static constexpr qint64 kLeaseMs = 600'000;
    /// Longest wait between two looks at the outbox (events written by other processes), ms.
    static constexpr qint64 kPollMs = 1'000;
    /// PostgreSQL: how often the leases of servers that died are looked for, in milliseconds.
    static constexpr qint64 kLeaseCheckMs = 10'000;

    /// `retryScale` multiplies the retry schedule (serve --webhook-retry-scale).
    WebhookDispatcher(Database &db, WebhookEndpointService &endpoints, const Clock &clock, double retryScale,
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
    void post(const WebhookEvent &event, const WebhookEndpoint &endpoint, const QUrl &url, const QUrl &target);
    void complete(const WebhookEvent &event, const QUrl &url, std::optional<int> httpStatus, qint64 latencyMs,
                  const QString &error, Failure failure);
    void armPoll(qint64 nowMs);
    void releaseDeadLeases(qint64 nowMs);

    Database &m_db;
    WebhookEndpointService &m_endpoints;
    const Clock &m_clock;
    RetrySchedule m_schedule;
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
};
