#include "setupcontroller.h"

#include "apierror.h"
#include "entities/shopsetupresult.h"
#include "http/apirouter.h"
#include "jsonfields.h"
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
                   const JsonFields fields(request.jsonBody());
                   const CreatedKey key = ShopSetup::run(
                       m_db, m_clock,
                       ShopSetupParams{fields.requiredString(QStringLiteral("shop_name")),
                                       fields.optionalString(QStringLiteral("shop_address")).value_or(QString()),
                                       fields.requiredString(QStringLiteral("admin_name")),
                                       fields.requiredString(QStringLiteral("admin_pin")), m_dataDir});
                   reply.sendData(ShopSetupResult{key.keyId, key.secret}.toJson(), 201);
               });
}
