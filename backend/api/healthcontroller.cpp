#include "healthcontroller.h"

#include "http/apirouter.h"
#include "store/database.h"

#include <QJsonDocument>

void HealthController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/healthz"), Access::Public,
               [this](const ApiRequest &, const ApiReply &reply) {
                   const bool ok = m_db.isAnswering();
                   const QJsonObject body{
                       {QStringLiteral("status"), ok ? QStringLiteral("ok") : QStringLiteral("unavailable")},
                       {QStringLiteral("database"), ok ? QStringLiteral("ok") : QStringLiteral("error")}};
                   reply.send(ok ? 200 : 503, "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact));
               });
}
