#pragma once

#include <QUrl>

class AadhaarGateway;
class AadhaarService;
class ApiReply;
class ApiRouter;
struct AadhaarGatewayAnswer;

/// The Aadhaar OTP flow over HTTP (api-v1.md endpoints 1-3): GET .../initiate-transaction, POST .../request-otp and
/// POST .../verify-otp under /api/v1/uidai/aadhaar-authentication, answering the `aadhaar_authentication` entity;
/// plus the public captcha image GET .../captcha/<token>.png (image/png, no credentials, 404 once unknown or
/// expired), whose location initiate returns (api-conventions.md, "Aadhaar OTP flow"): under the configured public
/// URL, else a path relative to the server (api-v1.md: "URL or path") — never built from the request's Host header,
/// which a client on the LAN chooses (issue 12).
class AadhaarController
{
public:
    /// @p publicUrl: ServerOptions::publicUrl (may be empty). Test keys' steps run in @p service, live keys' through
    /// @p live (issue 13); captcha images of both are served from @p service.
    AadhaarController(AadhaarService &service, AadhaarGateway &live, QUrl publicUrl)
        : m_service(service), m_live(live), m_publicUrl(std::move(publicUrl))
    {}
    /// Adds the four routes.
    void registerRoutes(ApiRouter &router);

private:
    /// The captcha image's location for @p token.
    QString captchaLocation(const QString &token) const;

    /// The answer of a live step: the entity, or the error it ended with.
    void sendLive(const ApiReply &reply, const AadhaarGatewayAnswer &answer) const;

    AadhaarService &m_service;
    AadhaarGateway &m_live;
    QUrl m_publicUrl;
};
