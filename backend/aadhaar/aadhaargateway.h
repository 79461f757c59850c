#pragma once

#include "aadhaarservice.h"
#include "auth/authcontext.h"

#include <QString>

#include <exception>
#include <functional>
#include <optional>

/// What one asynchronous step of a live Aadhaar flow ended with: the step's result, or the error to answer
/// (an ApiError as it is; anything else becomes a logged 500).
struct AadhaarGatewayAnswer
{
    std::optional<AadhaarStepResult> result;
    std::exception_ptr error;
};

/// Runs the Aadhaar OTP flow of live keys somewhere else (api-v1.md endpoints 1-3, issue 13): the controller hands
/// every live step here. Each call either throws ApiError at once (nothing was sent) or later runs `done` exactly
/// once on the calling thread.
class AadhaarGateway
{
public:
    using Done = std::function<void(const AadhaarGatewayAnswer &answer)>;

    virtual ~AadhaarGateway() = default;
    /// Endpoint 1 for a live caller.
    virtual void initiate(const AuthContext &caller, Done done) = 0;
    /// Endpoint 2 for a live caller.
    virtual void requestOtp(const AuthContext &caller, qint64 transactionId, const QString &aadhaarNumber,
                            const QString &captchaValue, Done done) = 0;
    /// Endpoint 3 for a live caller.
    virtual void verifyOtp(const AuthContext &caller, qint64 transactionId, const QString &otpValue, Done done) = 0;
};
