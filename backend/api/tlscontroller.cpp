#include "tlscontroller.h"

#include "http/apirouter.h"
#include "servertls.h"

void TlsController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/server/tls"), Access::Pos,
               [this](const ApiRequest &, const ApiReply &reply) {
                   reply.sendData(ServerTls{!m_fingerprint.isEmpty(), m_fingerprint}.toJson());
               });
}
