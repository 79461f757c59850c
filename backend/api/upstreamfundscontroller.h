#pragma once

class ApiRouter;
class Clock;
class UpstreamDispatcher;
class UpstreamFundRequestFollowUp;
class UpstreamFundRequestService;
class UpstreamWalletCheck;

/// The shop's side of fund requests and of its float at a RechargeDesk upstream (issue 30; docs/api/openapi.yaml,
/// tag Fund requests):
/// POST /api/v1/upstreams/{name}/fund-requests {amount, method, utr, note, slip} (live admin) -> 201
/// upstream_fund_request: stored first, then sent (the answer waits for the upstream's, at most its time limit):
/// pending once taken, refused with the upstream's words on a 4xx, still sending without an answer (the follow-up
/// sends it again); its body may be up to FundRequestsController::kMaxSubmitBytes (kSubmitPath);
/// GET /api/v1/upstreams/{name}/fund-requests?limit=&cursor= (admin) -> the caller account's, newest first;
/// GET /api/v1/upstreams/{name}/wallet (any key) -> upstream_wallet (UpstreamWalletCheck).
/// An unknown name is 404 `unknown_upstream`; an upstream that does not offer fund requests (or the balance) is 409
/// `not_offered`.
class UpstreamFundsController
{
public:
    UpstreamFundsController(const Clock &clock, UpstreamDispatcher &dispatcher, UpstreamFundRequestService &requests,
                            UpstreamFundRequestFollowUp &followUp, UpstreamWalletCheck &wallets)
        : m_clock(clock), m_dispatcher(dispatcher), m_requests(requests), m_followUp(followUp), m_wallets(wallets)
    {}
    void registerRoutes(ApiRouter &router);

    /// The submit route's method and pattern (its larger body limit, as FundRequestsController's).
    static constexpr const char *kSubmitMethod = "POST";
    static constexpr const char *kSubmitPath = "/api/v1/upstreams/{name}/fund-requests";

private:
    const Clock &m_clock;
    UpstreamDispatcher &m_dispatcher;
    UpstreamFundRequestService &m_requests;
    UpstreamFundRequestFollowUp &m_followUp;
    UpstreamWalletCheck &m_wallets;
};
