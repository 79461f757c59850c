// Fuzz target: the JSON request decoders of the API. Byte 0 picks a decoder, the rest is the request body. The body
// goes the way a route handler takes it: ApiRequest::jsonBody() (with markNonIntegerNumbers), then the fields the
// controller reads through JsonFields, then the domain decoder (SaleRequest, UpstreamSettings::checked, ModeNames,
// the operator and circle tables). Invariants: a decoder either throws the project's ApiError with status 400, a
// reason and a description, or yields a value that satisfies the rules it claims (api-conventions.md "Validation
// rules", "Input coercion"); nothing else escapes; markNonIntegerNumbers keeps valid JSON valid.
#include "apierror.h"
#include "auth/authcontext.h"
#include "fuzzcheck.h"
#include "http/apirequest.h"
#include "jsonfields.h"
#include "operatorcatalog.h"
#include "salerequest.h"
#include "upstream/upstreamsettings.h"
#include "validators.h"
#include "webhooks/webhooksigner.h"

#include <QJsonDocument>

#include <cstdint>
#include <functional>

namespace {

constexpr qint64 kMaxCoercedInteger = 999'999'999'999'999; // JsonFields: at most 15 digits

const OperatorCatalog &catalog()
{
    static const OperatorCatalog operators = OperatorCatalog::builtIn();
    return operators;
}

void checkRefusal(const ApiError &error)
{
    FUZZ_CHECK(error.httpStatus() == 400, "a decoder refused with a status other than 400");
    FUZZ_CHECK(error.code() == QLatin1String("BAD_REQUEST_ERROR"), "a 400 without BAD_REQUEST_ERROR");
    FUZZ_CHECK(!error.reason().isEmpty() && !error.description().isEmpty(), "a refusal without reason or words");
}

bool isTrimmedText(const QString &text)
{
    return !text.isEmpty() && text == text.trimmed();
}

QString text(const JsonFields &fields, const char *name)
{
    const QString value = fields.requiredString(QString::fromLatin1(name));
    FUZZ_CHECK(isTrimmedText(value), "requiredString gave an empty or untrimmed string");
    return value;
}

QString optionalText(const JsonFields &fields, const char *name)
{
    const std::optional<QString> value = fields.optionalString(QString::fromLatin1(name));
    FUZZ_CHECK(!value || isTrimmedText(*value), "optionalString gave an empty or untrimmed string");
    return value.value_or(QString());
}

qint64 integer(const JsonFields &fields, const char *name)
{
    const qint64 value = fields.requiredInteger(QString::fromLatin1(name));
    FUZZ_CHECK(value >= 0 && value <= kMaxCoercedInteger, "requiredInteger out of 0..10^15-1");
    return value;
}

void checkSale(const SaleRequest &sale, ProductKind kind)
{
    const OperatorInfo *info = catalog().findOperator(sale.operatorCode, kind);
    FUZZ_CHECK(info, "a sale for an operator that does not sell this product");
    FUZZ_CHECK(sale.billAmount % Money::kPaisePerRupee == 0, "a sale amount in part rupees");
    FUZZ_CHECK(sale.billAmount >= info->minRupees * Money::kPaisePerRupee &&
                   sale.billAmount <= info->maxRupees * Money::kPaisePerRupee,
               "a sale amount outside the operator's limits");
    FUZZ_CHECK(sale.referenceId.isEmpty() || Validators::isReferenceId(sale.referenceId), "a bad reference_id");
    FUZZ_CHECK(!sale.fingerprint().isEmpty(), "an empty fingerprint");
}

// One decoder per route that reads a JSON body, reading the fields in the order the controller does.
const std::function<void(const QJsonObject &)> kDecoders[] = {
    [](const QJsonObject &body) { // POST recharge/mobile/initiate-transaction (salescontroller)
        const SaleRequest sale = SaleRequest::decodeMobile(body, catalog());
        checkSale(sale, ProductKind::Mobile);
        FUZZ_CHECK(Validators::isPhoneNumber(sale.number), "a mobile sale to an invalid phone number");
    },
    [](const QJsonObject &body) { // POST recharge/voucher/initiate-transaction
        const SaleRequest sale = SaleRequest::decodeVoucher(body, catalog());
        checkSale(sale, ProductKind::Voucher);
        FUZZ_CHECK(sale.customerEmail.isEmpty() || Validators::isEmail(sale.customerEmail), "a bad customer_email");
    },
    [](const QJsonObject &body) { // POST recharge/dth/initiate-transaction
        const SaleRequest sale = SaleRequest::decodeDth(body, catalog());
        checkSale(sale, ProductKind::Dth);
        FUZZ_CHECK(Validators::isDthNumber(sale.number, *catalog().findOperator(sale.operatorCode, ProductKind::Dth)),
                   "a DTH sale to an invalid subscriber number");
    },
    [](const QJsonObject &body) { // POST aadhaar/request-otp (aadhaarcontroller)
        const JsonFields fields(body);
        integer(fields, "transaction_id");
        text(fields, "aadhaar_number");
        text(fields, "captcha_value");
    },
    [](const QJsonObject &body) { // POST aadhaar/verify-otp
        const JsonFields fields(body);
        integer(fields, "transaction_id");
        text(fields, "otp_value");
    },
    [](const QJsonObject &body) { // POST users/sign-in (userscontroller)
        const JsonFields fields(body);
        text(fields, "name");
        text(fields, "pin");
    },
    [](const QJsonObject &body) { // POST users and users/{id}/reset-pin
        const JsonFields fields(body);
        text(fields, "name");
        text(fields, "role");
        text(fields, "pin");
    },
    [](const QJsonObject &body) { // POST keys (keyscontroller)
        const JsonFields fields(body);
        text(fields, "name");
        const std::optional<Mode> mode = ModeNames::modeFromString(text(fields, "mode"));
        const std::optional<Scope> scope = ModeNames::scopeFromString(text(fields, "scope"));
        if (mode)
            FUZZ_CHECK(ModeNames::modeFromString(ModeNames::mode(*mode)) == mode, "mode names do not round-trip");
        if (scope)
            FUZZ_CHECK(ModeNames::scopeFromString(ModeNames::scope(*scope)) == scope, "scope names do not round-trip");
    },
    [](const QJsonObject &body) { // PUT webhook-endpoint (webhookscontroller)
        const JsonFields fields(body);
        text(fields, "url");
        text(fields, "webhook_password");
    },
    [](const QJsonObject &body) { // PUT upstream (upstreamcontroller)
        const JsonFields fields(body);
        const QString baseUrl = text(fields, "base_url");
        const QString keyId = text(fields, "key_id");
        const QString keySecret = text(fields, "key_secret");
        const QString password = optionalText(fields, "webhook_password");
        const QString secret = optionalText(fields, "webhook_secret");
        const UpstreamSettings settings = UpstreamSettings::checked(baseUrl, keyId, keySecret, password, secret);
        FUZZ_CHECK(settings.baseUrl.endsWith(QLatin1String("/api/v1")), "an upstream base_url without /api/v1");
        FUZZ_CHECK(settings.url(QStringLiteral("/wallet")).isValid(), "an upstream base_url that makes no URL");
        FUZZ_CHECK(!settings.keyId.isEmpty() && !settings.keySecret.isEmpty(), "an upstream without credentials");
        FUZZ_CHECK(settings.webhookSecret.isEmpty() || WebhookSigner::secretKey(settings.webhookSecret),
                   "an upstream webhook_secret that signs nothing");
        FUZZ_CHECK(!settings.authorization().isEmpty(), "an upstream without an Authorization header");
    },
    [](const QJsonObject &body) { // POST plans/mobile/prepaid-plans (planscontroller)
        const JsonFields fields(body);
        const QString operatorCode = text(fields, "operator_code");
        if (!catalog().findOperator(operatorCode, ProductKind::Mobile))
            return;
        const QString circleCode = text(fields, "circle_code");
        if (const CircleInfo *circle = catalog().findCircle(circleCode))
            FUZZ_CHECK(circle->code == circleCode, "a circle found under another code");
    },
    [](const QJsonObject &body) { // POST wallet/topups (walletcontroller)
        const JsonFields fields(body);
        integer(fields, "amount");
        optionalText(fields, "note");
    },
    [](const QJsonObject &body) { // every member through the coercion rules (shop settings, query-like fields)
        const JsonFields fields(body);
        for (auto it = body.constBegin(); it != body.constEnd(); ++it) {
            if (const std::optional<qint64> number = JsonFields::coerceInteger(it.value()))
                FUZZ_CHECK(*number >= 0 && *number <= kMaxCoercedInteger, "coerceInteger out of 0..10^15-1");
            try {
                optionalText(fields, it.key().toUtf8().constData());
            } catch (const ApiError &error) {
                checkRefusal(error);
            }
        }
    },
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const auto &decode = kDecoders[data[0] % std::size(kDecoders)];
    ApiRequest request;
    request.body = QByteArray(reinterpret_cast<const char *>(data) + 1, qsizetype(size) - 1);

    // markNonIntegerNumbers promises: valid JSON stays valid (but for one more level of nesting, which the parser may
    // refuse as too deep), and nothing changes without a non-integer number.
    const QJsonDocument plain = QJsonDocument::fromJson(request.body);
    if (!plain.isNull()) {
        const QByteArray marked = ApiRequest::markNonIntegerNumbers(request.body);
        QJsonParseError error;
        const QJsonDocument strict = QJsonDocument::fromJson(marked, &error);
        FUZZ_CHECK(error.error == QJsonParseError::NoError || error.error == QJsonParseError::DeepNesting,
                   "markNonIntegerNumbers made valid JSON invalid");
        FUZZ_CHECK(strict.isNull() || strict.isObject() == plain.isObject(),
                   "markNonIntegerNumbers changed the top-level type");
        if (!marked.contains("\"non_integer_number\""))
            FUZZ_CHECK(marked == request.body, "markNonIntegerNumbers changed JSON without a non-integer number");
    }

    QJsonObject body;
    try {
        body = request.jsonBody();
    } catch (const ApiError &error) {
        checkRefusal(error);
        return 0;
    }
    // The object handed to the decoders has the members the client sent: never a silently emptied body.
    FUZZ_CHECK(plain.isObject() && body.keys() == plain.object().keys(), "jsonBody() lost the body's members");
    try {
        decode(body);
    } catch (const ApiError &error) {
        checkRefusal(error);
    }
    return 0;
}
