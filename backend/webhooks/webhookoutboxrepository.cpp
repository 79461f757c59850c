#include "webhookoutboxrepository.h"

#include "store/database.h"

#include <QRandomGenerator>

namespace {

const QString kEventColumns = QStringLiteral(
    "e.id, e.webhook_id, e.account_id, e.mode, e.event_type, e.transaction_id, e.payload, e.status, e.attempts,"
    " e.retry_index, e.next_attempt_at, e.last_error, e.created_at, e.delivered_at");
constexpr int kEventColumnCount = 14;

QVariant nullableId(qint64 id)
{
    return id > 0 ? QVariant(id) : QVariant(QMetaType::fromType<qlonglong>());
}

WebhookEvent readEvent(const QSqlQuery &q, int first = 0)
{
    WebhookEvent e;
    e.id = q.value(first).toLongLong();
    e.webhookId = q.value(first + 1).toString();
    e.accountId = q.value(first + 2).toLongLong();
    e.mode = ModeNames::modeFromString(q.value(first + 3).toString()).value_or(Mode::Test);
    e.eventType = q.value(first + 4).toString();
    e.transactionId = q.value(first + 5).toLongLong();
    e.payload = q.value(first + 6).toString().toUtf8();
    e.status = WebhookNames::statusFromString(q.value(first + 7).toString()).value_or(WebhookEventStatus::Failed);
    e.attempts = q.value(first + 8).toInt();
    e.retryIndex = q.value(first + 9).toInt();
    e.nextAttemptAtMs = q.value(first + 10).toLongLong();
    e.lastError = q.value(first + 11).toString();
    e.createdAtMs = q.value(first + 12).toLongLong();
    if (!q.value(first + 13).isNull())
        e.deliveredAtMs = q.value(first + 13).toLongLong();
    return e;
}

const QString kAttemptColumns = QStringLiteral(
    "a.id, a.event_id, a.account_id, a.mode, a.attempt, a.attempted_at, a.url, a.http_status, a.latency_ms, a.success,"
    " a.error");

WebhookAttempt readAttempt(const QSqlQuery &q)
{
    WebhookAttempt a;
    a.id = q.value(0).toLongLong();
    a.eventId = q.value(1).toLongLong();
    a.accountId = q.value(2).toLongLong();
    a.mode = ModeNames::modeFromString(q.value(3).toString()).value_or(Mode::Test);
    a.attempt = q.value(4).toInt();
    a.attemptedAtMs = q.value(5).toLongLong();
    a.url = q.value(6).toString();
    if (!q.value(7).isNull())
        a.httpStatus = q.value(7).toInt();
    a.latencyMs = q.value(8).toLongLong();
    a.success = q.value(9).toInt() != 0;
    a.error = q.value(10).toString();
    return a;
}

/// "msg_" and 26 base-36 characters: the creation time in milliseconds (9 characters, zero-padded: enough until
/// the year 5188) and 17 random ones (88 bits). Ids made later sort after earlier ones, so the unique indexes on
/// webhook_id (the outbox's and the inbox's) grow at their right edge like the rowid instead of taking each insert
/// on a random page: with random ids the pages a grouped commit writes grew with the table (issue 17's soak).
QString newWebhookId(qint64 createdAtMs)
{
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    constexpr int kTimeDigits = 9;
    constexpr int kRandomDigits = 17;
    QString id = QStringLiteral("msg_");
    id.append(QString::number(qMax<qint64>(createdAtMs, 0), 36).rightJustified(kTimeDigits, QLatin1Char('0'), true));
    for (int i = 0; i < kRandomDigits; ++i)
        id.append(QLatin1Char(alphabet[QRandomGenerator::system()->bounded(36)]));
    return id;
}

} // namespace

