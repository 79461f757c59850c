#pragma once

#include "httprequesthead.h"

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>
#include <QtCore/QList>
#include <QtCore/QtGlobal>

#include <functional>

/// Follows HTTP/1.1 request framing on one connection, byte by byte, without keeping request bodies.
///
/// The tracker sees the raw bytes a client sends (across keep-alive and pipelined requests) and answers whether
/// the stream is still acceptable: header blocks up to maxHeaderBytes, bodies framed by Content-Length up to
/// maxBodyBytes (or the limit of a matching BodyLimitException, decided from the request line and, for an exception
/// that needs authorization, from the allowance check's answer on the complete head). It keeps at most
/// one header block in memory; body bytes are only counted. It does not validate anything else about the request
/// (method, target, header syntax): that stays with the HTTP parser.
class HttpFramingTracker
{
public:
    /// Outcome of feeding bytes. Anything other than Ok is final: later feeds return the same verdict.
    enum class Verdict
    {
        Ok,               ///< Everything seen so far is acceptable (possibly in the middle of a request).
        TooLarge,         ///< A request declared a Content-Length above maxBodyBytes (HTTP 413).
        HeadersTooLarge,  ///< A request's header block exceeds maxHeaderBytes (HTTP 431).
        LengthRequired,   ///< A request used Transfer-Encoding (chunked or other) instead of Content-Length (411).
        BadContentLength, ///< Content-Length is malformed or given more than once (HTTP 400).
    };

    /// Default body limit in bytes (64 KiB).
    static constexpr qint64 DefaultMaxBodyBytes = 64 * 1024;
    /// Default header block limit in bytes (16 KiB), counted from the request line to the blank line inclusive.
    static constexpr qsizetype DefaultMaxHeaderBytes = 16 * 1024;

    /// A different body limit for one method and path, e.g. {"PUT", "/api/v1/plans/catalogue", 8 MiB, true} for an
    /// upload endpoint. The path is compared with the request target's path (query and fragment removed, an
    /// absolute-form target reduced to its path, empty segments ignored), byte for byte and case-sensitively, except
    /// that a "{name}" segment matches any one segment (as in ApiRouter's patterns).
    /// With needsAuthorization, a request whose Content-Length exceeds maxBodyBytes() gets the larger limit only
    /// when the tracker's AllowanceCheck approves its head (without a check, never); otherwise maxBodyBytes().
    struct BodyLimitException
    {
        QByteArray method; ///< e.g. "PUT"
        QByteArray path;   ///< e.g. "/api/v1/plans/catalogue"
        qint64 maxBodyBytes = DefaultMaxBodyBytes;
        bool needsAuthorization = false; ///< the larger limit only for heads the AllowanceCheck approves
    };
    using BodyLimitExceptions = QList<BodyLimitException>;

    /// Decides whether a complete request head (e.g. its Authorization header) earns the larger limit of a
    /// BodyLimitException with needsAuthorization. Called at most once per such request, only when its
    /// Content-Length exceeds maxBodyBytes(), and before any of its body is accepted.
    using AllowanceCheck = std::function<bool(const HttpRequestHead &head)>;

    /// Creates a tracker at the start of a connection. maxBodyBytes: largest accepted Content-Length in bytes
    /// (negative values are treated as 0); maxHeaderBytes: largest accepted header block in bytes (at least 1);
    /// exceptions: per method+path body limits that replace maxBodyBytes for matching requests; allowanceCheck:
    /// approves the exceptions that need authorization (none: they keep maxBodyBytes).
    explicit HttpFramingTracker(qint64 maxBodyBytes = DefaultMaxBodyBytes,
                                qsizetype maxHeaderBytes = DefaultMaxHeaderBytes, BodyLimitExceptions exceptions = {},
                                AllowanceCheck allowanceCheck = {});

    /// Consumes the next bytes the client sent, in order, and returns the verdict for the stream so far.
    /// The split into feeds does not matter. A request is rejected as soon as its header block is complete
    /// (TooLarge, LengthRequired, BadContentLength) or exceeds the limit (HeadersTooLarge), before its body.
    Verdict feed(QByteArrayView bytes);

    /// Returns the current verdict without consuming anything.
    Verdict verdict() const { return m_verdict; }

    /// Returns the number of requests whose header block and body have been fully seen.
    qint64 completedRequests() const { return m_completedRequests; }

    /// Returns true when the tracker sits exactly between two requests (nothing of the next one seen yet).
    bool isBetweenRequests() const;

    /// Returns true while the body of an accepted request head is still expected.
    bool isReadingBody() const { return m_state == State::Body; }

    /// Returns the default body limit in bytes.
    qint64 maxBodyBytes() const { return m_maxBodyBytes; }

    /// Returns the body limit in bytes that applies to a request line's method and target (raw bytes, e.g. "PUT"
    /// and "/api/v1/plans/catalogue?x=1"): a matching exception's limit, else maxBodyBytes(). For an exception
    /// that needs authorization this is the limit an approved head gets.
    qint64 bodyLimitFor(QByteArrayView method, QByteArrayView target) const;

    /// Returns true when the most recent complete head matched an exception that needs authorization, declared a
    /// body above maxBodyBytes() and was not approved, so maxBodyBytes() applied to it.
    bool lastAllowanceRefused() const { return m_lastAllowanceRefused; }

    /// Returns the body limit in bytes applied to the most recent complete header block (maxBodyBytes() before
    /// the first one); for a TooLarge verdict, the limit the request exceeded.
    qint64 lastBodyLimit() const { return m_lastBodyLimit; }

    /// Returns the header block limit in bytes.
    qsizetype maxHeaderBytes() const { return m_maxHeaderBytes; }

private:
    enum class State
    {
        Headers,
        Body,
        Rejected
    };

    qsizetype feedHeaders(QByteArrayView bytes);
    Verdict evaluateHeaderBlock();
    qint64 allowedBodyLimit(const HttpRequestHead &head, qint64 contentLength);
    void reject(Verdict verdict);

    qint64 m_maxBodyBytes;
    qsizetype m_maxHeaderBytes;
    BodyLimitExceptions m_exceptions;
    AllowanceCheck m_allowanceCheck;
    qint64 m_lastBodyLimit;
    bool m_lastAllowanceRefused = false;
    State m_state = State::Headers;
    Verdict m_verdict = Verdict::Ok;
    QByteArray m_headerBlock;
    qsizetype m_lineStart = 0;
    qint64 m_bodyRemaining = 0;
    qint64 m_completedRequests = 0;
};
