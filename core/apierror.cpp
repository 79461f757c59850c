#include "apierror.h"

ApiError::ApiError(int httpStatus, QString code, QString reason, QString description, QString field)
    : m_httpStatus(httpStatus), m_code(std::move(code)), m_reason(std::move(reason)),
      m_description(std::move(description)), m_field(std::move(field))
{
}

ApiError ApiError::withHeader(const QByteArray &name, const QByteArray &value) const
{
    ApiError copy(*this);
    copy.m_headers.append({name, value});
    return copy;
}

QJsonObject ApiError::toJson() const
{
    QJsonObject error{{QStringLiteral("code"), m_code},
                      {QStringLiteral("description"), m_description},
                      {QStringLiteral("reason"), m_reason}};
    error.insert(QStringLiteral("field"), m_field.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(m_field));
    return QJsonObject{{QStringLiteral("error"), error}};
}

ApiError ApiError::fromJson(int httpStatus, const QJsonObject &body)
{
    const QJsonObject error = body.value(QStringLiteral("error")).toObject();
    return ApiError(httpStatus, error.value(QStringLiteral("code")).toString(),
                    error.value(QStringLiteral("reason")).toString(),
                    error.value(QStringLiteral("description")).toString(),
                    error.value(QStringLiteral("field")).toString());
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
