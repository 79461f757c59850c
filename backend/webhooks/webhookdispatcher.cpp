#include "webhookdispatcher.h"

#include "addressguard.h"
#include "apierror.h"
#include "clock.h"
#include "store/database.h"
#include "version.h"
#include "webhookendpointrepository.h"
#include "webhookendpointservice.h"
#include "webhookinboxverifier.h"
#include "webhooksigner.h"

#include <QElapsedTimer>
#include <QHostInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSslConfiguration>

Q_LOGGING_CATEGORY(lcWebhooks, "rechargedesk.webhooks")

namespace {

constexpr qint64 kRetryAfterDbErrorMs = 1000;

} // namespace

WebhookDispatcher::WebhookDispatcher(Database &db, WebhookEndpointService &endpoints, const Clock &clock,
                                     double retryScale, qint64 leaseMs, const WebhookInboxVerifier *inbox,
                                     QObject *parent)
    : QObject(parent), m_db(db), m_endpoints(endpoints), m_clock(clock), m_schedule(retryScale),
      m_leaseMs(qMax(leaseMs, kMinLeaseMs)), m_inbox(inbox)
{
    // A proxy would make the connection for us and defeat the address check of live mode.
    m_network.setProxy(QNetworkProxy::NoProxy);
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_pumpTimer.setSingleShot(true);
    m_pumpTimer.setInterval(0);
    connect(&m_pumpTimer, &QTimer::timeout, this, &WebhookDispatcher::pump);
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushDelayMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &WebhookDispatcher::pump);
    m_sendTimer.setSingleShot(true);
    m_sendTimer.setInterval(0);
    connect(&m_sendTimer, &QTimer::timeout, this, &WebhookDispatcher::startDeliveries);
    m_pollTimer.setSingleShot(true);
    m_pollTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_pollTimer, &QTimer::timeout, this, &WebhookDispatcher::pump);
}

WebhookDispatcher::~WebhookDispatcher()
{
    // Outcomes not yet written are lost; their events are delivered again after the lease
    // (at-least-once, same webhook-id).
    const QSet<QNetworkReply *> replies = m_replies;
    for (QNetworkReply *reply : replies) {
        disconnect(reply, nullptr, this, nullptr);
        reply->abort();
        delete reply;
    }
}

QByteArray WebhookDispatcher::userAgent()
{
    return QByteArray("RechargeDesk-Webhooks/") + Version::text();
}

QByteArray WebhookDispatcher::body(const WebhookEvent &event, const QString &password)
{
    const QJsonObject payload = QJsonDocument::fromJson(event.payload).object();
    const QJsonObject data{{QStringLiteral("entity"), QStringLiteral("webhook")},
                           {QStringLiteral("webhook_event"), event.eventType},
                           {QStringLiteral("webhook_password"), password},
                           {QStringLiteral("payload"), payload}};
    return QJsonDocument(QJsonObject{{QStringLiteral("data"), data}}).toJson(QJsonDocument::Compact);
}

void WebhookDispatcher::start()
{
    if (m_started)
        return;
    m_started = true;
    if (!m_db.isPostgres()) {
        try {
            WriteTransaction transaction(m_db);
            WebhookOutboxRepository(m_db).releaseLeases();
            transaction.commit();
        } catch (const std::exception &e) {
            qCWarning(lcWebhooks, "cannot release webhook leases: %s", e.what());
        }
    } else {
        // A random positive 63-bit key, held for the life of the connection (it ends with the process),
        // and taken again on a new connection should this one be lost.
        const qint64 key = qint64(QRandomGenerator::system()->generate64() >> 1);
        try {
            WebhookOutboxRepository(m_db).holdOwnerLock(key);
            m_instanceKey = key;
        } catch (const std::exception &e) {
            qCWarning(lcWebhooks, "cannot take the webhook lease lock; leases of this server last %lld s: %s",
                      m_leaseMs / 1000, e.what());
        }
    }
    pump();
}

