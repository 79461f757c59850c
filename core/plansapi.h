#pragma once

#include "answer.h"
#include "entities/plancataloguesummary.h"

/// Calls of the prepaid plans (api-v1.md 4 and issue 13); owns their routes.
class PlansApi
{
public:
    explicit PlansApi(ApiClient &api) : m_api(api) {}

    /// POST /api/v1/plans/mobile/prepaid-plans for one operator and circle, with `etag` as
    /// If-None-Match when not empty (a 304 answer then means "unchanged"; the caller keeps its
    /// copy, so the answer is read by the caller, e.g. PlanCategory::listFromJson).
    ApiCall *prepaidPlans(const QString &operatorCode, const QString &circleCode, const QByteArray &etag) const;
    /// GET /api/v1/plans/catalogue.
    TypedCall<PlanCatalogueSummary> catalogue() const;
    /// GET /api/v1/plans/logos/<name> (an SVG, no credentials): the raw body.
    ApiCall *logo(const QString &name) const;

private:
    ApiClient &m_api;
};
