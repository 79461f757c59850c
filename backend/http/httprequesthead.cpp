#include "httprequesthead.h"

#include <algorithm>

namespace {

bool isOptionalWhitespace(char c)
{
    return c == ' ' || c == '\t';
}

// One line of the block starting at `pos`, without its CR LF; `next` is set to the start of the following line.
QByteArrayView lineAt(QByteArrayView block, qsizetype pos, qsizetype *next)
{
    qsizetype end = block.indexOf('\n', pos);
    if (end < 0)
        end = block.size();
    *next = end + 1;
    QByteArrayView line = block.sliced(pos, end - pos);
    if (!line.isEmpty() && line.back() == '\r')
        line.chop(1);
    return line;
}

} // namespace

HttpRequestHead::HttpRequestHead(QByteArrayView block) : m_block(block)
{
    const QByteArrayView requestLine = lineAt(block, 0, &m_headersStart);
    const qsizetype methodEnd = requestLine.indexOf(' ');
    if (methodEnd < 0)
        return;
    m_method = requestLine.first(methodEnd);
    m_target = requestLine.sliced(methodEnd + 1);
    const qsizetype targetEnd = m_target.indexOf(' ');
    if (targetEnd >= 0)
        m_target.truncate(targetEnd);
}

QByteArrayView HttpRequestHead::header(QByteArrayView name) const
{
    qsizetype pos = m_headersStart;
    while (pos < m_block.size()) {
        const QByteArrayView line = lineAt(m_block, pos, &pos);
        if (line.isEmpty())
            break;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || line.first(colon).compare(name, Qt::CaseInsensitive) != 0)
            continue;
        QByteArrayView value = line.sliced(colon + 1);
        while (!value.isEmpty() && isOptionalWhitespace(value.front()))
            value = value.sliced(1);
        while (!value.isEmpty() && isOptionalWhitespace(value.back()))
            value.chop(1);
        return value;
    }
    return {};
}
