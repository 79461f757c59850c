#pragma once

#include <QtCore/QByteArrayView>

/// A read-only view of one complete HTTP/1.1 request head (request line and header lines, up to the blank line),
/// as the HttpFramingTracker has it in memory. It does not copy: it is valid only while the bytes it views are,
/// i.e. during the call it is passed to. It does not validate the syntax; a malformed line is simply not found.
class HttpRequestHead
{
public:
    /// Views `block`, the raw bytes of a head (CRLF or bare LF line ends).
    explicit HttpRequestHead(QByteArrayView block);

    /// The whole head as viewed (to copy it for another thread).
    QByteArrayView block() const { return m_block; }

    /// The request line's method, e.g. "PUT" (empty if the request line has no space).
    QByteArrayView method() const { return m_method; }

    /// The request line's target as sent, e.g. "/api/v1/plans/catalogue?x=1".
    QByteArrayView target() const { return m_target; }

    /// The value of the first header line named `name` (compared case-insensitively), without surrounding spaces
    /// or tabs; empty when there is no such header.
    QByteArrayView header(QByteArrayView name) const;

private:
    QByteArrayView m_block;
    QByteArrayView m_method;
    QByteArrayView m_target;
    qsizetype m_headersStart = 0;
};
