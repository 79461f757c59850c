#include "webhookscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/collection.h"
#include "entities/webhook.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"
#include "webhooks/webhookendpointservice.h"
#include "webhooks/webhookoutbox.h"

namespace {

std::optional<QDateTime> instant(std::optional<qint64> ms)
{
    return ms ? std::optional<QDateTime>(QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC)) : std::nullopt;
}

std::optional<qint64> idOrNone(qint64 id)
{
    return id > 0 ? std::optional<qint64>(id) : std::nullopt;
}

/// When a pending event is tried next; nullopt once it is delivered or given up.
std::optional<QDateTime> nextAttempt(const WebhookEvent &e)
{
    return instant(e.status == WebhookEventStatus::Pending ? std::optional<qint64>(e.nextAttemptAtMs) : std::nullopt);
}

QJsonObject endpointJson(const WebhookEndpointView &view, qint64 nowMs)
{
    const WebhookEndpoint &e = view.endpoint;
    const bool rotating = !e.previousSecret.isEmpty() && e.previousSecretExpiresAtMs > nowMs;
    WebhookEndpointInfo json;
    json.mode = ModeNames::mode(e.mode);
    json.url = view.effectiveUrl.toString();
    json.builtinInbox = e.builtinInbox;
    json.webhookPassword = e.password;
    json.enabled = !e.disabledAtMs.has_value();
    if (e.disabledAtMs)
        json.disabledReason = e.disabledReason;
    json.previousSecretExpiresAt =
        instant(rotating ? std::optional<qint64>(e.previousSecretExpiresAtMs) : std::nullopt);
    json.createdAt = *instant(e.createdAtMs);
    json.updatedAt = *instant(e.updatedAtMs);
    if (!view.shownSecret.isEmpty())
        json.secret = view.shownSecret;
    return json.toJson();
}

QJsonObject eventJson(const WebhookEvent &e)
{
    WebhookEventInfo json;
    json.id = e.id;
    json.webhookId = e.webhookId;
    json.webhookEvent = e.eventType;
    json.transactionId = idOrNone(e.transactionId);
    json.status = WebhookNames::status(e.status);
    json.attempts = e.attempts;
    json.nextAttemptAt = nextAttempt(e);
    return json.toJson();
}

WebhookDelivery deliveryEntity(const WebhookDeliveryRow &row)
{
    const WebhookAttempt &a = row.attempt;
    WebhookDelivery json;
    json.id = a.id;
    json.eventId = a.eventId;
    json.webhookId = row.event.webhookId;
    json.webhookEvent = row.event.eventType;
    json.transactionId = idOrNone(row.event.transactionId);
    json.attempt = a.attempt;
    json.datetime = *instant(a.attemptedAtMs);
    json.url = a.url;
    if (a.httpStatus)
        json.httpStatus = *a.httpStatus;
    json.latencyMs = a.latencyMs;
    json.success = a.success;
    if (!a.error.isEmpty())
        json.error = a.error;
    json.eventStatus = WebhookNames::status(row.event.status);
    json.nextAttemptAt = nextAttempt(row.event);
    return json;
}

ApiError badQuery(const QString &field, const QString &description)
{
    return QueryParameters::invalid(field, description);
}

qint64 positiveId(const QUrlQuery &query, const QString &name)
{
    if (!query.hasQueryItem(name))
        return 0;
    const std::optional<qint64> id = JsonFields::coerceInteger(query.queryItemValue(name).trimmed());
    if (!id || *id <= 0)
        throw badQuery(name, name + QStringLiteral(" must be a positive whole number"));
    return *id;
}

