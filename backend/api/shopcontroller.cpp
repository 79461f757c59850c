#include "shopcontroller.h"

#include "apierror.h"
#include "auth/authorizer.h"
#include "clock.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"
#include "services/saleterms.h"

#include <QJsonArray>

namespace {

/// A string field that may be present and blank (blank is a value here, not "absent"); free text
/// without control characters (line breaks too when `multiLine`).
std::optional<QString> textField(const QJsonObject &body, const QString &field, bool multiLine = false)
{
    const QJsonValue value = body.value(field);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isString())
        throw ApiError::badRequest(field, QStringLiteral("invalid_type"), field + QStringLiteral(" must be a string"));
    const QString text = value.toString().trimmed();
    JsonFields::requirePlainText(field, text, multiLine);
    return text;
}

/// An integer field by the input coercion rule (JSON integer or digit string).
std::optional<qint64> integerField(const QJsonObject &body, const QString &field)
{
    const QJsonValue value = body.value(field);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    const std::optional<qint64> number = JsonFields::coerceInteger(value);
    if (!number)
        throw ApiError::badRequest(
            field, QStringLiteral("not_an_integer"),
            field + QStringLiteral(" must be a whole number, as a JSON integer or a string of digits"));
    return number;
}

/// A boolean field (JSON true/false only).
std::optional<bool> booleanField(const QJsonObject &body, const QString &field)
{
    const QJsonValue value = body.value(field);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isBool())
        throw ApiError::badRequest(field, QStringLiteral("invalid_type"),
                                   field + QStringLiteral(" must be true or false"));
    return value.toBool();
}

/// discount_basis_points: an object of operator code -> whole basis points (coercion rule).
std::optional<QMap<QString, qint64>> ratesField(const QJsonObject &body)
{
    const QString field = QStringLiteral("discount_basis_points");
    const QJsonValue value = body.value(field);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    QMap<QString, qint64> rates = SaleTerms::ratesFromJson(value);
    if (rates.isEmpty())
        throw ApiError::badRequest(field, QStringLiteral("empty"), field + QStringLiteral(" names no operator"));
    return rates;
}

} // namespace

ShopController::ShopController(Database &db, const Clock &clock, SaleTerms &terms)
    : m_audit(db, clock), m_settings(db, terms)
{}

void ShopController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/shop"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(m_settings.get(request.caller.accountId).toJson());
               });
    router.add(QHttpServerRequest::Method::Put, QStringLiteral("/api/v1/shop"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QJsonObject body = request.jsonBody();
                   if (request.caller.shop && body.contains(QStringLiteral("discount_basis_points")))
                       throw ApiError::forbidden(QStringLiteral("set_by_distributor"),
                                                 QStringLiteral("a shop's discount rates are its margins, set by its "
                                                                "distributor"));
                   ShopUpdate update;
                   update.name = textField(body, QStringLiteral("name"));
                   update.address = textField(body, QStringLiteral("address"), true);
                   update.lowBalanceThresholdRupees =
                       integerField(body, QStringLiteral("low_balance_threshold_rupees"));
                   update.idleLockSeconds = integerField(body, QStringLiteral("idle_lock_seconds"));
                   update.discountBasisPoints = ratesField(body);
                   update.sandboxSettleDelayMs = integerField(body, QStringLiteral("sandbox_settle_delay_ms"));
                   update.circleCode = textField(body, QStringLiteral("circle_code"));
                   update.shiftsEnabled = booleanField(body, QStringLiteral("shifts_enabled"));
                   update.blindCount = booleanField(body, QStringLiteral("blind_count"));
                   update.upiVpa = textField(body, QStringLiteral("upi_vpa"));
                   update.upiPayeeName = textField(body, QStringLiteral("upi_payee_name"));
                   update.complaintDeadlineHours = integerField(body, QStringLiteral("complaint_deadline_hours"));
                   // The sandbox's settle delay is test-mode, and how the counter works (shifts, blind count,
                   // issue 28; the complaint deadline, issue 29) is the admin's to say; everything else prints on,
                   // prices or collects live money (the UPI ID customers pay to), so it needs live authority (a test
                   // admin key alone may not).
                   ShopUpdate liveFields = update;
                   liveFields.sandboxSettleDelayMs.reset();
                   liveFields.shiftsEnabled.reset();
                   liveFields.blindCount.reset();
                   liveFields.complaintDeadlineHours.reset();
                   if (!liveFields.isEmpty())
                       Authorizer::requireLiveAuthority(request.caller);
                   const QString actor = request.caller.actor();
                   reply.sendData(m_settings.update(request.caller.accountId, update, m_audit, actor).toJson());
               });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/audit-log"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const int limit = QueryParameters::limit(request.query, 50, 200);
                   const qint64 cursor = QueryParameters::numberCursor(request.query);
                   const QList<AuditEntry> entries = m_audit.list(request.caller.accountId, limit, cursor);
                   QJsonArray items;
                   for (const AuditEntry &entry : entries)
                       items.append(entry.toJson());
                   reply.sendData(QJsonObject{{QStringLiteral("entity"), QStringLiteral("collection")},
                                              {QStringLiteral("count"), items.size()},
                                              {QStringLiteral("items"), items},
                                              {QStringLiteral("next_cursor"),
                                               entries.size() == limit ? QJsonValue(QString::number(entries.last().id))
                                                                       : QJsonValue(QJsonValue::Null)}});
               });
}
