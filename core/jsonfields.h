#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

/// Reads request body fields by the input coercion rule of api-conventions.md: integers come
/// as a JSON integer or a string of ASCII digits ("249" or 249); strings are trimmed of
/// surrounding blanks; unknown fields are ignored. Every failure throws ApiError 400 naming
/// the field, with reason `missing_field`, `invalid_type`, `not_an_integer` or, for a string with
/// a control character inside (Validators::isPlainText), `control_characters` (issue 12).
class JsonFields
{
public:
    explicit JsonFields(QJsonObject body) : m_body(std::move(body)) {}

    /// A required non-negative integer (JSON integer or digit string, at most 15 digits).
    qint64 requiredInteger(const QString &field) const;
    /// A required string, trimmed; empty after trimming counts as missing.
    QString requiredString(const QString &field) const;
    /// An optional string, trimmed; nullopt when absent, null or blank.
    std::optional<QString> optionalString(const QString &field) const;

    /// Throws ApiError 400 `control_characters` naming `field` unless Validators::isPlainText(text,
    /// allowNewlines): the one check every free-text field of the API goes through.
    static void requirePlainText(const QString &field, const QString &text, bool allowNewlines = false);

    /// Parses a JSON value by the integer coercion rule; nullopt when it is not one.
    static std::optional<qint64> coerceInteger(const QJsonValue &value);

private:
    QJsonObject m_body;
};
