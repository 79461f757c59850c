#include "aadhaarcontroller.h"

#include "aadhaar/aadhaargateway.h"
#include "aadhaar/aadhaarservice.h"
#include "apierror.h"
#include "entities/aadhaarstep.h"
#include "http/apirouter.h"
#include "jsonfields.h"

namespace {

const QLatin1String kBasePath("/api/v1/uidai/aadhaar-authentication");
const QLatin1String kCaptchaPath("/api/v1/uidai/aadhaar-authentication/captcha/");

/// The spec's `aadhaar_authentication` entity: aadhaar_number only when the step returns it, captcha (its location)
/// only from initiate.
QJsonObject toJson(const AadhaarStepResult &result, const QString &captchaLocation)
{
    AadhaarStep step;
    step.transactionId = result.transactionId;
    step.status = AadhaarStatusNames::name(result.status);
    step.msg = result.msg;
    if (!result.aadhaarNumber.isEmpty())
        step.aadhaarNumber = result.aadhaarNumber;
    if (!result.captchaToken.isEmpty())
        step.captcha = captchaLocation;
    return step.toJson();
}

} // namespace

QString AadhaarController::captchaLocation(const QString &token) const
{
    const QString path = kCaptchaPath + token + QStringLiteral(".png");
    if (token.isEmpty() || !m_publicUrl.isValid() || m_publicUrl.isEmpty())
        return token.isEmpty() ? QString() : path;
    QUrl url = m_publicUrl;
    QString prefix = url.path();
    while (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    url.setPath(prefix + path);
    return url.toString(QUrl::FullyEncoded);
}

void AadhaarController::sendLive(const ApiReply &reply, const AadhaarGatewayAnswer &answer) const
{
    if (answer.error)
        reply.sendException(answer.error);
    else if (answer.result)
        reply.sendData(toJson(*answer.result, captchaLocation(answer.result->captchaToken)));
}

void AadhaarController::registerRoutes(ApiRouter &router)
{
    const auto live = [this](const ApiReply &reply) {
        return [this, reply](const AadhaarGatewayAnswer &answer) { sendLive(reply, answer); };
    };
    router.add(QHttpServerRequest::Method::Get, kBasePath + QStringLiteral("/initiate-transaction"), Access::Pos,
               [this, live](const ApiRequest &request, const ApiReply &reply) {
                   if (request.caller.mode == Mode::Live)
                       return m_live.initiate(request.caller, live(reply));
                   const AadhaarStepResult result = m_service.initiate(request.caller);
                   reply.sendData(toJson(result, captchaLocation(result.captchaToken)));
               });
    router.add(QHttpServerRequest::Method::Post, kBasePath + QStringLiteral("/request-otp"), Access::Pos,
               [this, live](const ApiRequest &request, const ApiReply &reply) {
                   const JsonFields fields(request.jsonBody());
                   const qint64 id = fields.requiredInteger(QStringLiteral("transaction_id"));
                   const QString number = fields.requiredString(QStringLiteral("aadhaar_number"));
                   const QString captcha = fields.requiredString(QStringLiteral("captcha_value"));
                   if (request.caller.mode == Mode::Live)
                       return m_live.requestOtp(request.caller, id, number, captcha, live(reply));
                   reply.sendData(toJson(m_service.requestOtp(request.caller, id, number, captcha), QString()));
               });
    router.add(QHttpServerRequest::Method::Post, kBasePath + QStringLiteral("/verify-otp"), Access::Pos,
               [this, live](const ApiRequest &request, const ApiReply &reply) {
                   const JsonFields fields(request.jsonBody());
                   const qint64 id = fields.requiredInteger(QStringLiteral("transaction_id"));
                   const QString otp = fields.requiredString(QStringLiteral("otp_value"));
                   if (request.caller.mode == Mode::Live)
                       return m_live.verifyOtp(request.caller, id, otp, live(reply));
                   reply.sendData(toJson(m_service.verifyOtp(request.caller, id, otp), QString()));
               });
    router.add(
        QHttpServerRequest::Method::Get, kCaptchaPath + QStringLiteral("{file}"), Access::Public,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QString file = request.captures.value(0);
            std::optional<QByteArray> png;
            if (file.endsWith(QLatin1String(".png")))
                png = m_service.captchaPng(file.chopped(4));
            if (!png)
                throw ApiError::notFound(QStringLiteral("captcha_not_found"),
                                         QStringLiteral("no such captcha image, or it has expired"));
            reply.send(200, "image/png", *png, {{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}});
        });
}