WebhookDeliveryFilter parseFilter(const QUrlQuery &query)
{
    const auto value = [&query](const QString &name) {
        return query.queryItemValue(name, QUrl::FullyDecoded).trimmed();
    };
    WebhookDeliveryFilter filter;
    filter.eventId = positiveId(query, QStringLiteral("event_id"));
    filter.transactionId = positiveId(query, QStringLiteral("transaction_id"));
    filter.webhookId = value(QStringLiteral("webhook_id"));
    if (query.hasQueryItem(QStringLiteral("status"))) {
        filter.eventStatus = WebhookNames::statusFromString(value(QStringLiteral("status")).toLower());
        if (!filter.eventStatus)
            throw badQuery(QStringLiteral("status"), QStringLiteral("status must be pending, delivered or failed"));
    }
    if (query.hasQueryItem(QStringLiteral("success"))) {
        const QString text = value(QStringLiteral("success")).toLower();
        if (text != QLatin1String("true") && text != QLatin1String("false"))
            throw badQuery(QStringLiteral("success"), QStringLiteral("success must be true or false"));
        filter.success = text == QLatin1String("true");
    }
    filter.limit = QueryParameters::limit(query, filter.limit, 200);
    if (query.hasQueryItem(QStringLiteral("cursor"))) {
        const auto decoded =
            QByteArray::fromBase64Encoding(value(QStringLiteral("cursor")).toLatin1(),
                                           QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
        const std::optional<qint64> before = JsonFields::coerceInteger(QString::fromLatin1(decoded.decoded));
        if (!decoded || !before || *before <= 0)
            throw QueryParameters::badCursor();
        filter.beforeId = *before;
    }
    return filter;
}

ApiError notConfigured(Mode mode)
{
    return ApiError::notFound(QStringLiteral("webhook_endpoint_not_configured"),
                              QStringLiteral("no webhook endpoint is set for %1 mode; PUT /api/v1/webhook-endpoint")
                                  .arg(ModeNames::mode(mode)));
}

} // namespace

void WebhooksController::registerRoutes(ApiRouter &router)
{
    using Method = QHttpServerRequest::Method;
    router.add(Method::Get, QStringLiteral("/api/v1/webhook-endpoint"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const std::optional<WebhookEndpointView> view =
                       m_endpoints.get(request.caller.accountId, request.caller.mode);
                   if (!view)
                       throw notConfigured(request.caller.mode);
                   reply.sendData(endpointJson(*view, m_clock.nowMs()));
               });
    router.add(Method::Put, QStringLiteral("/api/v1/webhook-endpoint"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const JsonFields fields(request.jsonBody());
                   const QString url = fields.requiredString(QStringLiteral("url"));
                   const QString password = fields.requiredString(QStringLiteral("webhook_password"));
                   const WebhookEndpointView view =
                       m_endpoints.set(request.caller.accountId, request.caller.mode, url, password);
                   reply.sendData(endpointJson(view, m_clock.nowMs()), view.created ? 201 : 200);
               });
    router.add(Method::Post, QStringLiteral("/api/v1/webhook-endpoint/rotate-secret"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const WebhookEndpointView view =
                       m_endpoints.rotateSecret(request.caller.accountId, request.caller.mode);
                   reply.sendData(endpointJson(view, m_clock.nowMs()));
               });
    router.add(Method::Post, QStringLiteral("/api/v1/webhook-endpoint/test"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   if (!m_endpoints.get(request.caller.accountId, request.caller.mode))
                       throw notConfigured(request.caller.mode);
                   reply.sendData(eventJson(m_outbox.enqueueTest(request.caller.accountId, request.caller.mode)), 202);
               });
    router.add(Method::Get, QStringLiteral("/api/v1/webhook-deliveries"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const WebhookDeliveryFilter filter = parseFilter(request.query);
                   const QList<WebhookDeliveryRow> rows =
                       m_outbox.deliveries(request.caller.accountId, request.caller.mode, filter);
                   Collection<WebhookDelivery> page;
                   page.paged = true;
                   for (const WebhookDeliveryRow &row : rows)
                       page.items.append(deliveryEntity(row));
                   if (rows.size() == filter.limit)
                       page.nextCursor = QString::fromLatin1(
                           QByteArray::number(rows.last().attempt.id)
                               .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
                   reply.sendData(page.toJson());
               });
    router.add(Method::Post, QStringLiteral("/api/v1/webhook-deliveries/{id}/redeliver"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const WebhookEvent event =
                       m_outbox.redeliver(request.caller.accountId, request.caller.mode, request.idCapture(0));
                   reply.sendData(eventJson(event), 202);
               });
}