namespace WebhookNames {

QString status(WebhookEventStatus status)
{
    switch (status) {
    case WebhookEventStatus::Pending:
        return QStringLiteral("pending");
    case WebhookEventStatus::Delivered:
        return QStringLiteral("delivered");
    case WebhookEventStatus::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

std::optional<WebhookEventStatus> statusFromString(const QString &text)
{
    for (WebhookEventStatus s :
         {WebhookEventStatus::Pending, WebhookEventStatus::Delivered, WebhookEventStatus::Failed}) {
        if (text == status(s))
            return s;
    }
    return std::nullopt;
}

} // namespace WebhookNames

qint64 WebhookOutboxRepository::insertEvent(WebhookEvent &event)
{
    if (event.webhookId.isEmpty())
        event.webhookId = newWebhookId(event.createdAtMs);
    QSqlQuery &q = m_db.run(
        QStringLiteral("INSERT INTO webhook_events (webhook_id, account_id, mode, event_type, transaction_id, payload,"
                       " status, attempts, retry_index, next_attempt_at, locked_until, last_error, created_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, 0, ?, 0, '', ?) RETURNING id"),
        {event.webhookId, event.accountId, ModeNames::mode(event.mode), event.eventType,
         nullableId(event.transactionId), QString::fromUtf8(event.payload), event.nextAttemptAtMs, event.createdAtMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("webhook event insert returned no id"));
    event.id = q.value(0).toLongLong();
    q.finish();
    return event.id;
}

std::optional<WebhookEvent> WebhookOutboxRepository::findEvent(qint64 id)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("SELECT ") + kEventColumns + QStringLiteral(" FROM webhook_events e WHERE e.id = ?"), {id});
    std::optional<WebhookEvent> event;
    if (q.next())
        event = readEvent(q);
    q.finish();
    return event;
}

QList<std::pair<qint64, Mode>>
WebhookOutboxRepository::dueEndpoints(qint64 nowMs, const QList<std::pair<qint64, Mode>> &exclude, int scanLimit)
{
    QString sql = QStringLiteral("SELECT account_id, mode FROM webhook_events"
                                 " WHERE status = 'pending' AND next_attempt_at <= ? AND locked_until <= ?");
    QVariantList values{nowMs, nowMs};
    for (const auto &[accountId, mode] : exclude) {
        sql += QStringLiteral(" AND NOT (account_id = ? AND mode = ?)");
        values << accountId << ModeNames::mode(mode);
    }
    sql += QStringLiteral(" ORDER BY next_attempt_at LIMIT ?");
    values << scanLimit;
    QSqlQuery &q = m_db.run(sql, values);
    QList<std::pair<qint64, Mode>> endpoints;
    while (q.next()) {
        const std::pair<qint64, Mode> endpoint{q.value(0).toLongLong(),
                                               ModeNames::modeFromString(q.value(1).toString()).value_or(Mode::Test)};
        if (!endpoints.contains(endpoint))
            endpoints.append(endpoint);
    }
    q.finish();
    return endpoints;
}

QList<WebhookEvent> WebhookOutboxRepository::claim(qint64 accountId, Mode mode, qint64 nowMs, int limit,
                                                   qint64 leaseUntilMs, qint64 owner)
{
    const QString lock = m_db.isPostgres() ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString();
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT ") + kEventColumns +
                                QStringLiteral(" FROM webhook_events e WHERE e.status = 'pending' AND e.account_id = ?"
                                               " AND e.mode = ? AND e.next_attempt_at <= ? AND e.locked_until <= ?"
                                               " ORDER BY e.next_attempt_at, e.id LIMIT ?") +
                                lock,
                            {accountId, ModeNames::mode(mode), nowMs, nowMs, limit});
    QList<WebhookEvent> events;
    while (q.next())
        events.append(readEvent(q));
    q.finish();
    for (const WebhookEvent &event : std::as_const(events))
        m_db.run(QStringLiteral("UPDATE webhook_events SET locked_until = ?, locked_by = ? WHERE id = ?"),
                 {leaseUntilMs, owner, event.id});
    return events;
}

std::optional<qint64> WebhookOutboxRepository::nextDueAt(qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT next_attempt_at FROM webhook_events WHERE status = 'pending'"
                                           " AND locked_until <= ? ORDER BY next_attempt_at LIMIT 1"),
                            {nowMs});
    std::optional<qint64> next;
    if (q.next())
        next = q.value(0).toLongLong();
    q.finish();
    return next;
}

void WebhookOutboxRepository::releaseLeases()
{
    m_db.run(QStringLiteral(
        "UPDATE webhook_events SET locked_until = 0, locked_by = 0 WHERE status = 'pending' AND locked_until <> 0"));
}

int WebhookOutboxRepository::renewLeases(qint64 nowMs, qint64 leaseUntilMs, qint64 owner)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE webhook_events SET locked_until = ? WHERE status = 'pending'"
                                           " AND locked_by = ? AND locked_until > ?"),
                            {leaseUntilMs, owner, nowMs});
    const int renewed = q.numRowsAffected();
    q.finish();
    return renewed;
}

int WebhookOutboxRepository::releaseDeadLeases(qint64 nowMs, qint64 owner)
{
    // pg_try_advisory_xact_lock succeeds only when no session holds the owner's key, i.e. that
    // server's connection is gone; the transaction-level lock it takes ends with this transaction.
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE webhook_events SET locked_until = 0, locked_by = 0"
                                           " WHERE status = 'pending' AND locked_until > ? AND locked_by <> 0"
                                           " AND locked_by <> ? AND pg_try_advisory_xact_lock(locked_by)"),
                            {nowMs, owner});
    const int released = q.numRowsAffected();
    q.finish();
    return released;
}

