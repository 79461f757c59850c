#pragma once

#include "auth/authcontext.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

class Database;

/// Where a webhook event stands: waiting for (another) try, delivered (a 2xx), or given up
/// (schedule exhausted, endpoint gone or missing).
enum class WebhookEventStatus
{
    Pending,
    Delivered,
    Failed
};

namespace WebhookNames {
QString status(WebhookEventStatus status);                           ///< "pending" / "delivered" / "failed"
std::optional<WebhookEventStatus> statusFromString(const QString &); ///< from the names above
} // namespace WebhookNames

/// One outbox row: an event to deliver to the endpoint of its account and mode. Times are UTC
/// milliseconds.
struct WebhookEvent
{
    qint64 id = 0;
    QString webhookId; ///< the webhook-id header, "msg_" + creation time + random; stable across retries
    qint64 accountId = 0;
    Mode mode = Mode::Test;
    QString eventType;        ///< "event.mobile_recharge" etc., or "event.test"
    qint64 transactionId = 0; ///< 0 for a test event
    QByteArray payload;       ///< data.payload as compact JSON
    WebhookEventStatus status = WebhookEventStatus::Pending;
    int attempts = 0;   ///< tries made so far, all rounds
    int retryIndex = 0; ///< failed tries in the current round (redelivery starts a new round)
    qint64 nextAttemptAtMs = 0;
    QString lastError;
    qint64 createdAtMs = 0;
    std::optional<qint64> deliveredAtMs;
};

/// One delivery attempt, as the delivery log shows it.
struct WebhookAttempt
{
    qint64 id = 0;
    qint64 eventId = 0;
    qint64 accountId = 0;
    Mode mode = Mode::Test;
    int attempt = 0; ///< 1 for the first try of the event
    qint64 attemptedAtMs = 0;
    QString url;
    std::optional<int> httpStatus; ///< none when no HTTP answer came (refused, timeout, SSRF guard)
    qint64 latencyMs = 0;
    bool success = false;
    QString error; ///< empty on success
};

/// A delivery log row: the attempt and the event it belongs to.
struct WebhookDeliveryRow
{
    WebhookAttempt attempt;
    WebhookEvent event; ///< payload left empty
};

/// Filters of GET /api/v1/webhook-deliveries. Zero / empty / nullopt means "any".
struct WebhookDeliveryFilter
{
    qint64 eventId = 0;
    qint64 transactionId = 0;
    QString webhookId;
    std::optional<WebhookEventStatus> eventStatus;
    std::optional<bool> success;
    qint64 beforeId = 0; ///< keyset cursor: attempts with a smaller id
    int limit = 50;
};

/// The transactional outbox of webhook events and the log of their delivery attempts. Writes
/// run inside the caller's transaction. PostgreSQL-portable SQL; claims use FOR UPDATE SKIP
/// LOCKED there so several servers can share the outbox. Throws DatabaseError.
class WebhookOutboxRepository
{
public:
    explicit WebhookOutboxRepository(Database &db) : m_db(db) {}

    /// Inserts a pending event due at `event.nextAttemptAtMs`; generates webhookId when empty.
    /// Returns the new id.
    qint64 insertEvent(WebhookEvent &event);
    /// The event with this id; nullopt if none.
    std::optional<WebhookEvent> findEvent(qint64 id);
    /// Accounts and modes with pending events due at `nowMs` and not leased, looking at no more
    /// than `scanLimit` due events (oldest first) and skipping the endpoints in `exclude`
    /// (those with no room left), so the cost does not grow with the backlog.
    QList<std::pair<qint64, Mode>> dueEndpoints(qint64 nowMs, const QList<std::pair<qint64, Mode>> &exclude = {},
                                                int scanLimit = 256);
    /// Leases up to `limit` due, unleased pending events of one endpoint until `leaseUntilMs` for
    /// `owner` (the claiming server's instance key, 0 on SQLite) and returns them, oldest due first.
    QList<WebhookEvent> claim(qint64 accountId, Mode mode, qint64 nowMs, int limit, qint64 leaseUntilMs,
                              qint64 owner = 0);
    /// The earliest next_attempt_at of a pending event not leased at `nowMs`; nullopt when
    /// there is none (leased events come back when their lease ends; callers poll for those).
    std::optional<qint64> nextDueAt(qint64 nowMs);
    /// Drops every lease (a single server restarting over SQLite owns all of them).
    void releaseLeases();
    /// Extends until `leaseUntilMs` the leases of `owner` (0 on SQLite) that have not run out at `nowMs`
    /// (issue 16: an event in memory or in flight keeps its claim). Returns how many.
    int renewLeases(qint64 nowMs, qint64 leaseUntilMs, qint64 owner);
    /// PostgreSQL: drops the unexpired leases of owners other than `owner` whose session advisory
    /// lock on their key is gone (servers that died); returns how many. Run inside a transaction.
    int releaseDeadLeases(qint64 nowMs, qint64 owner);
    /// PostgreSQL: takes the session advisory lock on `owner` (the server's instance key) and has
    /// the database take it again on every new connection, so releaseDeadLeases() of other servers
    /// sees this one alive for as long as it runs.
    void holdOwnerLock(qint64 owner);

    /// Appends an attempt row; returns its id.
    qint64 insertAttempt(const WebhookAttempt &attempt);
    /// Sets the outcome of a try: status, counters, next due time, error; clears the lease. Only while the
    /// event is leased by `owner` (0 on SQLite): a server whose lease another one took over does not undo that
    /// server's outcome (issue 16). False when it was not.
    bool updateAfterAttempt(const WebhookEvent &event, qint64 owner = 0);
    /// Starts a new delivery round for a delivered or failed event (same webhook-id), due at
    /// `nowMs`; false when the event is pending already or does not exist.
    bool requeue(qint64 eventId, qint64 nowMs);

    /// The attempt with this id of this account and mode; nullopt if none.
    std::optional<WebhookAttempt> findAttempt(qint64 accountId, Mode mode, qint64 attemptId);
    /// The delivery log of an account and mode, newest attempt first.
    QList<WebhookDeliveryRow> deliveries(qint64 accountId, Mode mode, const WebhookDeliveryFilter &filter);
    /// Number of events in `status` (all accounts), for health and tests.
    int countEvents(WebhookEventStatus status);

private:
    Database &m_db;
};
