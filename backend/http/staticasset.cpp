#include "staticasset.h"

#include "apireply.h"
#include "apirequest.h"

#include <QCryptographicHash>

StaticAsset::StaticAsset(QByteArray contentType, QByteArray body, QByteArray cacheControl)
    : m_contentType(std::move(contentType)), m_body(std::move(body)), m_cacheControl(std::move(cacheControl)),
      m_etag('"' + QCryptographicHash::hash(m_body, QCryptographicHash::Sha256).first(16).toHex() + '"')
{}

void StaticAsset::send(const ApiRequest &request, const ApiReply &reply) const
{
    const ApiReply::Headers headers{{"ETag", m_etag}, {"Cache-Control", m_cacheControl}};
    if (etagMatches(request.header("if-none-match"), m_etag))
        reply.send(304, m_contentType, {}, headers);
    else
        reply.send(200, m_contentType, m_body, headers);
}

bool StaticAsset::etagMatches(QByteArrayView ifNoneMatch, QByteArrayView etag)
{
    if (ifNoneMatch.isEmpty())
        return false;
    if (ifNoneMatch.trimmed() == "*")
        return true;
    for (const QByteArray &candidate : ifNoneMatch.toByteArray().split(',')) {
        QByteArrayView tag = QByteArrayView(candidate).trimmed();
        if (tag.startsWith("W/"))
            tag = tag.sliced(2);
        if (tag == etag)
            return true;
    }
    return false;
}