void WebhookDispatcher::releaseDeadLeases(qint64 nowMs)
{
    if (!m_db.isPostgres() || nowMs < m_nextLeaseCheckMs)
        return;
    m_nextLeaseCheckMs = nowMs + kLeaseCheckMs;
    try {
        WriteTransaction transaction(m_db);
        const int released = WebhookOutboxRepository(m_db).releaseDeadLeases(nowMs, m_instanceKey);
        transaction.commit();
        if (released > 0)
            qCInfo(lcWebhooks, "took back %d webhook lease(s) of a server that stopped", released);
    } catch (const std::exception &e) {
        qCWarning(lcWebhooks, "cannot take back the webhook leases of stopped servers: %s", e.what());
    }
}

void WebhookDispatcher::renewLeases(qint64 nowMs)
{
    if (m_inMemory.isEmpty() || nowMs < m_nextRenewalMs)
        return;
    try {
        WriteTransaction transaction(m_db);
        WebhookOutboxRepository(m_db).renewLeases(nowMs, nowMs + m_leaseMs, m_instanceKey);
        transaction.commit();
        m_nextRenewalMs = nowMs + m_leaseMs / 3;
    } catch (const std::exception &e) {
        qCWarning(lcWebhooks, "cannot renew the webhook leases, trying again: %s", e.what());
    }
}

void WebhookDispatcher::wake()
{
    if (m_started && !m_pumpTimer.isActive())
        m_pumpTimer.start();
}

void WebhookDispatcher::pump()
{
    m_pumpTimer.stop();
    m_flushTimer.stop();
    const qint64 now = m_clock.nowMs();
    releaseDeadLeases(now);
    renewLeases(now);
    try {
        flushAndClaim(now);
    } catch (const std::exception &e) {
        qCWarning(lcWebhooks, "webhook outbox round failed, retrying: %s", e.what());
        m_pollTimer.start(int(kRetryAfterDbErrorMs));
        return;
    }
    startDeliveries();
    armPoll(m_clock.nowMs());
}

void WebhookDispatcher::flushAndClaim(qint64 nowMs)
{
    WebhookOutboxRepository outbox(m_db);
    QList<std::pair<qint64, Mode>> full; // lanes with no room: not worth looking at
    for (auto it = m_lanes.cbegin(); it != m_lanes.cend(); ++it) {
        if (int(it->queue.size()) + it->inFlight >= kLaneCapacity)
            full.append({it.key().first, Mode(it.key().second)});
    }
    QList<std::pair<qint64, Mode>> due;
    if (m_results.empty()) {
        due = outbox.dueEndpoints(nowMs, full); // a read: no write transaction when idle
        if (due.isEmpty())
            return;
    }
    std::vector<Outcome> flushed;
    {
        WriteTransaction transaction(m_db);
        WebhookEndpointRepository endpoints(m_db);
        WebhookInboxRepository inbox(m_db);
        for (const Outcome &outcome : m_results) {
            if (outcome.inboxMessage)
                inbox.store(*outcome.inboxMessage);
            outbox.insertAttempt(outcome.attempt);
            if (!outbox.updateAfterAttempt(outcome.event, m_instanceKey))
                qCInfo(lcWebhooks, "webhook event %lld was taken over by another server; its outcome is theirs",
                       outcome.event.id);
            if (outcome.disableEndpoint)
                endpoints.disable(outcome.event.accountId, outcome.event.mode, outcome.attempt.error, nowMs);
        }
        if (!m_results.empty())
            due = outbox.dueEndpoints(nowMs, full);
        QList<std::pair<LaneKey, WebhookEvent>> claimed;
        for (const auto &[accountId, mode] : std::as_const(due)) {
            const LaneKey key{accountId, int(mode)};
            const Lane &lane = m_lanes[key];
            const int room = kLaneCapacity - int(lane.queue.size()) - lane.inFlight;
            if (room <= 0)
                continue;
            for (const WebhookEvent &event :
                 outbox.claim(accountId, mode, nowMs, room, nowMs + m_leaseMs, m_instanceKey))
                claimed.append({key, event});
        }
        transaction.commit();
        if (!claimed.isEmpty() && m_inMemory.isEmpty())
            m_nextRenewalMs = nowMs + m_leaseMs / 3; // nothing older in memory: the first renewal is due then
        flushed.swap(m_results);
        for (const auto &[key, event] : std::as_const(claimed)) {
            if (m_inMemory.contains(event.id))
                continue; // our own lease ran out while it waited: it is queued already
            m_inMemory.insert(event.id);
            m_lanes[key].queue.append(event);
        }
    }
    m_attemptCount += flushed.size();
    for (const Outcome &outcome : flushed)
        emit attempted(outcome.event.id, outcome.attempt.success);
}

