#include "tlscontroller.h"

#include "http/apirouter.h"

#include <QJsonObject>

void TlsController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/server/tls"), Access::Pos,
               [this](const ApiRequest &, const ApiReply &reply) {
                   reply.sendData(QJsonObject{
                       {QStringLiteral("tls"), !m_fingerprint.isEmpty()},
                       {QStringLiteral("fingerprint_sha256"),
                        m_fingerprint.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(m_fingerprint)},
                   });
               });
}
