#include "jsonfields.h"

#include "apierror.h"
#include "validators.h"

#include <cmath>

namespace {
constexpr qint64 kMaxSafeInteger = 999'999'999'999'999; // 15 digits: exact in a double, far above any amount
}

void JsonFields::requirePlainText(const QString &field, const QString &text, bool allowNewlines)
{
    if (!Validators::isPlainText(text, allowNewlines))
        throw ApiError::badRequest(field, QStringLiteral("control_characters"),
                                   field + (allowNewlines ? QStringLiteral(" must not contain control characters other "
                                                                           "than line breaks")
                                                          : QStringLiteral(" must not contain control characters")));
}

std::optional<qint64> JsonFields::coerceInteger(const QJsonValue &value)
{
    if (value.isDouble()) {
        const double d = value.toDouble();
        if (!std::isfinite(d) || d < 0 || d > double(kMaxSafeInteger) || std::floor(d) != d)
            return std::nullopt;
        return qint64(d);
    }
    if (value.isString()) {
        const QString text = value.toString().trimmed();
        if (!Validators::isAsciiDigits(text) || text.size() > 15)
            return std::nullopt;
        return text.toLongLong();
    }
    return std::nullopt;
}

qint64 JsonFields::requiredInteger(const QString &field) const
{
    const QJsonValue value = m_body.value(field);
    if (value.isUndefined() || value.isNull() || (value.isString() && value.toString().trimmed().isEmpty()))
        throw ApiError::badRequest(field, QStringLiteral("missing_field"), field + QStringLiteral(" is required"));
    const std::optional<qint64> number = coerceInteger(value);
    if (!number)
        throw ApiError::badRequest(
            field, QStringLiteral("not_an_integer"),
            field + QStringLiteral(" must be a whole number, as a JSON integer or a string of digits"));
    return *number;
}

QString JsonFields::requiredString(const QString &field) const
{
    const std::optional<QString> text = optionalString(field);
    if (!text)
        throw ApiError::badRequest(field, QStringLiteral("missing_field"), field + QStringLiteral(" is required"));
    return *text;
}

std::optional<QString> JsonFields::optionalString(const QString &field) const
{
    const QJsonValue value = m_body.value(field);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isString())
        throw ApiError::badRequest(field, QStringLiteral("invalid_type"), field + QStringLiteral(" must be a string"));
    const QString text = value.toString().trimmed();
    if (text.isEmpty())
        return std::nullopt;
    requirePlainText(field, text);
    return text;
}
