#include "setupcontroller.h"

#include "apierror.h"
#include "http/apirouter.h"
#include "users/shopsetup.h"
#include "webhooks/webhooksigner.h"

void SetupController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/setup"), Access::Public,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   if (!request.peer.isLoopback() || m_token.isEmpty() ||
                       !WebhookSigner::constantTimeEquals(request.header(kTokenHeader), m_token))
                       throw ApiError::forbidden(QStringLiteral("setup_not_allowed"),
                                                 QStringLiteral("the shop is set up at the terminal of this server "
                                                                "(first run) or with `rechargedesk setup`"));
                   if (ShopSetup::isDone(m_db))
                       throw ShopSetup::alreadySetUpError();
                   const QJsonObject body = request.jsonBody();
                   const auto text = [&body](const char *name) { return body.value(QLatin1String(name)).toString(); };
                   const CreatedKey key =
                       ShopSetup::run(m_db, m_clock,
                                      ShopSetupParams{text("shop_name"), text("shop_address"), text("admin_name"),
                                                      text("admin_pin"), m_dataDir});
                   reply.sendData(QJsonObject{{QStringLiteral("entity"), QStringLiteral("shop_setup")},
                                              {QStringLiteral("key_id"), key.keyId},
                                              {QStringLiteral("key_secret"), key.secret}},
                                  201);
               });
}
