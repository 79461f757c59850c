#include "httpframingtracker.h"

#include <algorithm>
#include <limits>

namespace {

// A declared length with more digits than this is larger than any limit we could be configured with (and would
// overflow qint64 soon after), so it is rejected as too large without being converted.
constexpr qsizetype MaxContentLengthDigits = 18;

bool isOptionalWhitespace(char c)
{
    return c == ' ' || c == '\t';
}

QByteArrayView trimOptionalWhitespace(QByteArrayView value)
{
    while (!value.isEmpty() && isOptionalWhitespace(value.front()))
        value = value.sliced(1);
    while (!value.isEmpty() && isOptionalWhitespace(value.back()))
        value.chop(1);
    return value;
}

bool headerNameIs(QByteArrayView name, QByteArrayView expected)
{
    return name.compare(expected, Qt::CaseInsensitive) == 0;
}

// The path of a request target: origin-form "/a/b?q" or absolute-form "http://host/a/b?q" -> "/a/b".
QByteArrayView targetPath(QByteArrayView target)
{
    const qsizetype scheme = target.indexOf("://");
    if (scheme > 0 && !target.first(scheme).contains('/')) {
        target = target.sliced(scheme + 3);
        const qsizetype slash = target.indexOf('/');
        target = slash < 0 ? QByteArrayView() : target.sliced(slash);
    }
    for (const char end : {'?', '#'}) {
        const qsizetype at = target.indexOf(end);
        if (at >= 0)
            target.truncate(at);
    }
    return target;
}

// True when a segment of an exception's path is a capture ("{name}"), which matches any one non-empty segment.
bool isCapture(QByteArrayView segment)
{
    return segment.size() >= 2 && segment.front() == '{' && segment.back() == '}';
}

// True when a request path `a` has the same non-empty segments as an exception's path `b` ("/a//b/" matches "/a/b",
// as the router sees them); a "{name}" segment of `b` matches any one segment of `a`, as in the router's patterns.
bool samePathSegments(QByteArrayView a, QByteArrayView b)
{
    qsizetype i = 0;
    qsizetype j = 0;
    for (;;) {
        while (i < a.size() && a.at(i) == '/')
            ++i;
        while (j < b.size() && b.at(j) == '/')
            ++j;
        if (i == a.size() || j == b.size())
            return i == a.size() && j == b.size();
        qsizetype aEnd = a.indexOf('/', i);
        qsizetype bEnd = b.indexOf('/', j);
        if (aEnd < 0)
            aEnd = a.size();
        if (bEnd < 0)
            bEnd = b.size();
        if (a.sliced(i, aEnd - i) != b.sliced(j, bEnd - j) && !isCapture(b.sliced(j, bEnd - j)))
            return false;
        i = aEnd;
        j = bEnd;
    }
}

// The first exception for a method and target, or null.
const HttpFramingTracker::BodyLimitException *matchingException(const HttpFramingTracker::BodyLimitExceptions &list,
                                                                QByteArrayView method, QByteArrayView target)
{
    if (list.isEmpty())
        return nullptr;
    const QByteArrayView path = targetPath(target);
    for (const HttpFramingTracker::BodyLimitException &exception : list) {
        if (method == exception.method && samePathSegments(path, exception.path))
            return &exception;
    }
    return nullptr;
}

} // namespace

HttpFramingTracker::HttpFramingTracker(qint64 maxBodyBytes, qsizetype maxHeaderBytes, BodyLimitExceptions exceptions,
                                       AllowanceCheck allowanceCheck)
    : m_maxBodyBytes(std::max<qint64>(maxBodyBytes, 0)), m_maxHeaderBytes(std::max<qsizetype>(maxHeaderBytes, 1)),
      m_exceptions(std::move(exceptions)), m_allowanceCheck(std::move(allowanceCheck)), m_lastBodyLimit(m_maxBodyBytes)
{
    for (BodyLimitException &exception : m_exceptions)
        exception.maxBodyBytes = std::max<qint64>(exception.maxBodyBytes, 0);
}

qint64 HttpFramingTracker::bodyLimitFor(QByteArrayView method, QByteArrayView target) const
{
    const BodyLimitException *exception = matchingException(m_exceptions, method, target);
    return exception ? exception->maxBodyBytes : m_maxBodyBytes;
}

// The limit for a complete head that declared contentLength bytes: an exception that needs authorization is
// asked for only when the default would refuse the body, so ordinary requests never reach the check.
qint64 HttpFramingTracker::allowedBodyLimit(const HttpRequestHead &head, qint64 contentLength)
{
    m_lastAllowanceRefused = false;
    if (head.method().isEmpty())
        return m_maxBodyBytes;
    const BodyLimitException *exception = matchingException(m_exceptions, head.method(), head.target());
    if (!exception)
        return m_maxBodyBytes;
    if (!exception->needsAuthorization || contentLength <= m_maxBodyBytes)
        return exception->maxBodyBytes;
    if (m_allowanceCheck && m_allowanceCheck(head))
        return exception->maxBodyBytes;
    m_lastAllowanceRefused = true;
    return m_maxBodyBytes;
}

