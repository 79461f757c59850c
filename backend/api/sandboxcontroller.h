#pragma once

class AadhaarService;
class ApiRouter;
class SandboxSmsGateway;

/// Sandbox back-office reads for admin keys in test mode (api-conventions.md, "Aadhaar OTP flow", sandbox):
/// GET /api/v1/sandbox/aadhaar/{transaction_id} answers {"entity": "sandbox_aadhaar", "transaction_id",
/// "captcha_value", "otp_value" (null before request-otp)}; GET /api/v1/sandbox/sms?limit=1..200 (default 50) answers
/// the caller account's SMS outbox newest first as {"entity": "collection", "count", "items"} of entity
/// `sandbox_sms`. For every other key (pos, or live) both answer 404 exactly as an unknown path does.
class SandboxController
{
public:
    SandboxController(AadhaarService &aadhaar, SandboxSmsGateway &sms) : m_aadhaar(aadhaar), m_sms(sms) {}
    /// Adds the two routes.
    void registerRoutes(ApiRouter &router);

private:
    AadhaarService &m_aadhaar;
    SandboxSmsGateway &m_sms;
};
