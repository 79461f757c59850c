#include "numberscontroller.h"

#include "apierror.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "validators.h"

namespace {

/// Whether `scope` asks for every account's sales ("network"; "account", the default, is the caller's own); any other
/// value is 400 `invalid_query_parameter`, read before anything else.
bool networkScope(const QUrlQuery &query)
{
    if (!query.hasQueryItem(QStringLiteral("scope")))
        return false;
    const QString scope = query.queryItemValue(QStringLiteral("scope"), QUrl::FullyDecoded).trimmed();
    if (scope == QLatin1String("network"))
        return true;
    if (scope == QLatin1String("account"))
        return false;
    throw QueryParameters::invalid(QStringLiteral("scope"), QStringLiteral("scope must be account or network"));
}

} // namespace

void NumbersController::registerRoutes(ApiRouter &router)
{
    router.add(
        QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/numbers/{phone_number}"), Access::Pos,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QString phone = request.captures.value(0);
            if (!Validators::isPhoneNumber(phone))
                throw ApiError::badRequest(QStringLiteral("phone_number"), QStringLiteral("invalid_phone_number"),
                                           QStringLiteral("phone_number must be 10 digits starting with 6, 7, "
                                                          "8 or 9"));
            const std::optional<NumberInfo::Sighting> shop =
                networkScope(request.query) ? m_lookup.ofNetwork(request.caller.mode, phone)
                                            : m_lookup.ofShop(request.caller.accountId, request.caller.mode, phone);
            m_lookup.askUpstream(
                request.caller.mode, phone, [reply, shop, phone](const std::optional<NumberInfo::Sighting> &upstream) {
                    if (!shop && !upstream)
                        return reply.sendError(ApiError::notFound(
                            QStringLiteral("number_unknown"),
                            QStringLiteral("nothing was sold successfully to %1 yet: choose the operator and "
                                           "circle")
                                .arg(phone)));
                    NumberInfo info;
                    info.phoneNumber = phone;
                    info.best = shop ? *shop : *upstream;
                    info.upstream = upstream;
                    reply.sendData(info.toJson());
                });
        });
}
