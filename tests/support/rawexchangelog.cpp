#include "rawexchangelog.h"

#include "exchangerecorder.h"
#include "rawhttpclient.h"

#include <QUrl>

void RawExchangeLog::sent(QByteArrayView bytes)
{
    // Body bytes are skipped as they come: a test may stream megabytes of them.
    if (m_bodyLeft > 0) {
        const qint64 skipped = std::min<qint64>(m_bodyLeft, bytes.size());
        m_bodyLeft -= skipped;
        bytes = bytes.sliced(skipped);
    }
    m_unparsed.append(bytes);
    while (!m_unparsed.isEmpty()) {
        if (m_bodyLeft > 0) {
            const qint64 skipped = std::min<qint64>(m_bodyLeft, m_unparsed.size());
            m_bodyLeft -= skipped;
            m_unparsed.remove(0, skipped);
            continue;
        }
        // The request line counts as soon as it is whole: the server may answer an unfinished head (408, 431).
        const qsizetype lineEnd = m_unparsed.indexOf("\r\n");
        if (lineEnd < 0)
            return;
        if (!m_lineQueued) {
            const QList<QByteArray> parts = m_unparsed.first(lineEnd).split(' ');
            m_requests.append({parts.value(0), parts.value(1)});
            m_lineQueued = true;
        }
        const qsizetype headEnd = m_unparsed.indexOf("\r\n\r\n");
        if (headEnd < 0)
            return;
        RawHttpResponse head; // the request head has the same "Name: value" lines as a response's
        for (const QByteArray &line : m_unparsed.first(headEnd).split('\n').mid(1))
            head.headerLines.append(line.trimmed());
        m_bodyLeft = head.header("Content-Length").toLongLong();
        m_unparsed.remove(0, headEnd + 4);
        m_lineQueued = false;
    }
}

void RawExchangeLog::answered(const RawHttpResponse &response)
{
    const RequestLine request = m_requests.isEmpty() ? RequestLine{} : m_requests.takeFirst();
    ExchangeRecorder::Headers headers;
    for (const QByteArray &line : response.headerLines) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            headers.append({line.first(colon).trimmed(), line.sliced(colon + 1).trimmed()});
    }
    const QUrl url = request.target.isEmpty() ? QUrl() : QUrl::fromEncoded("http://127.0.0.1" + request.target);
    ExchangeRecorder::record(request.method, url, response.status, headers, response.body, "raw");
}

void RawExchangeLog::answeredAll(QByteArray received)
{
    RawHttpResponse response;
    while (takeRawResponse(received, response))
        answered(response);
}
