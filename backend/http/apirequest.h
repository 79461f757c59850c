#pragma once

#include "auth/authcontext.h"

#include <QByteArray>
#include <QHostAddress>
#include <QHttpServerRequest>
#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

/// A request as a route handler sees it: copied out of QHttpServerRequest so a handler may
/// answer later, plus what the router worked out (path captures, caller, request id).
struct ApiRequest
{
    QHttpServerRequest::Method method = QHttpServerRequest::Method::Unknown;
    QString path;
    QStringList captures; ///< the `{name}` segments of the route pattern, in order
    QUrlQuery query;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
    QHostAddress peer;
    QString requestId;
    AuthContext caller; ///< valid for authenticated routes only

    /// A header value by case-insensitive name; empty if absent.
    QByteArray header(QByteArrayView name) const;
    /// The body as a JSON object. Throws ApiError 400 (reason `malformed_json` or
    /// `body_not_object`) otherwise.
    QJsonObject jsonBody() const;
    /// A path capture parsed as a positive integer id; throws ApiError 404 `not_found` when it
    /// is not one (an id that cannot exist names nothing).
    qint64 idCapture(int index) const;

    /// A fresh X-Request-Id value: "req_" and 16 hex digits.
    static QString newRequestId();

    /// `json` with every number written with a fraction or an exponent (249.0, 2e2, 1.5)
    /// replaced by the object {"non_integer_number": "<as written>"}, so that an integer field
    /// holding one is refused as `not_an_integer` and a text field as `invalid_type`
    /// (api-conventions.md "Input coercion": decimals and exponents are 400). QJsonDocument
    /// stores 249.0 as the integer 249, so the written form has to be looked at before parsing.
    /// Strings are copied untouched; the result is valid JSON exactly when `json` is, except that a marked number
    /// at QJsonDocument's nesting limit (1024 levels) is one level too deep (jsonBody() refuses that body).
    static QByteArray markNonIntegerNumbers(const QByteArray &json);
};