void WebhookDispatcher::startDeliveries()
{
    for (auto it = m_lanes.begin(); it != m_lanes.end(); ++it) {
        Lane &lane = it.value();
        const int limit = lane.builtinInbox ? kMaxInFlightBuiltinInbox : kMaxInFlightPerEndpoint;
        while (lane.inFlight < limit && !lane.queue.isEmpty()) {
            ++lane.inFlight;
            deliver(lane.queue.takeFirst());
        }
    }
}

void WebhookDispatcher::armPoll(qint64 nowMs)
{
    qint64 wait = kPollMs;
    try {
        if (const std::optional<qint64> next = WebhookOutboxRepository(m_db).nextDueAt(nowMs))
            wait = qBound(qint64(kFlushDelayMs), *next - nowMs, kPollMs); // due now but no room: no busy loop
        if (!m_inMemory.isEmpty())
            wait = qBound(qint64(kFlushDelayMs), m_nextRenewalMs - nowMs, wait); // renew in time
    } catch (const std::exception &e) {
        qCWarning(lcWebhooks, "cannot read the webhook outbox: %s", e.what());
    }
    m_pollTimer.start(int(wait));
}

void WebhookDispatcher::deliver(const WebhookEvent &event)
{
    std::optional<WebhookEndpointView> view;
    try {
        view = m_endpoints.get(event.accountId, event.mode); // read at every delivery: CLI changes apply at once
    } catch (const std::exception &e) {
        qCWarning(lcWebhooks, "cannot read webhook endpoint settings: %s", e.what());
        complete(event, QUrl(), std::nullopt, 0, QStringLiteral("cannot read the endpoint settings"), Failure::Retry);
        return;
    }
    if (!view) {
        complete(event, QUrl(), std::nullopt, 0,
                 QStringLiteral("no webhook endpoint is set for %1 mode").arg(ModeNames::mode(event.mode)),
                 Failure::Permanent);
        return;
    }
    if (view->endpoint.disabledAtMs) {
        complete(event, view->effectiveUrl, std::nullopt, 0,
                 QStringLiteral("endpoint disabled (%1); set it again to enable it").arg(view->endpoint.disabledReason),
                 Failure::Permanent);
        return;
    }
    m_lanes[LaneKey{event.accountId, int(event.mode)}].builtinInbox = view->endpoint.builtinInbox;
    if (view->endpoint.builtinInbox && m_inbox)
        deliverToInbox(event, view->endpoint, view->effectiveUrl);
    else if (view->endpoint.builtinInbox)
        post(event, view->endpoint, view->effectiveUrl, view->effectiveUrl); // this very server
    else
        resolveAndPost(event, view->endpoint, view->effectiveUrl);
}

void WebhookDispatcher::resolveAndPost(const WebhookEvent &event, const WebhookEndpoint &endpoint, const QUrl &url)
{
    QElapsedTimer elapsed;
    elapsed.start();
    QHostInfo::lookupHost(url.host(), this, [this, event, endpoint, url, elapsed](const QHostInfo &info) {
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty()) {
            complete(event, url, std::nullopt, elapsed.elapsed(),
                     QStringLiteral("cannot resolve %1: %2").arg(url.host(), info.errorString()), Failure::Retry);
            return;
        }
        const bool live = event.mode == Mode::Live;
        for (const QHostAddress &address : info.addresses()) {
            const QString reason =
                live ? AddressGuard::refusalReason(address) : AddressGuard::testModeRefusalReason(address);
            if (!reason.isEmpty()) {
                complete(event, url, std::nullopt, elapsed.elapsed(),
                         QStringLiteral("refused: %1 resolves to %2, a %3 address (%4)")
                             .arg(url.host(), address.toString(), reason,
                                  live ? QStringLiteral("live webhooks go only to public addresses")
                                       : QStringLiteral("test webhooks go only to public or loopback addresses")),
                         Failure::Retry);
                return;
            }
        }
        QUrl target = url;
        target.setHost(info.addresses().constFirst().toString());
        post(event, endpoint, url, target);
    });
}

