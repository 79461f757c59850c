#pragma once

#include "validators.h"

#include <QString>

/// Values the Aadhaar OTP tests type.
namespace AadhaarTestData {

/// A valid Aadhaar number: @p elevenDigits followed by their Verhoeff check digit.
inline QString aadhaarWith(const QString &elevenDigits)
{
    return elevenDigits + QString::number(Validators::verhoeffCheckDigit(elevenDigits));
}

/// A wrong captcha or OTP of the same length as @p right (every digit moved by one).
inline QString wrong(const QString &right)
{
    QString other = right;
    for (QChar &c : other)
        c = QChar(u'0' + (c.digitValue() + 1) % 10);
    return other;
}

} // namespace AadhaarTestData
