#include "shiftscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/collection.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"

#include <algorithm>

namespace {

/// A money string field ("₹2000.00", Money::parse) in paise; `fallback` when absent or null and one is given.
Paise moneyField(const QJsonObject &body, const QString &field, std::optional<Paise> fallback = std::nullopt)
{
    const QJsonValue value = body.value(field);
    if ((value.isUndefined() || value.isNull()) && fallback)
        return *fallback;
    if (value.isUndefined() || value.isNull())
        throw ApiError::badRequest(field, QStringLiteral("missing_field"), field + QStringLiteral(" is required"));
    const std::optional<Paise> paise = value.isString() ? Money::parse(value.toString().trimmed()) : std::nullopt;
    if (!paise)
        throw ApiError::badRequest(field, QStringLiteral("invalid_amount"),
                                   field + QStringLiteral(" must be an amount such as ₹2000.00"));
    return *paise;
}

/// A string field that may be absent (""); any other JSON type is 400 `invalid_type`.
QString optionalText(const QJsonObject &body, const QString &field)
{
    const QJsonValue value = body.value(field);
    if (value.isUndefined() || value.isNull())
        return QString();
    if (!value.isString())
        throw ApiError::badRequest(field, QStringLiteral("invalid_type"), field + QStringLiteral(" must be a string"));
    return value.toString();
}

/// `counts`: {"500": n, …}; every key a denomination of Shift::kDenominations (400 `unknown_denomination`), every
/// value a whole number (JSON integer or digit string, 400 `invalid_count`); absent means all zero.
QMap<int, qint64> countsField(const QJsonObject &body)
{
    const QString field = QStringLiteral("counts");
    const QJsonValue value = body.value(field);
    QMap<int, qint64> counts;
    if (value.isUndefined() || value.isNull())
        return counts;
    if (!value.isObject())
        throw ApiError::badRequest(field, QStringLiteral("invalid_type"),
                                   QStringLiteral("counts must be an object of note to count, e.g. {\"500\": 4}"));
    const QJsonObject object = value.toObject();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        bool number = false;
        const int denomination = it.key().toInt(&number);
        if (!number || std::find(Shift::kDenominations.begin(), Shift::kDenominations.end(), denomination) ==
                           Shift::kDenominations.end())
            throw ApiError::badRequest(field + QLatin1Char('.') + it.key(), QStringLiteral("unknown_denomination"),
                                       QStringLiteral("%1 is not a note counted here; count 500, 200, 100, 50, 20 and "
                                                      "10 and give the rest as coins")
                                           .arg(it.key()));
        const std::optional<qint64> count = JsonFields::coerceInteger(it.value());
        if (!count)
            throw ApiError::badRequest(field + QLatin1Char('.') + it.key(), QStringLiteral("invalid_count"),
                                       QStringLiteral("the count of ₹%1 notes must be a whole number from 0 to %2")
                                           .arg(it.key())
                                           .arg(ShiftService::kMaxCount));
        counts.insert(denomination, *count);
    }
    return counts;
}

/// The filter of GET /api/v1/shifts.
ShiftFilter listFilter(const QUrlQuery &query)
{
    const auto value = [&query](const QString &name) {
        return query.queryItemValue(name, QUrl::FullyDecoded).trimmed();
    };
    ShiftFilter filter;
    if (query.hasQueryItem(QStringLiteral("date"))) {
        const QDate date = QDate::fromString(value(QStringLiteral("date")), QStringLiteral("yyyy-MM-dd"));
        if (!date.isValid())
            throw QueryParameters::invalid(QStringLiteral("date"), QStringLiteral("date must be YYYY-MM-DD (IST)"));
        filter.openedFromMs = IstTime::at(date, QTime(0, 0)).toMSecsSinceEpoch();
        filter.openedToMs = IstTime::at(date.addDays(1), QTime(0, 0)).toMSecsSinceEpoch();
    }
    filter.clerk = value(QStringLiteral("clerk"));
    filter.terminal = value(QStringLiteral("terminal"));
    if (query.hasQueryItem(QStringLiteral("state"))) {
        const QString state = value(QStringLiteral("state"));
        if (state != QLatin1String("open") && state != QLatin1String("closed"))
            throw QueryParameters::invalid(QStringLiteral("state"), QStringLiteral("state must be open or closed"));
        filter.open = state == QLatin1String("open");
    }
    filter.limit = QueryParameters::limit(query, filter.limit, 200);
    filter.beforeId = QueryParameters::numberCursor(query);
    return filter;
}

} // namespace

ShiftsController::ShiftsController(Database &db, const Clock &clock, SaleTerms &terms)
    : m_audit(db, clock), m_settings(db, terms), m_users(db, clock, m_audit),
      m_shifts(db, clock, m_settings, m_users, m_audit)
{}

void ShiftsController::registerRoutes(ApiRouter &router)
{
    using Method = QHttpServerRequest::Method;
    const QString path = QStringLiteral("/api/v1/shifts");
    router.add(Method::Post, path, Access::Person, [this](const ApiRequest &request, const ApiReply &reply) {
        const QJsonObject body = request.jsonBody();
        const JsonFields fields(body);
        const QString terminal = fields.requiredString(QStringLiteral("terminal"));
        const Paise opening = moneyField(body, QStringLiteral("opening_cash"));
        reply.sendData(m_shifts.open(request.caller, terminal, opening).toJson(), 201);
    });
    router.add(Method::Get, path + QStringLiteral("/current"), Access::Person,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(m_shifts.current(request.caller).toJson());
               });
    router.add(Method::Get, path, Access::Person, [this](const ApiRequest &request, const ApiReply &reply) {
        const ShiftFilter filter = listFilter(request.query);
        Collection<Shift> page;
        page.items = m_shifts.list(request.caller, filter);
        page.paged = true;
        if (page.items.size() == filter.limit)
            page.nextCursor = QString::number(page.items.last().id);
        reply.sendData(page.toJson());
    });
    router.add(Method::Get, path + QStringLiteral("/{id}"), Access::Person,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(m_shifts.get(request.caller, request.idCapture(0)).toJson());
               });
    router.add(Method::Post, path + QStringLiteral("/{id}/cash-moves"), Access::Person,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QJsonObject body = request.jsonBody();
                   const JsonFields fields(body);
                   CashMoveRequest move;
                   move.direction = fields.requiredString(QStringLiteral("direction"));
                   move.amount = moneyField(body, QStringLiteral("amount"));
                   move.reason = fields.requiredString(QStringLiteral("reason"));
                   move.pin = fields.requiredString(QStringLiteral("pin"));
                   reply.sendData(m_shifts.moveCash(request.caller, request.idCapture(0), move).toJson(), 201);
               });
    router.add(Method::Post, path + QStringLiteral("/{id}/close"), Access::Person,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QJsonObject body = request.jsonBody();
                   ShiftCloseRequest close;
                   close.counts = countsField(body);
                   close.coins = moneyField(body, QStringLiteral("coins"), Paise(0));
                   close.note = optionalText(body, QStringLiteral("note"));
                   reply.sendData(m_shifts.close(request.caller, request.idCapture(0), close).toJson());
               });
}