WebhookDispatcher::SignedRequest WebhookDispatcher::sign(const WebhookEvent &event,
                                                         const WebhookEndpoint &endpoint) const
{
    SignedRequest signedRequest;
    signedRequest.body = body(event, endpoint.password);
    const qint64 now = m_clock.nowMs();
    signedRequest.timestamp = now / 1000;
    signedRequest.webhookId = event.webhookId.toLatin1();
    signedRequest.signature = WebhookSigner::signatureHeader(endpoint.signingSecrets(now), signedRequest.webhookId,
                                                             signedRequest.timestamp, signedRequest.body);
    return signedRequest;
}

void WebhookDispatcher::deliverToInbox(const WebhookEvent &event, const WebhookEndpoint &endpoint, const QUrl &url)
{
    // What POST /hooks/inbox would do with this request, without the round trip: its checks, then its message is
    // stored with the attempt (flushAndClaim), so the answer is the 200 of a stored receipt or the check's error.
    const SignedRequest request = sign(event, endpoint);
    QElapsedTimer elapsed;
    elapsed.start();
    try {
        InboxMessage message = m_inbox->verified(request.webhookId, QByteArray::number(request.timestamp),
                                                 request.signature, request.body);
        completeWithStatus(event, url, 200, elapsed.elapsed(), QByteArray(), std::move(message));
    } catch (const ApiError &error) {
        completeWithStatus(event, url, error.httpStatus(), elapsed.elapsed(), QByteArray());
    } catch (const std::exception &e) { // the endpoints could not be read: the inbox would have answered 5xx
        qCWarning(lcWebhooks, "built-in inbox cannot check a delivery: %s", e.what());
        completeWithStatus(event, url, 503, elapsed.elapsed(), QByteArray());
    }
}

void WebhookDispatcher::post(const WebhookEvent &event, const WebhookEndpoint &endpoint, const QUrl &url,
                             const QUrl &target)
{
    const SignedRequest signedRequest = sign(event, endpoint);
    const QByteArray &payload = signedRequest.body;
    QNetworkRequest request(target);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(kTimeoutMs);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    request.setHeader(QNetworkRequest::UserAgentHeader, userAgent());
    request.setRawHeader("webhook-id", signedRequest.webhookId);
    request.setRawHeader("webhook-timestamp", QByteArray::number(signedRequest.timestamp));
    request.setRawHeader("webhook-signature", signedRequest.signature);
    if (target.host() != url.host()) {
        // Connect to the checked address, tell the server (and TLS) which name we mean.
        const QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
        request.setRawHeader("Host", url.port() == -1 ? host : host + ':' + QByteArray::number(url.port()));
        request.setPeerVerifyName(url.host());
    }
    if (endpoint.builtinInbox && !m_ownCertificate.isNull()) {
        QSslConfiguration tls = request.sslConfiguration();
        tls.setCaCertificates({m_ownCertificate});
        request.setSslConfiguration(tls);
    }
    QElapsedTimer elapsed;
    elapsed.start();
    QNetworkReply *reply = m_network.post(request, payload);
    m_replies.insert(reply);
    auto *deadline = new QTimer(reply);
    deadline->setSingleShot(true);
    connect(deadline, &QTimer::timeout, reply, [reply] {
        reply->setProperty("rechargedesk_timed_out", true);
        reply->abort();
    });
    deadline->start(kTimeoutMs);
    // The receiver's answer body is not needed; do not let it pile up.
    connect(reply, &QIODevice::readyRead, reply, [reply] { reply->skip(reply->bytesAvailable()); });
    connect(reply, &QNetworkReply::finished, this, [this, reply, event, url, elapsed] {
        m_replies.remove(reply);
        reply->deleteLater();
        const qint64 latency = elapsed.elapsed();
        const QVariant statusAttribute = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!statusAttribute.isValid()) {
            const bool timedOut = reply->property("rechargedesk_timed_out").toBool() ||
                                  reply->error() == QNetworkReply::OperationCanceledError ||
                                  reply->error() == QNetworkReply::TimeoutError;
            complete(event, url, std::nullopt, latency,
                     timedOut ? QStringLiteral("no answer within %1 s").arg(kTimeoutMs / 1000) : reply->errorString(),
                     Failure::Retry);
            return;
        }
        completeWithStatus(event, url, statusAttribute.toInt(), latency, reply->rawHeader("Location"));
    });
}

