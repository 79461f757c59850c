#pragma once

class ApiRouter;
class FundRequestService;

/// Fund requests at the distributor (issue 30, "Fund requests"; docs/api/openapi.yaml, tag Fund requests), beyond the
/// spec:
/// POST /api/v1/fund-requests {amount, method, utr, reference_id, note, slip} -> 201 fund_request (a shop's live
/// key; the same reference_id again answers the first, 200); its body may be up to kMaxSubmitBytes (granted at the
/// request head to a valid key, as the statement import's);
/// GET /api/v1/fund-requests?state=&limit=&cursor= -> a paged collection (a shop's own newest first; the
/// distributor's admins every shop's, pending first then oldest first);
/// GET /api/v1/fund-requests/{id}, GET /api/v1/fund-requests/{id}/slip (the image);
/// POST /api/v1/fund-requests/{id}/approve, POST /api/v1/fund-requests/{id}/reject {reason} (the distributor's live
/// admins). The rules are FundRequestService's; every route stays open to a suspended shop.
class FundRequestsController
{
public:
    explicit FundRequestsController(FundRequestService &requests) : m_requests(requests) {}
    void registerRoutes(ApiRouter &router);

    /// The submit route's method and pattern, and its body limit (1.5 MiB: a 1 MiB slip in base64 and the rest).
    static constexpr const char *kSubmitMethod = "POST";
    static constexpr const char *kSubmitPath = "/api/v1/fund-requests";
    static constexpr long long kMaxSubmitBytes = 1536 * 1024;

private:
    FundRequestService &m_requests;
};
