#include "shopscontroller.h"

#include "apierror.h"
#include "auth/apikeyservice.h"
#include "auth/authenticator.h"
#include "auth/authorizer.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"
#include "services/saleterms.h"
#include "shops/shopservice.h"

#include <QJsonArray>

namespace {

using Method = QHttpServerRequest::Method;

/// The shop id of the path: a number, else 404 shop_not_found (ShopService answers the same for a number that names
/// no shop).
qint64 shopId(const ApiRequest &request)
{
    bool ok = false;
    const qint64 id = request.captures.value(0).toLongLong(&ok);
    if (!ok || id <= 0)
        throw ApiError::notFound(QStringLiteral("shop_not_found"),
                                 QStringLiteral("no shop has id %1").arg(request.captures.value(0)));
    return id;
}

/// An optional string field; 400 invalid_type when present and not a string.
std::optional<QString> optionalText(const QJsonObject &body, const QString &field)
{
    const QJsonValue value = body.value(field);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isString())
        throw ApiError::badRequest(field, QStringLiteral("invalid_type"), field + QStringLiteral(" must be a string"));
    return value.toString();
}

/// Whole rupees (JSON integer or digit string) as paise; 400 naming `field` otherwise.
Paise rupeesField(const QJsonObject &body, const QString &field)
{
    return JsonFields(body).requiredInteger(field) * Money::kPaisePerRupee;
}

/// A YYYY-MM-DD query date; invalid (→ 400 invalid_date_range from ShopService) when absent or malformed.
QDate queryDate(const ApiRequest &request, const QString &name)
{
    return QDate::fromString(request.query.queryItemValue(name, QUrl::FullyDecoded).trimmed(),
                             QStringLiteral("yyyy-MM-dd"));
}

QJsonObject keyJson(const ShopKey &key)
{
    ApiKey entity = ApiKeyService::toEntity(key.key);
    entity.secret = key.secret;
    return QJsonObject{{QStringLiteral("key"), entity.toJson()},
                       {QStringLiteral("connect"), QJsonArray::fromStringList(key.connect)}};
}

QJsonObject marginsJson(const QMap<QString, int> &rates)
{
    QJsonObject basisPoints;
    for (auto it = rates.cbegin(); it != rates.cend(); ++it)
        basisPoints.insert(it.key(), it.value());
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("shop_margins")},
                       {QStringLiteral("discount_basis_points"), basisPoints}};
}

} // namespace

QString ShopsController::baseUrl(const ApiRequest &request) const
{
    const QString host = QString::fromLatin1(request.header("host")).trimmed();
    if (host.isEmpty())
        return QString();
    return (m_tls ? QStringLiteral("https://") : QStringLiteral("http://")) + host + QStringLiteral("/api/v1");
}