void WebhookDispatcher::completeWithStatus(const WebhookEvent &event, const QUrl &url, int status, qint64 latencyMs,
                                           const QByteArray &location, std::optional<InboxMessage> inboxMessage)
{
    if (status >= 200 && status < 300) {
        complete(event, url, status, latencyMs, QString(), Failure::None, std::move(inboxMessage));
    } else if (status == 410) {
        complete(event, url, status, latencyMs, QStringLiteral("HTTP 410 Gone: endpoint disabled"), Failure::Gone);
    } else if (status >= 300 && status < 400) {
        complete(event, url, status, latencyMs,
                 QStringLiteral("HTTP %1: redirect to %2 not followed")
                     .arg(status)
                     .arg(QString::fromLatin1(location.left(200))),
                 Failure::Retry);
    } else {
        complete(event, url, status, latencyMs, QStringLiteral("HTTP %1").arg(status), Failure::Retry);
    }
}

void WebhookDispatcher::complete(const WebhookEvent &event, const QUrl &url, std::optional<int> httpStatus,
                                 qint64 latencyMs, const QString &error, Failure failure,
                                 std::optional<InboxMessage> inboxMessage)
{
    const qint64 now = m_clock.nowMs();
    Outcome outcome;
    outcome.event = event;
    WebhookEvent &e = outcome.event;
    e.attempts += 1;
    WebhookAttempt &a = outcome.attempt;
    a.eventId = e.id;
    a.accountId = e.accountId;
    a.mode = e.mode;
    a.attempt = e.attempts;
    a.attemptedAtMs = now - latencyMs;
    a.url = url.toString(QUrl::RemoveUserInfo);
    a.httpStatus = httpStatus;
    a.latencyMs = latencyMs;
    a.success = failure == Failure::None;
    a.error = error;
    switch (failure) {
    case Failure::None:
        e.status = WebhookEventStatus::Delivered;
        e.deliveredAtMs = now;
        e.lastError.clear();
        break;
    case Failure::Gone:
        outcome.disableEndpoint = true;
        e.status = WebhookEventStatus::Failed;
        e.lastError = error;
        break;
    case Failure::Permanent:
        e.status = WebhookEventStatus::Failed;
        e.lastError = error;
        break;
    case Failure::Retry:
        if (const std::optional<qint64> delay = m_schedule.delayMs(e.retryIndex)) {
            e.status = WebhookEventStatus::Pending;
            e.retryIndex += 1;
            e.nextAttemptAtMs = now + *delay;
            e.lastError = error;
        } else {
            e.status = WebhookEventStatus::Failed;
            e.lastError = QStringLiteral("gave up after %1 attempts; last error: %2").arg(e.attempts).arg(error);
        }
        break;
    }
    outcome.inboxMessage = std::move(inboxMessage);
    const bool gone = outcome.disableEndpoint;
    m_results.push_back(std::move(outcome));
    m_inMemory.remove(event.id);
    Lane &lane = m_lanes[{event.accountId, int(event.mode)}];
    lane.inFlight = qMax(0, lane.inFlight - 1);
    if (gone) {
        // Nothing more goes to an endpoint that answered 410: write it down now.
        wake();
        return;
    }
    // The next queued event goes out at once; the outcomes are written a little later, together.
    if (!m_sendTimer.isActive())
        m_sendTimer.start();
    if (!m_flushTimer.isActive() && !m_pumpTimer.isActive())
        m_flushTimer.start();
}
