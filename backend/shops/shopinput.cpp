#include "shops/shopinput.h"

#include "apierror.h"
#include "jsonfields.h"
#include "operatorcatalog.h"
#include "validators.h"

namespace ShopInput {

QString checkText(const QString &field, const QString &text, int min, int max, const QString &reason)
{
    const QString trimmed = text.trimmed();
    if (trimmed.size() < min || trimmed.size() > max)
        throw ApiError::badRequest(field, reason,
                                   min > 0
                                       ? QStringLiteral("%1 must be %2 to %3 characters").arg(field).arg(min).arg(max)
                                       : QStringLiteral("%1 must be at most %2 characters").arg(field).arg(max));
    JsonFields::requirePlainText(field, trimmed);
    return trimmed;
}

QString checkName(const QString &field, const QString &text)
{
    return checkText(field, text, 2, 60, QStringLiteral("invalid_name"));
}

QString checkOwner(const QString &field, const QString &text)
{
    return checkText(field, text, 1, 80, QStringLiteral("invalid_owner"));
}

QString checkMobile(const QString &field, const QString &text)
{
    QString digits = text.trimmed();
    digits.remove(QLatin1Char(' ')).remove(QLatin1Char('-'));
    if (digits.startsWith(QLatin1String("+91")))
        digits = digits.mid(3);
    else if (digits.size() == 12 && digits.startsWith(QLatin1String("91")))
        digits = digits.mid(2);
    else if (digits.size() == 11 && digits.startsWith(QLatin1Char('0')))
        digits = digits.mid(1);
    if (!Validators::isPhoneNumber(digits))
        throw ApiError::badRequest(field, QStringLiteral("invalid_mobile"),
                                   QStringLiteral("%1 must be a 10-digit mobile number starting with 6, 7, 8 or 9 "
                                                  "(a +91 or 0 prefix is fine)")
                                       .arg(field));
    return digits;
}

QString checkCircle(const QString &field, const QString &text, const OperatorCatalog &catalog)
{
    const QString code = text.trimmed().toUpper();
    if (code.isEmpty() || !catalog.findCircle(code))
        throw ApiError::badRequest(field, QStringLiteral("invalid_circle_code"),
                                   QStringLiteral("%1 must be a telecom circle code such as DL, MH or KA").arg(field));
    return code;
}

QString checkGstin(const QString &field, const QString &text)
{
    const QString gstin = text.trimmed().toUpper();
    if (!gstin.isEmpty() && !Validators::isGstin(gstin))
        throw ApiError::badRequest(field, QStringLiteral("invalid_gstin"),
                                   QStringLiteral("%1 is not a valid GSTIN: 15 characters such as 27AAPFU0939F1ZV, "
                                                  "the last one a check digit")
                                       .arg(field));
    return gstin;
}

} // namespace ShopInput
