#include "fundrequestinput.h"

#include "apierror.h"
#include "entities/fundrequest.h"
#include "jsonfields.h"
#include "services/walletservice.h"
#include "validators.h"

namespace {

ApiError invalidSlip(const QString &why)
{
    return ApiError::badRequest(QStringLiteral("slip"), QStringLiteral("invalid_slip"), why);
}

} // namespace

FundRequestInput FundRequestInput::fromJson(const QJsonObject &body, bool withReference)
{
    const JsonFields fields(body);
    FundRequestInput in;
    const qint64 rupees = fields.requiredInteger(QStringLiteral("amount"));
    if (rupees < 1 || rupees > WalletService::kMaxTopup / Money::kPaisePerRupee)
        throw ApiError::badRequest(QStringLiteral("amount"), QStringLiteral("amount_out_of_range"),
                                   QStringLiteral("amount must be between 1 and %1 rupees")
                                       .arg(WalletService::kMaxTopup / Money::kPaisePerRupee));
    in.amount = rupees * Money::kPaisePerRupee;
    in.method = fields.optionalString(QStringLiteral("method")).value_or(QString());
    if (!FundRequest::methods().contains(in.method))
        throw ApiError::badRequest(QStringLiteral("method"), QStringLiteral("invalid_method"),
                                   QStringLiteral("method must be upi, bank or cash_deposit"));
    in.utr = fields.requiredString(QStringLiteral("utr")).toUpper();
    if (!FundRequest::isValidUtr(in.utr))
        throw ApiError::badRequest(QStringLiteral("utr"), QStringLiteral("invalid_utr"),
                                   QStringLiteral("utr must be %1 to %2 letters, digits, / or -")
                                       .arg(FundRequest::kMinUtr)
                                       .arg(FundRequest::kMaxUtr));
    if (withReference) {
        in.referenceId = fields.optionalString(QStringLiteral("reference_id")).value_or(QString());
        if (!in.referenceId.isEmpty() && !Validators::isReferenceId(in.referenceId))
            throw ApiError::badRequest(QStringLiteral("reference_id"), QStringLiteral("invalid_reference_id"),
                                       QStringLiteral("reference_id must be 1 to 64 letters, digits, _ or -"));
    }
    const QJsonValue note = body.value(QStringLiteral("note"));
    if (!note.isUndefined() && !note.isNull() && !note.isString())
        throw ApiError::badRequest(QStringLiteral("note"), QStringLiteral("invalid_note"),
                                   QStringLiteral("note must be a string"));
    in.note = note.toString().trimmed();
    if (in.note.size() > FundRequest::kMaxNote || !Validators::isPlainText(in.note, true))
        throw ApiError::badRequest(QStringLiteral("note"), QStringLiteral("invalid_note"),
                                   QStringLiteral("note must be at most %1 characters").arg(FundRequest::kMaxNote));
    const QJsonValue slip = body.value(QStringLiteral("slip"));
    if (slip.isUndefined() || slip.isNull())
        return in;
    if (!slip.isObject())
        throw invalidSlip(QStringLiteral("slip must be an object {content_type, data}"));
    const QJsonObject slipObject = slip.toObject();
    const QString type = slipObject.value(QStringLiteral("content_type")).toString();
    if (type != QLatin1String("image/png") && type != QLatin1String("image/jpeg"))
        throw invalidSlip(QStringLiteral("slip.content_type must be image/png or image/jpeg"));
    const QJsonValue data = slipObject.value(QStringLiteral("data"));
    if (!data.isString())
        throw invalidSlip(QStringLiteral("slip.data must be the image in base64"));
    // A quick bound before decoding: base64 is 4 characters per 3 bytes.
    const QString text = data.toString();
    if (qint64(text.size()) > (FundRequest::kMaxSlipBytes / 3 + 1) * 4 + 4)
        throw ApiError::badRequest(QStringLiteral("slip"), QStringLiteral("slip_too_large"),
                                   QStringLiteral("the slip must be at most 1 MiB"));
    const auto decoded = QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.isEmpty())
        throw invalidSlip(QStringLiteral("slip.data is not base64"));
    if (decoded.decoded.size() > FundRequest::kMaxSlipBytes)
        throw ApiError::badRequest(QStringLiteral("slip"), QStringLiteral("slip_too_large"),
                                   QStringLiteral("the slip must be at most 1 MiB"));
    if (FundRequest::slipTypeOf(decoded.decoded) != type)
        throw invalidSlip(QStringLiteral("slip.data is not a %1 image").arg(type.mid(6).toUpper()));
    in.slipType = type;
    in.slip = decoded.decoded;
    return in;
}

QJsonObject FundRequestInput::toJson() const
{
    QJsonObject body{{QStringLiteral("amount"), amount / Money::kPaisePerRupee},
                     {QStringLiteral("method"), method},
                     {QStringLiteral("utr"), utr},
                     {QStringLiteral("note"), note}};
    if (!slipType.isEmpty())
        body.insert(QStringLiteral("slip"),
                    QJsonObject{{QStringLiteral("content_type"), slipType},
                                {QStringLiteral("data"), QString::fromLatin1(slip.toBase64())}});
    return body;
}

bool FundRequestInput::sameAs(Paise otherAmount, const QString &otherMethod, const QString &otherUtr,
                              const QString &otherNote) const
{
    return amount == otherAmount && method == otherMethod && utr == otherUtr && note == otherNote;
}
