#include "tlscontroller.h"

#include "entities/servertls.h"
#include "http/apirouter.h"

void TlsController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/server/tls"), Access::Pos,
               [this](const ApiRequest &, const ApiReply &reply) {
                   reply.sendData(ServerTls{!m_fingerprint.isEmpty(), m_fingerprint}.toJson());
               });
}
