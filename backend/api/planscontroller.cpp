#include "planscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/plancataloguesummary.h"
#include "http/apirouter.h"
#include "http/staticasset.h"
#include "jsonfields.h"
#include "operatorcatalog.h"
#include "plans/plancatalogue.h"
#include "plans/plancataloguestore.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

namespace {

constexpr QByteArrayView kPlansCacheControl = "private, max-age=300";
constexpr QByteArrayView kLogoCacheControl = "public, max-age=86400";

/// The catalogue's metadata; `source`, `upstream_host` and `updated_at` (IST datetime, "" when unknown) are
/// extensions of issue 13.
QJsonObject summaryJson(const PlanCatalogue &catalogue)
{
    const PlanCatalogueOrigin &origin = catalogue.origin();
    return PlanCatalogueSummary{catalogue.version(), catalogue.planCount(), catalogue.pairCount(),
                                origin.source,       origin.upstreamHost,   origin.updatedAt}
        .toJson();
}

} // namespace

PlansController::PlansController(PlanCatalogueStore &store, const OperatorCatalog &operators)
    : m_store(store), m_operators(operators)
{
    QDirIterator it(QStringLiteral(":/plans/logos"), QDir::Files);
    while (it.hasNext()) {
        QFile file(it.next());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString name = QFileInfo(file.fileName()).fileName();
        m_logos.insert(name, StaticAsset(name.endsWith(QLatin1String(".png")) ? "image/png" : "image/svg+xml",
                                         file.readAll(), kLogoCacheControl.toByteArray()));
    }
}

void PlansController::registerRoutes(ApiRouter &router)
{
    // Both read only the immutable catalogue (swapped atomically) and the logos: HTTP worker threads answer them.
    router.addThreadSafe(
        QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/plans/mobile/prepaid-plans"), Access::Pos,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const JsonFields fields(request.jsonBody());
            const QString operatorCode = fields.requiredString(QStringLiteral("operator_code"));
            if (!m_operators.findOperator(operatorCode, ProductKind::Mobile))
                throw ApiError::badRequest(
                    QStringLiteral("operator_code"), QStringLiteral("unknown_operator"),
                    QStringLiteral("operator_code must be one of %1").arg(m_operators.codeList(ProductKind::Mobile)));
            const QString circleCode = fields.requiredString(QStringLiteral("circle_code"));
            if (!m_operators.findCircle(circleCode)) {
                QStringList codes;
                for (const CircleInfo &circle : m_operators.circles())
                    codes.append(circle.code);
                throw ApiError::badRequest(
                    QStringLiteral("circle_code"), QStringLiteral("unknown_circle"),
                    QStringLiteral("circle_code must be one of %1").arg(codes.join(QLatin1Char(' '))));
            }
            // Keep the catalogue alive for this answer even if an import swaps it meanwhile.
            const std::shared_ptr<const PlanCatalogue> catalogue = m_store.current();
            const PlanResponse *response = catalogue->find(operatorCode, circleCode);
            if (!response)
                throw ApiError::notFound(QStringLiteral("no_plans"),
                                         QStringLiteral("no plans for %1 in %2").arg(operatorCode, circleCode));
            const ApiReply::Headers headers{{"ETag", response->etag},
                                            {"Cache-Control", kPlansCacheControl.toByteArray()}};
            if (StaticAsset::etagMatches(request.header("if-none-match"), response->etag))
                reply.send(304, "application/json", {}, headers);
            else
                reply.send(200, "application/json", response->body, headers);
        });

    router.addThreadSafe(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/plans/logos/{file}"), Access::Public,
                         [this](const ApiRequest &request, const ApiReply &reply) {
                             const auto logo = m_logos.constFind(request.captures.value(0));
                             if (logo == m_logos.cend())
                                 throw ApiError::notFound(
                                     QStringLiteral("unknown_logo"),
                                     QStringLiteral("no logo named %1").arg(request.captures.value(0)));
                             logo->send(request, reply);
                         });

    router.add(QHttpServerRequest::Method::Get, QString::fromLatin1(kImportPath), Access::Pos,
               [this](const ApiRequest &, const ApiReply &reply) { reply.sendData(summaryJson(*m_store.current())); });

    router.add(QHttpServerRequest::Method::Put, QString::fromLatin1(kImportPath), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   if (request.body.trimmed().isEmpty())
                       throw ApiError::badRequest(QString(), QStringLiteral("missing_body"),
                                                  QStringLiteral("send the whole catalogue as the JSON body"));
                   reply.sendData(summaryJson(*m_store.install(request.body)));
               });
}
