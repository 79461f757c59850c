#pragma once

#include <QByteArray>
#include <QByteArrayView>

class ApiRequest;
class ApiReply;

/// Bytes the server answers unchanged from request to request (a logo, the OpenAPI document), with a strong ETag
/// and the route's Cache-Control: 200 with the body, or 304 without it when If-None-Match names the ETag
/// (RFC 9110 section 13.1.2).
class StaticAsset
{
public:
    StaticAsset() = default;
    /// The asset with its ETag: the first 16 bytes of the body's SHA-256 in hex, quoted.
    StaticAsset(QByteArray contentType, QByteArray body, QByteArray cacheControl);

    /// Answers `request` with the asset: 304 (no body) when its If-None-Match matches, else 200.
    void send(const ApiRequest &request, const ApiReply &reply) const;

    const QByteArray &etag() const { return m_etag; }
    const QByteArray &body() const { return m_body; }

    /// If-None-Match (weak comparison): "*" or a comma-separated list holding `etag`, W/ prefixes ignored.
    static bool etagMatches(QByteArrayView ifNoneMatch, QByteArrayView etag);

private:
    QByteArray m_contentType;
    QByteArray m_body;
    QByteArray m_cacheControl;
    QByteArray m_etag;
};
