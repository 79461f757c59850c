#include "fundrequestscontroller.h"

#include "apierror.h"
#include "entities/collection.h"
#include "funds/fundrequestinput.h"
#include "funds/fundrequestservice.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"

namespace {

/// The cursor after `last`: base64url of "<part>:<id>" (part 0 pending, 1 decided; a shop's own list uses part 0).
QString cursorAfter(const FundRequest &last, bool everyShop)
{
    const int part = everyShop && last.state != QLatin1String("pending") ? 1 : 0;
    const QByteArray position = QByteArray::number(part) + ':' + QByteArray::number(last.id);
    return QString::fromLatin1(position.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

FundRequestFilter listFilter(const QUrlQuery &query)
{
    const auto value = [&query](const QString &name) {
        return query.queryItemValue(name, QUrl::FullyDecoded).trimmed();
    };
    FundRequestFilter filter;
    if (query.hasQueryItem(QStringLiteral("state"))) {
        filter.state = value(QStringLiteral("state"));
        if (!FundRequest::states().contains(filter.state))
            throw QueryParameters::invalid(QStringLiteral("state"),
                                           QStringLiteral("state must be pending, approved or rejected"));
    }
    filter.limit = QueryParameters::limit(query, filter.limit, 200);
    if (query.hasQueryItem(QStringLiteral("cursor"))) {
        const auto decoded =
            QByteArray::fromBase64Encoding(value(QStringLiteral("cursor")).toLatin1(),
                                           QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
        const QList<QByteArray> parts = decoded.decoded.split(':');
        const std::optional<qint64> id =
            parts.size() == 2 ? JsonFields::coerceInteger(QString::fromLatin1(parts.last())) : std::nullopt;
        if (!decoded || !id || *id <= 0 || (parts.first() != "0" && parts.first() != "1"))
            throw QueryParameters::badCursor();
        filter.afterPart = parts.first().toInt();
        filter.afterId = *id;
    }
    return filter;
}

} // namespace

void FundRequestsController::registerRoutes(ApiRouter &router)
{
    using Method = QHttpServerRequest::Method;
    const QString path = QString::fromLatin1(kSubmitPath);
    router.add(Method::Post, path, Access::Pos, [this](const ApiRequest &request, const ApiReply &reply) {
        const FundRequestInput input = FundRequestInput::fromJson(request.jsonBody(), true);
        const FundRequestService::Submitted submitted = m_requests.submit(request.caller, input);
        reply.sendData(submitted.request.toJson(), submitted.created ? 201 : 200);
    });
    router.add(Method::Get, path, Access::Pos, [this](const ApiRequest &request, const ApiReply &reply) {
        const FundRequestFilter filter = listFilter(request.query);
        Collection<FundRequest> page;
        page.items = m_requests.list(request.caller, filter);
        page.paged = true;
        if (page.items.size() == filter.limit) {
            // Every shop's order when the items are not all the caller's own.
            const bool everyShop = page.items.last().shopId != request.caller.accountId;
            page.nextCursor = cursorAfter(page.items.last(), everyShop);
        }
        reply.sendData(page.toJson());
    });
    router.add(Method::Get, path + QStringLiteral("/{id}"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(m_requests.get(request.caller, request.idCapture(0)).toJson());
               });
    router.add(Method::Get, path + QStringLiteral("/{id}/slip"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const auto [type, bytes] = m_requests.slip(request.caller, request.idCapture(0));
                   reply.send(200, type.toLatin1(), bytes);
               });
    router.add(Method::Post, path + QStringLiteral("/{id}/approve"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(m_requests.approve(request.caller, request.idCapture(0)).toJson());
               });
    router.add(Method::Post, path + QStringLiteral("/{id}/reject"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QJsonObject body = request.jsonBody();
                   const QJsonValue reason = body.value(QStringLiteral("reason"));
                   if (!reason.isString())
                       throw ApiError::badRequest(QStringLiteral("reason"), QStringLiteral("invalid_reason"),
                                                  QStringLiteral("reason is required: why the request is rejected"));
                   reply.sendData(m_requests.reject(request.caller, request.idCapture(0), reason.toString()).toJson());
               });
}