void WebhookOutboxRepository::holdOwnerLock(qint64 owner)
{
    m_db.addSessionStatement(QStringLiteral("SELECT pg_advisory_lock(%1)").arg(owner));
}

qint64 WebhookOutboxRepository::insertAttempt(const WebhookAttempt &a)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("INSERT INTO webhook_attempts (event_id, account_id, mode, attempt, attempted_at, url,"
                       " http_status, latency_ms, success, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
        {a.eventId, a.accountId, ModeNames::mode(a.mode), a.attempt, a.attemptedAtMs, textValue(a.url),
         a.httpStatus ? QVariant(*a.httpStatus) : QVariant(QMetaType::fromType<int>()), a.latencyMs, a.success ? 1 : 0,
         textValue(a.error)});
    if (!q.next())
        throw DatabaseError(QStringLiteral("webhook attempt insert returned no id"));
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

bool WebhookOutboxRepository::updateAfterAttempt(const WebhookEvent &e, qint64 owner)
{
    QSqlQuery &q = m_db.run(
        QStringLiteral("UPDATE webhook_events SET status = ?, attempts = ?, retry_index = ?, next_attempt_at = ?,"
                       " locked_until = 0, locked_by = 0, last_error = ?, delivered_at = ? WHERE id = ?"
                       " AND locked_by = ?"),
        {WebhookNames::status(e.status), e.attempts, e.retryIndex, e.nextAttemptAtMs, textValue(e.lastError),
         e.deliveredAtMs ? QVariant(*e.deliveredAtMs) : QVariant(QMetaType::fromType<qlonglong>()), e.id, owner});
    const bool updated = q.numRowsAffected() > 0;
    q.finish();
    return updated;
}

bool WebhookOutboxRepository::requeue(qint64 eventId, qint64 nowMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("UPDATE webhook_events SET status = 'pending', retry_index = 0,"
                                           " next_attempt_at = ?, locked_until = 0, locked_by = 0 WHERE id = ?"
                                           " AND status <> 'pending'"),
                            {nowMs, eventId});
    return q.numRowsAffected() > 0;
}

std::optional<WebhookAttempt> WebhookOutboxRepository::findAttempt(qint64 accountId, Mode mode, qint64 attemptId)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("SELECT ") + kAttemptColumns +
                     QStringLiteral(" FROM webhook_attempts a WHERE a.id = ? AND a.account_id = ? AND a.mode = ?"),
                 {attemptId, accountId, ModeNames::mode(mode)});
    std::optional<WebhookAttempt> attempt;
    if (q.next())
        attempt = readAttempt(q);
    q.finish();
    return attempt;
}

QList<WebhookDeliveryRow> WebhookOutboxRepository::deliveries(qint64 accountId, Mode mode,
                                                              const WebhookDeliveryFilter &filter)
{
    QString sql = QStringLiteral("SELECT ") + kAttemptColumns + QStringLiteral(", ") + kEventColumns +
                  QStringLiteral(" FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id"
                                 " WHERE a.account_id = ? AND a.mode = ?");
    QVariantList values{accountId, ModeNames::mode(mode)};
    if (filter.eventId > 0) {
        sql += QStringLiteral(" AND a.event_id = ?");
        values.append(filter.eventId);
    }
    if (filter.transactionId > 0) {
        sql += QStringLiteral(" AND e.transaction_id = ?");
        values.append(filter.transactionId);
    }
    if (!filter.webhookId.isEmpty()) {
        sql += QStringLiteral(" AND e.webhook_id = ?");
        values.append(filter.webhookId);
    }
    if (filter.eventStatus) {
        sql += QStringLiteral(" AND e.status = ?");
        values.append(WebhookNames::status(*filter.eventStatus));
    }
    if (filter.success) {
        sql += QStringLiteral(" AND a.success = ?");
        values.append(*filter.success ? 1 : 0);
    }
    if (filter.beforeId > 0) {
        sql += QStringLiteral(" AND a.id < ?");
        values.append(filter.beforeId);
    }
    sql += QStringLiteral(" ORDER BY a.id DESC LIMIT ?");
    values.append(filter.limit);
    QSqlQuery &q = m_db.run(sql, values);
    QList<WebhookDeliveryRow> rows;
    while (q.next()) {
        WebhookDeliveryRow row{readAttempt(q), readEvent(q, 11)};
        row.event.payload.clear();
        rows.append(row);
    }
    q.finish();
    static_assert(kEventColumnCount == 14);
    return rows;
}

int WebhookOutboxRepository::countEvents(WebhookEventStatus status)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT COUNT(*) FROM webhook_events WHERE status = ?"),
                            {WebhookNames::status(status)});
    const int n = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    return n;
}
