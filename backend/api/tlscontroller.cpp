#include "tlscontroller.h"

#include "entities/tlsinfo.h"
#include "http/apirouter.h"

void TlsController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/server/tls"), Access::Pos,
               [this](const ApiRequest &, const ApiReply &reply) {
                   TlsInfo info;
                   info.tls = !m_fingerprint.isEmpty();
                   if (info.tls)
                       info.fingerprintSha256 = m_fingerprint;
                   reply.sendData(info.toJson());
               });
}
