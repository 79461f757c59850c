#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <exception>

/// A failure the API reports to its client: HTTP status, the error code of the status table,
/// a stable snake_case reason, the offending body field (empty for none) and a description for
/// people. Thrown by the services and turned into the JSON error envelope in one place
/// (api-conventions.md, "Error envelope and status codes").
class ApiError final : public std::exception
{
public:
    ApiError(int httpStatus, QString code, QString reason, QString description, QString field = {});

    int httpStatus() const { return m_httpStatus; }
    const QString &code() const { return m_code; }
    const QString &reason() const { return m_reason; }
    const QString &description() const { return m_description; }
    const QString &field() const { return m_field; }

    /// Extension members of the error envelope beyond the four of api-conventions.md (e.g. the Aadhaar flow's
    /// `attempts_left`): written into the `error` object by toJson(), kept by fromJson(). Empty for none.
    const QJsonObject &extensions() const { return m_extensions; }
    /// Returns a copy whose envelope also carries `name: value` (a snake_case name not among the four).
    ApiError withExtension(const QString &name, const QJsonValue &value) const;

    /// {"error": {"code", "description", "field" (or null), "reason", ...extensions()}}.
    QJsonObject toJson() const;
    /// Reads an error envelope as toJson() writes it; httpStatus is taken from the response.
    static ApiError fromJson(int httpStatus, const QJsonObject &body);

    /// Extra response headers this error needs (Retry-After, WWW-Authenticate, Allow).
    const QList<std::pair<QByteArray, QByteArray>> &headers() const { return m_headers; }
    /// Returns a copy with one more response header.
    ApiError withHeader(const QByteArray &name, const QByteArray &value) const;

    const char *what() const noexcept override { return "ApiError"; }

    /// 400 BAD_REQUEST_ERROR for an invalid or missing input field.
    static ApiError badRequest(const QString &field, const QString &reason, const QString &description);
    /// 401 AUTHENTICATION_ERROR.
    static ApiError unauthenticated(const QString &reason, const QString &description);
    /// 402 INSUFFICIENT_BALANCE: the wallet cannot cover the amount payable.
    static ApiError insufficientBalance(const QString &description);
    /// 403 PERMISSION_ERROR: the key lacks the scope, or is revoked.
    static ApiError forbidden(const QString &reason, const QString &description);
    /// 404 NOT_FOUND_ERROR.
    static ApiError notFound(const QString &reason, const QString &description);
    /// 409 CONFLICT_ERROR.
    static ApiError conflict(const QString &reason, const QString &description, const QString &field = {});
    /// 429 RATE_LIMIT_ERROR.
    static ApiError rateLimited(const QString &reason, const QString &description);
    /// 500 SERVER_ERROR; the description never carries internals.
    static ApiError serverError(const QString &requestId);
    /// 503 GATEWAY_ERROR: the fulfilment provider is unavailable.
    static ApiError gatewayUnavailable(const QString &reason, const QString &description);

private:
    int m_httpStatus;
    QString m_code;
    QString m_reason;
    QString m_description;
    QString m_field;
    QJsonObject m_extensions;
    QList<std::pair<QByteArray, QByteArray>> m_headers;
};
