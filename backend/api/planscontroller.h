#pragma once

#include "http/staticasset.h"

#include <QByteArray>
#include <QHash>
#include <QString>

class ApiRouter;
class OperatorCatalog;
class PlanCatalogueStore;

/// Endpoint 4 of api-v1.md and what serves it (issue 3):
/// - POST /api/v1/plans/mobile/prepaid-plans (pos): {"operator_code", "circle_code"} -> the
///   pre-serialized catalogue answer with a strong ETag and `Cache-Control: private, max-age=300`;
///   a matching If-None-Match gives 304 with no body. Unknown codes: 400 naming the field
///   (`unknown_operator`, `unknown_circle`).
/// - GET /api/v1/plans/logos/{file} (public, image views load it without credentials): the
///   subscription logos compiled in under :/plans/logos, with ETag/304; anything else is 404.
/// - GET /api/v1/plans/catalogue (pos): {"entity": "plan_catalogue", "catalogue_version", "plans", "pairs"}.
/// - PUT /api/v1/plans/catalogue (admin): replaces the catalogue with the body, validated whole
///   (400 `invalid_catalogue` naming the JSON path or line; nothing changes), answers the summary.
class PlansController
{
public:
    /// Reads the logos from the resources once.
    PlansController(PlanCatalogueStore &store, const OperatorCatalog &operators);
    void registerRoutes(ApiRouter &router);

    /// Method and path of the catalogue import, whose body may exceed the server's usual limit.
    static constexpr const char *kImportMethod = "PUT";
    static constexpr const char *kImportPath = "/api/v1/plans/catalogue";

private:
    PlanCatalogueStore &m_store;
    const OperatorCatalog &m_operators;
    QHash<QString, StaticAsset> m_logos; ///< file name -> bytes
};