void ShopsController::registerRoutes(ApiRouter &router)
{
    // Every route: the distributor's own account only.
    const auto add = [&router](Method method, const QString &pattern, Access access, ApiRouter::Handler handler) {
        router.add(method, pattern, access,
                   [handler = std::move(handler)](const ApiRequest &request, const ApiReply &reply) {
                       Authorizer::requireDistributor(request.caller);
                       handler(request, reply);
                   });
    };

    add(Method::Get, QStringLiteral("/api/v1/shops"), Access::Admin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            ShopListQuery query;
            query.search = request.query.queryItemValue(QStringLiteral("q"), QUrl::FullyDecoded).trimmed();
            query.state = request.query.queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded).trimmed();
            if (request.query.hasQueryItem(QStringLiteral("sort")))
                query.sort = request.query.queryItemValue(QStringLiteral("sort"), QUrl::FullyDecoded).trimmed();
            const QString order = request.query.queryItemValue(QStringLiteral("order"), QUrl::FullyDecoded).trimmed();
            if (!order.isEmpty() && order != QLatin1String("asc") && order != QLatin1String("desc"))
                throw QueryParameters::invalid(QStringLiteral("order"), QStringLiteral("order must be asc or desc"));
            query.descending = order == QLatin1String("desc");
            query.limit =
                QueryParameters::limit(request.query, ShopService::kDefaultListLimit, ShopService::kMaxListLimit);
            query.offset = QueryParameters::numberCursor(request.query);
            reply.sendData(m_shops.list(query).toJson());
        });
    add(Method::Post, QStringLiteral("/api/v1/shops"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QJsonObject body = request.jsonBody();
            const JsonFields fields(body);
            NewShop shop;
            shop.name = fields.requiredString(QStringLiteral("name"));
            shop.owner = fields.requiredString(QStringLiteral("owner"));
            shop.mobile = fields.requiredString(QStringLiteral("mobile"));
            shop.circleCode = fields.requiredString(QStringLiteral("circle_code"));
            shop.gstin = optionalText(body, QStringLiteral("gstin")).value_or(QString());
            if (body.contains(QStringLiteral("credit_limit")) && !body.value(QStringLiteral("credit_limit")).isNull())
                shop.creditLimit = rupeesField(body, QStringLiteral("credit_limit"));
            const AddedShop added = m_shops.add(shop, request.caller.actor(), baseUrl(request));
            QJsonObject json = keyJson(added.key);
            json.insert(QStringLiteral("entity"), QStringLiteral("shop_created"));
            json.insert(QStringLiteral("shop"), added.shop.toJson());
            reply.sendData(json, 201);
        });
    add(Method::Get, QStringLiteral("/api/v1/shops/{id}"), Access::Admin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            reply.sendData(m_shops.detail(shopId(request)).toJson());
        });
    add(Method::Put, QStringLiteral("/api/v1/shops/{id}"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QJsonObject body = request.jsonBody();
            ShopChanges changes;
            changes.owner = optionalText(body, QStringLiteral("owner"));
            changes.mobile = optionalText(body, QStringLiteral("mobile"));
            changes.circleCode = optionalText(body, QStringLiteral("circle_code"));
            changes.gstin = optionalText(body, QStringLiteral("gstin"));
            reply.sendData(m_shops.update(shopId(request), changes, request.caller.actor()).toJson());
        });
    add(Method::Post, QStringLiteral("/api/v1/shops/{id}/topups"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QJsonObject body = request.jsonBody();
            const JsonFields fields(body);
            ShopTopup topup;
            topup.amount = rupeesField(body, QStringLiteral("amount"));
            topup.method = fields.requiredString(QStringLiteral("method"));
            topup.reference = optionalText(body, QStringLiteral("reference")).value_or(QString());
            topup.note = optionalText(body, QStringLiteral("note")).value_or(QString());
            reply.sendData(m_shops.topup(shopId(request), topup, request.caller.actor()).toJson(), 201);
        });
    add(Method::Put, QStringLiteral("/api/v1/shops/{id}/credit-limit"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const Paise limit = rupeesField(request.jsonBody(), QStringLiteral("credit_limit"));
            reply.sendData(m_shops.setCreditLimit(shopId(request), limit, request.caller.actor()).toJson());
        });
    add(Method::Get, QStringLiteral("/api/v1/shops/{id}/margins"), Access::Admin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            reply.sendData(marginsJson(m_shops.margins(shopId(request))));
        });
    add(Method::Put, QStringLiteral("/api/v1/shops/{id}/margins"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const qint64 id = shopId(request);
            const QMap<QString, qint64> rates =
                SaleTerms::ratesFromJson(request.jsonBody().value(QStringLiteral("discount_basis_points")));
            reply.sendData(marginsJson(m_shops.setMargins(id, rates, request.caller.actor())));
        });
    add(Method::Post, QStringLiteral("/api/v1/shops/{id}/suspend"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QString reason = JsonFields(request.jsonBody()).requiredString(QStringLiteral("reason"));
            const Shop shop = m_shops.suspend(shopId(request), reason, request.caller.actor());
            m_authenticator.clearCache();
            reply.sendData(shop.toJson());
        });
    add(Method::Post, QStringLiteral("/api/v1/shops/{id}/resume"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const Shop shop = m_shops.resume(shopId(request), request.caller.actor());
            m_authenticator.clearCache();
            reply.sendData(shop.toJson());
        });
    add(Method::Get, QStringLiteral("/api/v1/shops/{id}/keys"), Access::Admin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            QJsonArray items;
            for (const ApiKeyRow &key : m_shops.keys(shopId(request)))
                items.append(ApiKeyService::toEntity(key).toJson());
            reply.sendData(QJsonObject{{QStringLiteral("entity"), QStringLiteral("collection")},
                                       {QStringLiteral("count"), items.size()},
                                       {QStringLiteral("items"), items}});
        });
    add(Method::Post, QStringLiteral("/api/v1/shops/{id}/keys"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QJsonObject body = request.jsonBody();
            const qint64 id = shopId(request);
            const QString name = JsonFields(body).requiredString(QStringLiteral("name"));
            const QString modeText = optionalText(body, QStringLiteral("mode")).value_or(QStringLiteral("live"));
            const std::optional<Mode> mode = ModeNames::modeFromString(modeText);
            if (!mode)
                throw ApiError::badRequest(QStringLiteral("mode"), QStringLiteral("invalid_mode"),
                                           QStringLiteral("mode must be test or live"));
            QJsonObject json = keyJson(m_shops.createKey(id, name, *mode, request.caller.actor(), baseUrl(request)));
            json.insert(QStringLiteral("entity"), QStringLiteral("shop_key"));
            reply.sendData(json, 201);
        });
    add(Method::Post, QStringLiteral("/api/v1/shops/{id}/keys/{key_id}/rotate"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            QJsonObject json = keyJson(m_shops.rotateKey(shopId(request), request.captures.value(1),
                                                         request.caller.actor(), baseUrl(request)));
            m_authenticator.clearCache();
            json.insert(QStringLiteral("entity"), QStringLiteral("shop_key"));
            reply.sendData(json, 201);
        });
    add(Method::Delete, QStringLiteral("/api/v1/shops/{id}/keys/{key_id}"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const ApiKeyRow key = m_shops.revokeKey(shopId(request), request.captures.value(1), request.caller.actor());
            m_authenticator.clearCache();
            reply.sendData(ApiKeyService::toEntity(key).toJson());
        });
    add(Method::Get, QStringLiteral("/api/v1/shops/{id}/statement"), Access::Admin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const qint64 id = shopId(request);
            const QDate from = queryDate(request, QStringLiteral("from"));
            const QDate to = queryDate(request, QStringLiteral("to"));
            const QString format = request.query.queryItemValue(QStringLiteral("format"), QUrl::FullyDecoded).trimmed();
            if (format == QLatin1String("csv")) {
                const QByteArray csv = m_shops.statementCsv(id, from, to);
                const QByteArray file = QStringLiteral("attachment; filename=\"statement-%1-%2-%3.csv\"")
                                            .arg(id)
                                            .arg(from.toString(Qt::ISODate), to.toString(Qt::ISODate))
                                            .toLatin1();
                reply.send(200, "text/csv; charset=utf-8", csv, {{"Content-Disposition", file}});
                return;
            }
            if (!format.isEmpty() && format != QLatin1String("json"))
                throw QueryParameters::invalid(QStringLiteral("format"), QStringLiteral("format must be json or csv"));
            const int limit = QueryParameters::limit(request.query, ShopService::kDefaultStatementLimit,
                                                     ShopService::kMaxStatementLimit);
            const qint64 offset = QueryParameters::numberCursor(request.query);
            reply.sendData(m_shops.statement(id, from, to, limit, offset).toJson());
        });
}
