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
    const QByteArray strict = markNonIntegerNumbers(body);
    if (strict.size() == body.size())
        return document.object();
    // Marking wraps a number in an object, one level deeper: a number right at QJsonDocument's nesting limit goes
    // over it. Refuse that as the parser refuses anything deeper, rather than reading the body as {}.
    const QJsonDocument strictDocument = QJsonDocument::fromJson(strict, &error);
    if (error.error != QJsonParseError::NoError)
        throw ApiError::badRequest(QString(), QStringLiteral("malformed_json"),
                                   QStringLiteral("the body is not valid JSON: %1").arg(error.errorString()));
    return strictDocument.object();
}

QByteArray ApiRequest::markNonIntegerNumbers(const QByteArray &json)
{
    QByteArray out;
    const qsizetype size = json.size();
    qsizetype copiedUpTo = 0; // json[copiedUpTo, i) is still to be copied
    for (qsizetype i = 0; i < size;) {
        const char c = json.at(i);
        if (c == '"') { // skip a string, escapes included
            for (++i; i < size && json.at(i) != '"'; ++i) {
                if (json.at(i) == '\\')
                    ++i;
            }
            ++i;
            continue;
        }
        // QJsonDocument also reads a number written with a leading dot (.5, .1E+2), so '.' starts one too.
        if (c != '-' && c != '.' && (c < '0' || c > '9')) {
            ++i;
            continue;
        }
        const qsizetype start = i;
        bool integral = true;
        for (; i < size; ++i) {
            const char d = json.at(i);
            if (d == '.' || d == 'e' || d == 'E')
                integral = false;
            else if (d != '-' && d != '+' && (d < '0' || d > '9'))
                break;
        }
        if (integral)
            continue;
        out += json.mid(copiedUpTo, start - copiedUpTo);
        out += R"({"non_integer_number":")" + json.mid(start, i - start) + R"("})";
        copiedUpTo = i;
    }
    if (copiedUpTo == 0)
        return json;
    out += json.mid(copiedUpTo);
    return out;
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
