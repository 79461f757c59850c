#include "apierror.h"

ApiError::ApiError(int httpStatus, QString code, QString reason, QString description, QString field)
    : m_httpStatus(httpStatus), m_code(std::move(code)), m_reason(std::move(reason)),
      m_description(std::move(description)), m_field(std::move(field))
{}

ApiError ApiError::withHeader(const QByteArray &name, const QByteArray &value) const
{
    ApiError copy(*this);
    copy.m_headers.append({name, value});
    return copy;
}

ApiError ApiError::withExtension(const QString &name, const QJsonValue &value) const
{
    ApiError copy(*this);
    copy.m_extensions.insert(name, value);
    return copy;
}

QJsonObject ApiError::toJson() const
{
    QJsonObject error = m_extensions;
    error.insert(QStringLiteral("code"), m_code);
    error.insert(QStringLiteral("description"), m_description);
    error.insert(QStringLiteral("reason"), m_reason);
    error.insert(QStringLiteral("field"), m_field.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(m_field));
    return QJsonObject{{QStringLiteral("error"), error}};
}

ApiError ApiError::fromJson(int httpStatus, const QJsonObject &body)
{
    QJsonObject error = body.value(QStringLiteral("error")).toObject();
    ApiError parsed(
        httpStatus, error.take(QStringLiteral("code")).toString(), error.take(QStringLiteral("reason")).toString(),
        error.take(QStringLiteral("description")).toString(), error.take(QStringLiteral("field")).toString());
    parsed.m_extensions = error;
    return parsed;
}

ApiError ApiError::badRequest(const QString &field, const QString &reason, const QString &description)
{
    return ApiError(400, QStringLiteral("BAD_REQUEST_ERROR"), reason, description, field);
}

ApiError ApiError::unauthenticated(const QString &reason, const QString &description)
{
    return ApiError(401, QStringLiteral("AUTHENTICATION_ERROR"), reason, description);
}

ApiError ApiError::insufficientBalance(const QString &description)
{
    return ApiError(402, QStringLiteral("INSUFFICIENT_BALANCE"), QStringLiteral("insufficient_balance"), description);
}

ApiError ApiError::forbidden(const QString &reason, const QString &description)
{
    return ApiError(403, QStringLiteral("PERMISSION_ERROR"), reason, description);
}

ApiError ApiError::notFound(const QString &reason, const QString &description)
{
    return ApiError(404, QStringLiteral("NOT_FOUND_ERROR"), reason, description);
}

ApiError ApiError::conflict(const QString &reason, const QString &description, const QString &field)
{
    return ApiError(409, QStringLiteral("CONFLICT_ERROR"), reason, description, field);
}

ApiError ApiError::rateLimited(const QString &reason, const QString &description)
{
    return ApiError(429, QStringLiteral("RATE_LIMIT_ERROR"), reason, description);
}

ApiError ApiError::serverError(const QString &requestId)
{
    return ApiError(500, QStringLiteral("SERVER_ERROR"), QStringLiteral("internal_error"),
                    QStringLiteral("The server could not complete the request; quote request id %1.").arg(requestId));
}

ApiError ApiError::gatewayUnavailable(const QString &reason, const QString &description)
{
    return ApiError(503, QStringLiteral("GATEWAY_ERROR"), reason, description);
}
