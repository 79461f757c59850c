#include "sandboxcontroller.h"

#include "aadhaar/aadhaarservice.h"
#include "aadhaar/sandboxsmsgateway.h"
#include "apierror.h"
#include "clock.h"
#include "http/apirouter.h"
#include "http/queryparameters.h"
#include "jsonfields.h"

#include <QJsonArray>

namespace {

constexpr int kDefaultSmsLimit = 50;
constexpr int kMaxSmsLimit = 200;

/// Test mode only, for admin keys or a terminal where someone signed in (the terminal's pos key,
/// issue 12: the counter reads the sandbox's SMS there); everyone else is told the path does not
/// exist, as the router would.
void requireSandboxAdmin(const ApiRequest &request)
{
    if ((request.caller.scope != Scope::Admin && !request.caller.hasSession()) || request.caller.mode != Mode::Test)
        throw ApiError::notFound(QStringLiteral("unknown_path"), QStringLiteral("no such endpoint: ") + request.path);
}

int smsLimit(const QUrlQuery &query)
{
    return QueryParameters::limit(query, kDefaultSmsLimit, kMaxSmsLimit);
}

} // namespace

void SandboxController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/sandbox/aadhaar/{transaction_id}"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   requireSandboxAdmin(request);
                   const qint64 id = request.idCapture(0);
                   const AadhaarSandboxSecrets secrets = m_aadhaar.sandboxSecrets(request.caller, id);
                   reply.sendData(
                       QJsonObject{{QStringLiteral("entity"), QStringLiteral("sandbox_aadhaar")},
                                   {QStringLiteral("transaction_id"), id},
                                   {QStringLiteral("captcha_value"), secrets.captchaValue},
                                   {QStringLiteral("otp_value"),
                                    secrets.otpValue ? QJsonValue(*secrets.otpValue) : QJsonValue(QJsonValue::Null)}});
               });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/sandbox/sms"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   requireSandboxAdmin(request);
                   QJsonArray items;
                   for (const OutboxSms &sms : m_sms.list(request.caller.accountId, smsLimit(request.query))) {
                       items.append(QJsonObject{{QStringLiteral("entity"), QStringLiteral("sandbox_sms")},
                                                {QStringLiteral("id"), sms.id},
                                                {QStringLiteral("transaction_id"), sms.transactionId > 0
                                                                                       ? QJsonValue(sms.transactionId)
                                                                                       : QJsonValue(QJsonValue::Null)},
                                                {QStringLiteral("mobile"), sms.maskedMobile},
                                                {QStringLiteral("message"), sms.text},
                                                {QStringLiteral("datetime"), IstTime::formatMs(sms.createdAtMs)}});
                   }
                   reply.sendData(QJsonObject{{QStringLiteral("entity"), QStringLiteral("collection")},
                                              {QStringLiteral("count"), items.size()},
                                              {QStringLiteral("items"), items}});
               });
}
