#include "complaintscontroller.h"

#include "apierror.h"
#include "complaints/complaintservice.h"
#include "entities/collection.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"

namespace {

/// A free-text field that may be absent ("") or hold newlines; any other JSON type is 400 `invalid_type`.
QString textField(const QJsonObject &body, const QString &field)
{
    const QJsonValue value = body.value(field);
    if (value.isUndefined() || value.isNull())
        return QString();
    if (!value.isString())
        throw ApiError::badRequest(field, QStringLiteral("invalid_type"), field + QStringLiteral(" must be a string"));
    return value.toString();
}

/// The cursor of the next page after `last`: base64url of "u:<id>" (the unresolved part) or "r:<id>" (resolved).
QString cursorAfter(const Complaint &last)
{
    const QByteArray position = (last.isResolved() ? QByteArray("r:") : QByteArray("u:")) + QByteArray::number(last.id);
    return QString::fromLatin1(position.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

ComplaintFilter listFilter(const QUrlQuery &query)
{
    const auto value = [&query](const QString &name) {
        return query.queryItemValue(name, QUrl::FullyDecoded).trimmed();
    };
    ComplaintFilter filter;
    if (query.hasQueryItem(QStringLiteral("state"))) {
        filter.state = value(QStringLiteral("state"));
        if (!Complaint::states().contains(filter.state) && filter.state != QLatin1String("unresolved"))
            throw QueryParameters::invalid(QStringLiteral("state"),
                                           QStringLiteral("state must be open, with_upstream, credited, rejected or "
                                                          "unresolved"));
    }
    if (query.hasQueryItem(QStringLiteral("transaction_id"))) {
        const std::optional<qint64> id = JsonFields::coerceInteger(value(QStringLiteral("transaction_id")));
        if (!id || *id <= 0)
            throw QueryParameters::invalid(QStringLiteral("transaction_id"),
                                           QStringLiteral("transaction_id must be a transaction's id"));
        filter.transactionId = *id;
    }
    filter.limit = QueryParameters::limit(query, filter.limit, 200);
    if (query.hasQueryItem(QStringLiteral("cursor"))) {
        const auto decoded =
            QByteArray::fromBase64Encoding(value(QStringLiteral("cursor")).toLatin1(),
                                           QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
        const QList<QByteArray> parts = decoded.decoded.split(':');
        const std::optional<qint64> id =
            parts.size() == 2 ? JsonFields::coerceInteger(QString::fromLatin1(parts.last())) : std::nullopt;
        if (!decoded || !id || *id <= 0 || (parts.first() != "u" && parts.first() != "r"))
            throw QueryParameters::badCursor();
        filter.resolvedPart = parts.first() == "r";
        filter.beforeId = *id;
    }
    return filter;
}

} // namespace

void ComplaintsController::registerRoutes(ApiRouter &router)
{
    using Method = QHttpServerRequest::Method;
    const QString path = QStringLiteral("/api/v1/complaints");
    router.add(Method::Post, QStringLiteral("/api/v1/transactions/{transaction_id}/complaints"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QJsonObject body = request.jsonBody();
                   const QString reason = JsonFields(body).requiredString(QStringLiteral("reason"));
                   const QString note = textField(body, QStringLiteral("note"));
                   reply.sendData(m_complaints.raise(request.caller, request.idCapture(0), reason, note).toJson(), 201);
               });
    router.add(Method::Get, path, Access::Pos, [this](const ApiRequest &request, const ApiReply &reply) {
        const ComplaintFilter filter = listFilter(request.query);
        Collection<Complaint> page;
        page.items = m_complaints.list(request.caller, filter);
        page.paged = true;
        if (page.items.size() == filter.limit)
            page.nextCursor = cursorAfter(page.items.last());
        reply.sendData(page.toJson());
    });
    router.add(Method::Get, path + QStringLiteral("/{id}"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(m_complaints.get(request.caller, request.idCapture(0)).toJson());
               });
    router.add(Method::Post, path + QStringLiteral("/{id}/resolve"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QJsonObject body = request.jsonBody();
                   ComplaintResolution resolution;
                   resolution.outcome = JsonFields(body).requiredString(QStringLiteral("outcome"));
                   resolution.words = textField(body, QStringLiteral("words"));
                   resolution.operatorReference = textField(body, QStringLiteral("operator_reference"));
                   reply.sendData(m_complaints.resolve(request.caller, request.idCapture(0), resolution).toJson());
               });
}