HttpFramingTracker::Verdict HttpFramingTracker::feed(QByteArrayView bytes)
{
    while (!bytes.isEmpty() && m_state != State::Rejected) {
        if (m_state == State::Body) {
            const qint64 taken = std::min<qint64>(m_bodyRemaining, bytes.size());
            m_bodyRemaining -= taken;
            bytes = bytes.sliced(static_cast<qsizetype>(taken));
            if (m_bodyRemaining == 0) {
                m_state = State::Headers;
                ++m_completedRequests;
            }
        } else {
            bytes = bytes.sliced(feedHeaders(bytes));
        }
    }
    return m_verdict;
}

bool HttpFramingTracker::isBetweenRequests() const
{
    return m_state == State::Headers && m_headerBlock.isEmpty();
}

// Appends header bytes until the blank line that ends the block; returns how many bytes of `bytes` it used.
qsizetype HttpFramingTracker::feedHeaders(QByteArrayView bytes)
{
    qsizetype i = 0;
    if (m_headerBlock.isEmpty()) {
        // Like the HTTP parser (and RFC 9112 section 2.2), ignore empty lines before the request line.
        while (i < bytes.size() && (bytes.at(i) == '\r' || bytes.at(i) == '\n'))
            ++i;
    }
    while (i < bytes.size()) {
        // Up to and including the next LF, in one piece (a byte at a time cost ~15 k instructions a request).
        const qsizetype lf = bytes.indexOf('\n', i);
        const qsizetype end = lf < 0 ? bytes.size() : lf + 1;
        const qsizetype room = m_maxHeaderBytes - m_headerBlock.size();
        if (end - i > room) {
            // The byte at i + room is the first past the limit.
            m_headerBlock.append(bytes.sliced(i, room + 1));
            reject(Verdict::HeadersTooLarge);
            return i + room + 1;
        }
        m_headerBlock.append(bytes.sliced(i, end - i));
        i = end;
        if (lf < 0)
            break;
        // A line ends at LF, optionally preceded by CR (the HTTP parser accepts bare LF too).
        qsizetype lineEnd = m_headerBlock.size() - 1;
        if (lineEnd > m_lineStart && m_headerBlock.at(lineEnd - 1) == '\r')
            --lineEnd;
        if (lineEnd == m_lineStart) {
            const Verdict verdict = evaluateHeaderBlock();
            m_headerBlock.clear();
            m_lineStart = 0;
            if (verdict != Verdict::Ok) {
                reject(verdict);
            } else if (m_bodyRemaining > 0) {
                m_state = State::Body;
            } else {
                ++m_completedRequests;
            }
            return i;
        }
        m_lineStart = m_headerBlock.size();
    }
    return i;
}

// Looks at the framing headers of the complete block in m_headerBlock; sets m_bodyRemaining when acceptable.
HttpFramingTracker::Verdict HttpFramingTracker::evaluateHeaderBlock()
{
    bool hasTransferEncoding = false;
    bool malformedLength = false;
    bool lengthTooLarge = false;
    int contentLengthCount = 0;
    bool previousWasContentLength = false;
    qint64 contentLength = 0;

    const QByteArrayView block(m_headerBlock);
    qsizetype pos = block.indexOf('\n') + 1; // headers start after the request line
    while (pos < block.size()) {
        qsizetype end = block.indexOf('\n', pos);
        if (end < 0)
            end = block.size();
        QByteArrayView line = block.sliced(pos, end - pos);
        pos = end + 1;
        if (!line.isEmpty() && line.back() == '\r')
            line.chop(1);
        if (line.isEmpty())
            break;
        if (isOptionalWhitespace(line.front())) {
            // Obsolete line folding: a folded Content-Length value is not something we try to interpret.
            if (previousWasContentLength)
                malformedLength = true;
            continue;
        }
        previousWasContentLength = false;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue; // not a header we care about; the HTTP parser will judge the syntax
        const QByteArrayView name = line.first(colon);
        const QByteArrayView value = trimOptionalWhitespace(line.sliced(colon + 1));
        if (headerNameIs(name, "transfer-encoding")) {
            hasTransferEncoding = true;
        } else if (headerNameIs(name, "content-length")) {
            previousWasContentLength = true;
            ++contentLengthCount;
            const bool allDigits = !value.isEmpty() &&
                                   std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!allDigits) {
                malformedLength = true;
            } else if (value.size() > MaxContentLengthDigits) {
                lengthTooLarge = true;
            } else {
                contentLength = 0;
                for (const char c : value)
                    contentLength = contentLength * 10 + (c - '0');
            }
        }
    }

    if (hasTransferEncoding)
        return Verdict::LengthRequired;
    // The bundled HTTP parser rejects a repeated Content-Length even with equal values (and then drops the
    // connection without an answer), so any repetition is answered here with 400 instead.
    if (malformedLength || contentLengthCount > 1)
        return Verdict::BadContentLength;
    m_lastBodyLimit =
        allowedBodyLimit(HttpRequestHead(block), lengthTooLarge ? std::numeric_limits<qint64>::max() : contentLength);
    if (lengthTooLarge || contentLength > m_lastBodyLimit)
        return Verdict::TooLarge;
    m_bodyRemaining = contentLength;
    return Verdict::Ok;
}

void HttpFramingTracker::reject(Verdict verdict)
{
    m_state = State::Rejected;
    m_verdict = verdict;
    m_headerBlock.clear();
    m_headerBlock.squeeze();
    m_lineStart = 0;
    m_bodyRemaining = 0;
}
