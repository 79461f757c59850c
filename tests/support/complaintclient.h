#pragma once

#include "httpclient.h"

#include <QJsonObject>
#include <QUrl>

#include <functional>
#include <utility>

/// Issue 29: the complaint and number-lookup calls the suites make over real HTTP to one server (given by a function
/// that turns a path, with a query after '?', into its URL). Every call names its key; `session` (X-Session-Token) is
/// sent when not empty.
class ComplaintClient
{
public:
    using UrlOf = std::function<QUrl(const QString &path)>;

    ComplaintClient(HttpClient &http, UrlOf url) : m_http(http), m_url(std::move(url)) {}

    /// POST /api/v1/transactions/{saleId}/complaints {reason, note (when not empty)}.
    HttpResult raise(qint64 saleId, const QString &reason, const QString &note, const QByteArray &key,
                     const QByteArray &session = {})
    {
        QJsonObject body{{QStringLiteral("reason"), reason}};
        if (!note.isEmpty())
            body.insert(QStringLiteral("note"), note);
        return send("POST", QStringLiteral("/api/v1/transactions/%1/complaints").arg(saleId), key, body, session);
    }
    /// POST /api/v1/complaints/{id}/resolve {outcome, words, operator_reference (each when not empty)}.
    HttpResult resolve(qint64 id, const QString &outcome, const QString &words, const QString &reference,
                       const QByteArray &key, const QByteArray &session = {})
    {
        QJsonObject body{{QStringLiteral("outcome"), outcome}};
        if (!words.isEmpty())
            body.insert(QStringLiteral("words"), words);
        if (!reference.isEmpty())
            body.insert(QStringLiteral("operator_reference"), reference);
        return send("POST", QStringLiteral("/api/v1/complaints/%1/resolve").arg(id), key, body, session);
    }
    /// GET /api/v1/complaints/{id}'s data (empty when not 200).
    QJsonObject complaint(qint64 id, const QByteArray &key)
    {
        return send("GET", QStringLiteral("/api/v1/complaints/%1").arg(id), key).data();
    }
    /// The complaint's state ("" when it cannot be read).
    QString state(qint64 id, const QByteArray &key)
    {
        return complaint(id, key).value(QStringLiteral("state")).toString();
    }
    /// GET /api/v1/complaints?query.
    HttpResult list(const QString &query, const QByteArray &key)
    {
        return send("GET", QStringLiteral("/api/v1/complaints?") + query, key);
    }
    /// GET /api/v1/numbers/{phone}.
    HttpResult lookup(const QString &phone, const QByteArray &key)
    {
        return send("GET", QStringLiteral("/api/v1/numbers/") + phone, key);
    }
    /// Any call: `path` may carry a query after '?'.
    HttpResult send(const QByteArray &method, const QString &path, const QByteArray &key, const QJsonObject &body = {},
                    const QByteArray &session = {})
    {
        QUrl url = m_url(path.section(QLatin1Char('?'), 0, 0));
        if (path.contains(QLatin1Char('?')))
            url.setQuery(path.section(QLatin1Char('?'), 1));
        return m_http.sendJson(method, url, key, body, session);
    }

private:
    HttpClient &m_http;
    UrlOf m_url;
};
