#pragma once

#include <QString>

#include <functional>

class ApiRouter;
class Authenticator;
class ShopService;
struct ApiRequest;

/// The distributor's shops over HTTP (issue 30, "Shops"; docs/api/openapi.yaml, tag Shops): GET/POST
/// /api/v1/shops, GET/PUT /api/v1/shops/{id}, POST …/topups, PUT …/credit-limit, GET/PUT …/margins, POST …/suspend
/// and …/resume, GET/POST …/keys, POST …/keys/{key_id}/rotate, DELETE …/keys/{key_id}, GET …/statement (JSON, or CSV
/// with format=csv). Reads need admin authority, changes live admin authority; a caller of a shop's own account is
/// 403 `distributor_only` on every route, whatever its key's scope (Authorizer::requireDistributor). Amounts in the
/// requests are whole rupees (JSON integer or digit string). The rules are ShopService's.
class ShopsController
{
public:
    /// `tls`: whether this server answers HTTPS (the scheme of the connect lines' URL).
    ShopsController(ShopService &shops, Authenticator &authenticator, bool tls)
        : m_shops(shops), m_authenticator(authenticator), m_tls(tls)
    {}
    /// Adds the /api/v1/shops routes to `router`.
    void registerRoutes(ApiRouter &router);

private:
    /// The API base the caller reached: http(s)://<Host>/api/v1 ("" without a Host header).
    QString baseUrl(const ApiRequest &request) const;

    ShopService &m_shops;
    Authenticator &m_authenticator;
    bool m_tls;
};
