#include "webhookscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "webhooks/webhookendpointservice.h"
#include "webhooks/webhookoutbox.h"

#include <QJsonArray>

namespace {

QJsonValue timeOrNull(std::optional<qint64> ms)
{
    return ms ? QJsonValue(IstTime::formatMs(*ms)) : QJsonValue(QJsonValue::Null);
}

QJsonValue idOrNull(qint64 id)
{
    return id > 0 ? QJsonValue(id) : QJsonValue(QJsonValue::Null);
}

QJsonObject endpointJson(const WebhookEndpointView &view, qint64 nowMs)
{
    const WebhookEndpoint &e = view.endpoint;
    const bool rotating = !e.previousSecret.isEmpty() && e.previousSecretExpiresAtMs > nowMs;
    QJsonObject json{{QStringLiteral("entity"), QStringLiteral("webhook_endpoint")},
                     {QStringLiteral("mode"), ModeNames::mode(e.mode)},
                     {QStringLiteral("url"), view.effectiveUrl.toString()},
                     {QStringLiteral("builtin_inbox"), e.builtinInbox},
                     {QStringLiteral("webhook_password"), e.password},
                     {QStringLiteral("enabled"), !e.disabledAtMs.has_value()},
                     {QStringLiteral("disabled_reason"),
                      e.disabledAtMs ? QJsonValue(e.disabledReason) : QJsonValue(QJsonValue::Null)},
                     {QStringLiteral("previous_secret_expires_at"),
                      timeOrNull(rotating ? std::optional<qint64>(e.previousSecretExpiresAtMs) : std::nullopt)},
                     {QStringLiteral("created_at"), IstTime::formatMs(e.createdAtMs)},
                     {QStringLiteral("updated_at"), IstTime::formatMs(e.updatedAtMs)}};
    if (!view.shownSecret.isEmpty())
        json.insert(QStringLiteral("secret"), view.shownSecret);
    return json;
}

QJsonObject eventJson(const WebhookEvent &e)
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_event")},
                       {QStringLiteral("id"), e.id},
                       {QStringLiteral("webhook_id"), e.webhookId},
                       {QStringLiteral("webhook_event"), e.eventType},
                       {QStringLiteral("transaction_id"), idOrNull(e.transactionId)},
                       {QStringLiteral("status"), WebhookNames::status(e.status)},
                       {QStringLiteral("attempts"), e.attempts},
                       {QStringLiteral("next_attempt_at"),
                        timeOrNull(e.status == WebhookEventStatus::Pending ? std::optional<qint64>(e.nextAttemptAtMs)
                                                                           : std::nullopt)}};
}

QJsonObject deliveryJson(const WebhookDeliveryRow &row)
{
    const WebhookAttempt &a = row.attempt;
    return QJsonObject{
        {QStringLiteral("entity"), QStringLiteral("webhook_delivery")},
        {QStringLiteral("id"), a.id},
        {QStringLiteral("event_id"), a.eventId},
        {QStringLiteral("webhook_id"), row.event.webhookId},
        {QStringLiteral("webhook_event"), row.event.eventType},
        {QStringLiteral("transaction_id"), idOrNull(row.event.transactionId)},
        {QStringLiteral("attempt"), a.attempt},
        {QStringLiteral("datetime"), IstTime::formatMs(a.attemptedAtMs)},
        {QStringLiteral("url"), a.url},
        {QStringLiteral("http_status"), a.httpStatus ? QJsonValue(*a.httpStatus) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("latency_ms"), a.latencyMs},
        {QStringLiteral("success"), a.success},
        {QStringLiteral("error"), a.error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(a.error)},
        {QStringLiteral("event_status"), WebhookNames::status(row.event.status)},
        {QStringLiteral("next_attempt_at"),
         timeOrNull(row.event.status == WebhookEventStatus::Pending ? std::optional<qint64>(row.event.nextAttemptAtMs)
                                                                    : std::nullopt)}};
}

ApiError badQuery(const QString &field, const QString &description)
{
    return ApiError::badRequest(field, QStringLiteral("invalid_query_parameter"), description);
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
    if (query.hasQueryItem(QStringLiteral("limit"))) {
        const std::optional<qint64> limit = JsonFields::coerceInteger(value(QStringLiteral("limit")));
        if (!limit || *limit < 1 || *limit > 200)
            throw badQuery(QStringLiteral("limit"), QStringLiteral("limit must be a whole number from 1 to 200"));
        filter.limit = int(*limit);
    }
    if (query.hasQueryItem(QStringLiteral("cursor"))) {
        const auto decoded =
            QByteArray::fromBase64Encoding(value(QStringLiteral("cursor")).toLatin1(),
                                           QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
        const std::optional<qint64> before = JsonFields::coerceInteger(QString::fromLatin1(decoded.decoded));
        if (!decoded || !before || *before <= 0)
            throw badQuery(QStringLiteral("cursor"), QStringLiteral("cursor is not one this server returned"));
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
                   QJsonArray items;
                   for (const WebhookDeliveryRow &row : rows)
                       items.append(deliveryJson(row));
                   QJsonValue next = QJsonValue::Null;
                   if (rows.size() == filter.limit)
                       next = QString::fromLatin1(
                           QByteArray::number(rows.last().attempt.id)
                               .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
                   reply.sendData(QJsonObject{{QStringLiteral("entity"), QStringLiteral("collection")},
                                              {QStringLiteral("count"), items.size()},
                                              {QStringLiteral("items"), items},
                                              {QStringLiteral("next_cursor"), next}});
               });
    router.add(Method::Post, QStringLiteral("/api/v1/webhook-deliveries/{id}/redeliver"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const WebhookEvent event =
                       m_outbox.redeliver(request.caller.accountId, request.caller.mode, request.idCapture(0));
                   reply.sendData(eventJson(event), 202);
               });
}
