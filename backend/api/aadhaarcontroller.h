#pragma once

class AadhaarService;
class ApiRouter;

/// The Aadhaar OTP flow over HTTP (api-v1.md endpoints 1-3): GET .../initiate-transaction, POST .../request-otp and
/// POST .../verify-otp under /api/v1/uidai/aadhaar-authentication, answering the `aadhaar_authentication` entity;
/// plus the public captcha image GET .../captcha/<token>.png (image/png, no credentials, 404 once unknown or
/// expired), whose absolute URL initiate returns (api-conventions.md, "Aadhaar OTP flow").
class AadhaarController
{
public:
    explicit AadhaarController(AadhaarService &service) : m_service(service) {}
    /// Adds the four routes.
    void registerRoutes(ApiRouter &router);

private:
    AadhaarService &m_service;
};
