#include "apirequest.h"

#include "apierror.h"
#include "validators.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRandomGenerator>

QByteArray ApiRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QUrl ApiRequest::baseUrl() const
{
    QByteArray host = header("host");
    if (host.isEmpty() || host.contains('/') || host.contains('@'))
        host = "localhost";
    return QUrl(QStringLiteral("http://") + QString::fromLatin1(host));
}

QJsonObject ApiRequest::jsonBody() const
{
    if (body.trimmed().isEmpty())
        throw ApiError::badRequest(QString(), QStringLiteral("missing_body"),
                                   QStringLiteral("the request body must be a JSON object"));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        // Qt 6.4 parses only an object or an array at the top level. A lone value ("text", 249, null) is still JSON
        // (RFC 8259), just not an object: tell the client that rather than "malformed".
        const QJsonDocument wrapped = QJsonDocument::fromJson(QByteArray('[' + body + ']'));
        if (wrapped.isArray() && wrapped.array().size() == 1)
            throw ApiError::badRequest(QString(), QStringLiteral("body_not_object"),
                                       QStringLiteral("the request body must be a JSON object"));
        throw ApiError::badRequest(
            QString(), QStringLiteral("malformed_json"),
            QStringLiteral("the body is not valid JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    }
    if (!document.isObject())
        throw ApiError::badRequest(QString(), QStringLiteral("body_not_object"),
                                   QStringLiteral("the request body must be a JSON object"));
    return document.object();
}

qint64 ApiRequest::idCapture(int index) const
{
    const QString text = captures.value(index);
    if (!Validators::isAsciiDigits(text) || text.size() > 18 || text.toLongLong() <= 0)
        throw ApiError::notFound(QStringLiteral("not_found"), QStringLiteral("no resource with id %1").arg(text));
    return text.toLongLong();
}

QString ApiRequest::newRequestId()
{
    return QStringLiteral("req_") +
           QString::number(QRandomGenerator::global()->generate64(), 16).rightJustified(16, QLatin1Char('0'));
}
