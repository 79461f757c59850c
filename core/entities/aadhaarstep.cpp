#include "aadhaarstep.h"

#include "entityfields.h"

std::optional<AadhaarStep> AadhaarStep::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("Aadhaar step"));
    EntityFields::expectEntity(in, u"aadhaar_authentication");
    AadhaarStep step;
    step.transactionId = in.integer(u"transaction_id");
    step.status =
        EntityFields::oneOf(in, u"status", {u"CAPTCHA_GENERATED", u"OTP_GENERATED", u"AUTHENTICATION_SUCCESS"});
    step.msg = in.string(u"msg");
    step.aadhaarNumber = in.optionalString(u"aadhaar_number");
    step.captcha = in.optionalString(u"captcha");
    if (!in.ok())
        return EntityFields::failed<AadhaarStep>(in, error);
    return step;
}

QJsonObject AadhaarStep::toJson() const
{
    QJsonObject json{{QStringLiteral("transaction_id"), transactionId},
                     {QStringLiteral("entity"), QStringLiteral("aadhaar_authentication")},
                     {QStringLiteral("status"), status},
                     {QStringLiteral("msg"), msg}};
    if (aadhaarNumber)
        json.insert(QStringLiteral("aadhaar_number"), *aadhaarNumber);
    if (captcha)
        json.insert(QStringLiteral("captcha"), *captcha);
    return json;
}

QString AadhaarAttempts::field()
{
    return QStringLiteral("attempts_left");
}

ApiError AadhaarAttempts::withLeft(const ApiError &error, int left)
{
    return error.withExtension(field(), qMax(0, left));
}

std::optional<int> AadhaarAttempts::left(const ApiError &error)
{
    const QJsonValue value = error.extensions().value(field());
    if (!value.isDouble() || value.toDouble() < 0 || value.toDouble() != double(value.toInt()))
        return std::nullopt;
    return value.toInt();
}

std::optional<SandboxSms> SandboxSms::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("sandbox SMS"));
    EntityFields::expectEntity(in, u"sandbox_sms");
    SandboxSms sms;
    sms.id = in.integer(u"id");
    sms.transactionId = in.optionalInteger(u"transaction_id");
    sms.mobile = in.string(u"mobile");
    sms.message = in.string(u"message");
    sms.datetime = in.string(u"datetime");
    if (!in.ok())
        return EntityFields::failed<SandboxSms>(in, error);
    return sms;
}

QJsonObject SandboxSms::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("sandbox_sms")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("transaction_id"), EntityFields::integerOrNull(transactionId)},
                       {QStringLiteral("mobile"), mobile},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("datetime"), datetime}};
}
