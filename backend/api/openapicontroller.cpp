#include "openapicontroller.h"

#include "http/apirouter.h"

#include <QFile>

namespace {

QByteArray readDocument()
{
    QFile file(QStringLiteral(":/api/openapi.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("the OpenAPI document is missing from the resources (:/api/openapi.json)");
    return file.readAll();
}

} // namespace

OpenApiController::OpenApiController() : m_document("application/json", readDocument(), "public, max-age=3600")
{}

void OpenApiController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QString::fromLatin1(kPath), Access::Public,
               [this](const ApiRequest &request, const ApiReply &reply) { m_document.send(request, reply); });
}
