#include "aadhaarapi.h"

namespace {

QString flowPath(const char *step)
{
    return QStringLiteral("/api/v1/uidai/aadhaar-authentication/") + QLatin1String(step);
}

} // namespace

TypedCall<AadhaarStep> AadhaarApi::initiate()
{
    return {m_api.get(flowPath("initiate-transaction")), &AadhaarStep::fromJson};
}

TypedCall<AadhaarStep> AadhaarApi::requestOtp(qint64 transactionId, const QString &aadhaarNumber,
                                              const QString &captcha)
{
    return {m_api.post(flowPath("request-otp"), QJsonObject{{QStringLiteral("transaction_id"), transactionId},
                                                            {QStringLiteral("aadhaar_number"), aadhaarNumber},
                                                            {QStringLiteral("captcha_value"), captcha}}),
            &AadhaarStep::fromJson};
}

TypedCall<AadhaarStep> AadhaarApi::verifyOtp(qint64 transactionId, const QString &otp)
{
    return {m_api.post(flowPath("verify-otp"), QJsonObject{{QStringLiteral("transaction_id"), transactionId},
                                                           {QStringLiteral("otp_value"), otp}}),
            &AadhaarStep::fromJson};
}

ApiCall *AadhaarApi::captchaImage(const QString &location)
{
    QUrl url(location);
    if (url.isRelative())
        url = m_api.baseUrl().resolved(url);
    return m_api.fetch(url);
}

TypedCall<Collection<SandboxSms>> AadhaarApi::sandboxSms(int limit)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QString::number(limit));
    return {m_api.get(QStringLiteral("/api/v1/sandbox/sms"), query), &Collection<SandboxSms>::fromJson};
}
