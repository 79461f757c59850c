#include "upstreamfundscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/collection.h"
#include "funds/fundrequestinput.h"
#include "funds/upstreamfundrequestfollowup.h"
#include "funds/upstreamfundrequestservice.h"
#include "funds/upstreamwalletcheck.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "upstream/upstreamdispatcher.h"

void UpstreamFundsController::registerRoutes(ApiRouter &router)
{
    using Method = QHttpServerRequest::Method;
    router.add(Method::Post, QString::fromLatin1(kSubmitPath), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString name = request.captures.value(0);
                   const std::optional<UpstreamSettings> upstream = m_dispatcher.upstream(name);
                   if (!upstream)
                       throw ApiError::notFound(QStringLiteral("unknown_upstream"),
                                                QStringLiteral("no upstream %1").arg(name));
                   if (!upstream->offers.fundRequests)
                       throw ApiError::conflict(
                           QStringLiteral("not_offered"),
                           QStringLiteral("the upstream %1 takes no fund requests through its API (a "
                                          "spec-only aggregator): pay and ask it the way it says")
                               .arg(name));
                   const FundRequestInput input = FundRequestInput::fromJson(request.jsonBody(), false);
                   // Claimed by this server for the send below: the follow-up takes it only if this send is lost.
                   const StoredUpstreamFundRequest stored =
                       m_requests.create(request.caller, name, input, m_dispatcher.settings().serverId(),
                                         m_clock.nowMs() + m_followUp.claimMs());
                   m_followUp.sendNow(stored, *upstream, [this, reply, id = stored.id] {
                       try {
                           const std::optional<StoredUpstreamFundRequest> now = m_requests.find(id);
                           if (now)
                               reply.sendData(UpstreamFundRequestService::present(*now).toJson(), 201);
                           else
                               reply.sendError(ApiError::notFound(QStringLiteral("fund_request_not_found"),
                                                                  QStringLiteral("fund request %1 is gone").arg(id)));
                       } catch (...) {
                           reply.sendException(std::current_exception());
                       }
                   });
               });
    router.add(Method::Get, QStringLiteral("/api/v1/upstreams/{name}/fund-requests"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString name = request.captures.value(0);
                   if (!m_dispatcher.hasUpstream(name))
                       throw ApiError::notFound(QStringLiteral("unknown_upstream"),
                                                QStringLiteral("no upstream %1").arg(name));
                   const int limit = QueryParameters::limit(request.query, 50, 200);
                   Collection<UpstreamFundRequest> page;
                   page.items =
                       m_requests.list(request.caller, name, limit, QueryParameters::numberCursor(request.query));
                   page.paged = true;
                   if (page.items.size() == limit)
                       page.nextCursor = QString::number(page.items.last().id);
                   reply.sendData(page.toJson());
               });
    router.add(Method::Get, QStringLiteral("/api/v1/upstreams/{name}/wallet"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   m_wallets.check(request.caller.accountId, request.captures.value(0),
                                   [reply](const UpstreamWallet &wallet) { reply.sendData(wallet.toJson()); });
               });
}
