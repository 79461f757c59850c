#pragma once

#include "apierror.h"

#include <QJsonObject>
#include <QString>

#include <optional>

/// The answer of each step of the Aadhaar OTP flow (the spec's `aadhaar_authentication` entity, api-v1.md
/// endpoints 1-3): initiate-transaction, request-otp and verify-otp. `status` is CAPTCHA_GENERATED,
/// OTP_GENERATED or AUTHENTICATION_SUCCESS.
struct AadhaarStep
{
    qint64 transactionId = 0;
    QString status;
    QString msg;                          ///< for people; names only masked numbers
    std::optional<QString> aadhaarNumber; ///< request-otp and verify-otp only
    std::optional<QString> captcha;       ///< initiate only: where the captcha PNG is (absolute or a path)

    /// Decodes the entity; nullopt with `*error` naming the field when one is missing or mistyped.
    static std::optional<AadhaarStep> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

/// The tries left of a wrong captcha or OTP answer as data (issue 14), so that no client parses prose: the 400
/// `captcha_mismatch` / `otp_mismatch` error envelope carries the extension member `attempts_left` (0 when the
/// transaction closed), beside code, description, field and reason.
namespace AadhaarAttempts {

/// "attempts_left".
QString field();
/// `error` with `attempts_left: left` in its envelope.
ApiError withLeft(const ApiError &error, int left);
/// The `attempts_left` of an error envelope; nullopt when absent or not a whole number ≥ 0.
std::optional<int> left(const ApiError &error);

} // namespace AadhaarAttempts

/// A message of the sandbox SMS outbox (the `sandbox_sms` entity of GET /api/v1/sandbox/sms, test mode only):
/// what the customer's phone would have received, to the masked mobile number.
struct SandboxSms
{
    qint64 id = 0;
    std::optional<qint64> transactionId;
    QString mobile; ///< masked
    QString message;
    QString datetime; ///< IST, as sent

    static std::optional<SandboxSms> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};
