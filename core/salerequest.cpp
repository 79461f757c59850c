#include "salerequest.h"

#include "apierror.h"
#include "jsonfields.h"
#include "operatorcatalog.h"
#include "validators.h"

namespace {

const OperatorInfo &requireOperator(const JsonFields &fields, const OperatorCatalog &catalog, ProductKind kind)
{
    const QString code = fields.requiredString(QStringLiteral("operator_code"));
    const OperatorInfo *info = catalog.findOperator(code, kind);
    if (!info)
        throw ApiError::badRequest(QStringLiteral("operator_code"), QStringLiteral("unknown_operator"),
                                   QStringLiteral("operator_code must be one of %1").arg(catalog.codeList(kind)));
    return *info;
}

Paise requireAmount(const JsonFields &fields, const OperatorInfo &info)
{
    const qint64 rupees = fields.requiredInteger(QStringLiteral("amount"));
    if (rupees < info.minRupees || rupees > info.maxRupees)
        throw ApiError::badRequest(QStringLiteral("amount"), QStringLiteral("amount_out_of_range"),
                                   QStringLiteral("amount must be between %1 and %2 for %3")
                                       .arg(info.minRupees)
                                       .arg(info.maxRupees)
                                       .arg(info.kind == ProductKind::Voucher ? info.name : info.code));
    return rupees * Money::kPaisePerRupee;
}

QString optionalReference(const JsonFields &fields)
{
    const std::optional<QString> reference = fields.optionalString(QStringLiteral("reference_id"));
    if (reference && !Validators::isReferenceId(*reference))
        throw ApiError::badRequest(QStringLiteral("reference_id"), QStringLiteral("invalid_reference_id"),
                                   QStringLiteral("reference_id must be 1 to 64 characters of A-Z a-z 0-9 _ -"));
    return reference.value_or(QString());
}

QString optionalTender(const JsonFields &fields)
{
    const std::optional<QString> tender = fields.optionalString(QStringLiteral("tender"));
    if (tender && !TransactionNames::isTender(*tender))
        throw ApiError::badRequest(QStringLiteral("tender"), QStringLiteral("invalid_tender"),
                                   QStringLiteral("tender must be cash or upi"));
    return tender.value_or(QString());
}

} // namespace

QString SaleRequest::fingerprint() const
{
    const QString asked = TransactionNames::type(type) + QLatin1Char('|') + operatorCode + QLatin1Char('|') + number +
                          QLatin1Char('|') + QString::number(billAmount) + QLatin1Char('|') + customerEmail.toLower();
    return tender.isEmpty() ? asked : asked + QStringLiteral("|tender=") + tender;
}

SaleRequest SaleRequest::decodeMobile(const QJsonObject &body, const OperatorCatalog &catalog)
{
    const JsonFields fields(body);
    SaleRequest sale;
    sale.type = TransactionType::Mobile;
    sale.number = fields.requiredString(QStringLiteral("phone_number"));
    if (!Validators::isPhoneNumber(sale.number))
        throw ApiError::badRequest(QStringLiteral("phone_number"), QStringLiteral("invalid_phone_number"),
                                   QStringLiteral("phone_number must be 10 digits starting with 6, 7, 8 or 9"));
    const OperatorInfo &info = requireOperator(fields, catalog, ProductKind::Mobile);
    sale.operatorCode = info.code;
    sale.billAmount = requireAmount(fields, info);
    sale.referenceId = optionalReference(fields);
    sale.tender = optionalTender(fields);
    const std::optional<QString> circle = fields.optionalString(QStringLiteral("circle_code"));
    if (circle && !catalog.findCircle(circle->trimmed().toUpper()))
        throw ApiError::badRequest(
            QStringLiteral("circle_code"), QStringLiteral("invalid_circle_code"),
            QStringLiteral("circle_code must be a two-letter code of the circle table, e.g. DL"));
    sale.circleCode = circle ? circle->trimmed().toUpper() : QString();
    return sale;
}

SaleRequest SaleRequest::decodeVoucher(const QJsonObject &body, const OperatorCatalog &catalog)
{
    const JsonFields fields(body);
    const OperatorInfo &info = catalog.voucherIssuer();
    SaleRequest sale;
    sale.type = TransactionType::Voucher;
    sale.operatorCode = info.code;
    sale.billAmount = requireAmount(fields, info);
    const std::optional<QString> email = fields.optionalString(QStringLiteral("customer_email"));
    if (email && !Validators::isEmail(*email))
        throw ApiError::badRequest(QStringLiteral("customer_email"), QStringLiteral("invalid_email"),
                                   QStringLiteral("customer_email must be an e-mail address such as name@example.com"));
    sale.customerEmail = email.value_or(QString());
    sale.referenceId = optionalReference(fields);
    sale.tender = optionalTender(fields);
    return sale;
}

SaleRequest SaleRequest::decodeDth(const QJsonObject &body, const OperatorCatalog &catalog)
{
    const JsonFields fields(body);
    SaleRequest sale;
    sale.type = TransactionType::Dth;
    const QString number = fields.requiredString(QStringLiteral("number"));
    const OperatorInfo &info = requireOperator(fields, catalog, ProductKind::Dth);
    if (!Validators::isDthNumber(number, info))
        throw ApiError::badRequest(QStringLiteral("number"), QStringLiteral("invalid_subscriber_number"),
                                   QStringLiteral("number is not valid for %1: %2").arg(info.name, info.numberHint));
    sale.number = number;
    sale.operatorCode = info.code;
    sale.billAmount = requireAmount(fields, info);
    sale.referenceId = optionalReference(fields);
    sale.tender = optionalTender(fields);
    return sale;
}
