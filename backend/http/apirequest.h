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
    /// The address clients reach this server at, from the Host header: "http://host:port".
    QUrl baseUrl() const;
    /// The body as a JSON object. Throws ApiError 400 (reason `malformed_json` or
    /// `body_not_object`) otherwise.
    QJsonObject jsonBody() const;
    /// A path capture parsed as a positive integer id; throws ApiError 404 `not_found` when it
    /// is not one (an id that cannot exist names nothing).
    qint64 idCapture(int index) const;

    /// A fresh X-Request-Id value: "req_" and 16 hex digits.
    static QString newRequestId();
};
