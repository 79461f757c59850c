#pragma once

#include "answer.h"
#include "entities/aadhaarstep.h"
#include "entities/collection.h"

class ApiClient;

/// Typed calls of the Aadhaar OTP flow (api-v1.md endpoints 1-3) and its sandbox SMS outbox; owns their routes.
class AadhaarApi
{
public:
    explicit AadhaarApi(ApiClient &api) : m_api(api) {}

    /// GET initiate-transaction: a new transaction and where its captcha image is.
    TypedCall<AadhaarStep> initiate();
    /// POST request-otp: checks the captcha answer and sends an OTP to the mobile linked with `aadhaarNumber`
    /// (12 digits). A wrong answer is 400 captcha_mismatch with AadhaarAttempts::left(); 429 carries Retry-After.
    TypedCall<AadhaarStep> requestOtp(qint64 transactionId, const QString &aadhaarNumber, const QString &captcha);
    /// POST verify-otp: checks the 6-digit OTP. A wrong one is 400 otp_mismatch with AadhaarAttempts::left().
    TypedCall<AadhaarStep> verifyOtp(qint64 transactionId, const QString &otp);
    /// The captcha image at `location` (an initiate answer's `captcha`, absolute or a path on the server).
    ApiCall *captchaImage(const QString &location);
    /// GET /api/v1/sandbox/sms: the newest `limit` messages of the sandbox outbox (test keys only; 404 otherwise).
    TypedCall<Collection<SandboxSms>> sandboxSms(int limit);

private:
    ApiClient &m_api;
};
