#pragma once

#include "http/curlclient.h"
#include "upstreamsettings.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>
#include <utility>

class Clock;

/// What came back from one call to the upstream.
struct UpstreamAnswer
{
    int httpStatus = 0; ///< 0: no usable HTTP answer (refused, reset, timed out, larger than the client accepts)
    QByteArray body;
    QString networkError; ///< in words; empty when an HTTP answer arrived
    qint64 latencyMs = 0;
    /// The answer's Retry-After in seconds from its arrival (parseRetryAfter()); nullopt when it sent none or one
    /// that cannot be read.
    std::optional<qint64> retryAfterSeconds;
    QByteArray etag;       ///< the answer's ETag header as sent (quotes kept); empty when none
    bool tooLarge = false; ///< the answer was longer than UpstreamClient::setMaxAnswerBytes(): cut off, httpStatus 0

    /// The upstream's own words in an error body, whatever its format (issue 26, "The upstream's words"): the first
    /// non-empty of error.description, error.message, message, msg, description, error (a string) of a JSON object,
    /// or a short plain-text body (no markup); at most 300 characters, white space folded; empty when it said none.
    static QString words(const QByteArray &body);
    /// What came back, for a person or a log: "HTTP 500" with ": <its words>" when it said any, or the network error
    /// when no answer came.
    QString inWords() const;
    /// A Retry-After value (RFC 9110 section 10.2.3) in seconds from @p nowUtc: delay-seconds (digits only), or an
    /// HTTP-date in any of the three forms of RFC 9110 section 5.6.7, or a date with a numeric offset (RFC 2822); a
    /// date already past is 0. nullopt when @p value is empty or none of these. Very long delays are cut to 10^9 s;
    /// callers bound them further. The one Retry-After reader (issue 26, "One upstream client").
    static std::optional<qint64> parseRetryAfter(QByteArrayView value, const QDateTime &nowUtc);
};

/// An upstream's error body read once, whatever its format (issue 26, "The upstream's words"): the one place that
/// reads an upstream's refusals, for live sales (UpstreamVerdict), the Aadhaar flow and plan sync.
struct UpstreamError
{
    QString code;   ///< error.code of a RechargeDesk error envelope ({"error": {"code", "reason", ...}}); else empty
    QString reason; ///< error.reason of that envelope; else empty
    QString words;  ///< UpstreamAnswer::words() of the body; empty when it said nothing readable

    /// Whether the body is RechargeDesk's error envelope (both code and reason present): it can be passed on as is.
    bool isEnvelope() const { return !code.isEmpty() && !reason.isEmpty(); }
    /// Reads @p body (any bytes: JSON in any shape, plain text, HTML, nothing).
    static UpstreamError of(const QByteArray &body);
};

/// What an answer means for the sale (issue 11, "A live sale", step 3).
struct UpstreamVerdict
{
    enum class Kind
    {
        Success, ///< 200 with transaction_status SUCCESS
        Failed,  ///< 200 with transaction_status FAILED
        Pending, ///< 200 with transaction_status PENDING
        Refused, ///< a definite refusal: 400, 401, 402, 403, 409, 422 (its words in errorDescription)
        Unknown, ///< anything else: 5xx, no answer, unreadable body — the outcome is not known
    };
    Kind kind = Kind::Unknown;
    qint64 upstreamId = 0; ///< the upstream's transaction_id when a record came back
    QString referenceId;   ///< the record's reference_id
    QString redeemCode;    ///< a voucher's code from the upstream's record
    QString errorCode;     ///< refusal: the upstream's error reason (or code); unknown: what went wrong
    QString errorDescription;

    /// Reads one answer to an initiate call or a status check. A 200 must carry {"data": record}
    /// with a known transaction_status, else the outcome is Unknown.
    static UpstreamVerdict of(const UpstreamAnswer &answer);
    /// "SUCCESS", "FAILED", "PENDING", "refused" or "unknown" (the call log's outcome).
    QString outcomeName() const;
};

/// Talks HTTP to the upstream on the server thread, never blocking it (issue 11; issue 26, "One upstream client"):
/// the one place that sets a request up (the Authorization header of UpstreamSettings::authorization(), JSON, a
/// per-call time limit, no redirects followed, so the key goes nowhere else) and reads the answer (status, body,
/// Retry-After, ETag). Live sales (UpstreamDispatcher), the Aadhaar flow (UpstreamAadhaarGateway) and plan sync
/// (PlanSync) all go through it. The wire is libcurl's (CurlClient), on this thread's event loop.
class UpstreamClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamClient)

public:
    using Done = std::function<void(const UpstreamAnswer &answer)>;

    /// `timeoutMs` bounds each call, connect to last byte (no complete answer within it counts as no answer).
    UpstreamClient(const Clock &clock, int timeoutMs, QObject *parent = nullptr);

    /// Whether a request may reach the upstream more than once.
    enum class Delivery
    {
        /// On a kept-alive connection, which the network layer may send again by itself when that connection
        /// turns out closed before any answer (harmless for reads, and for a sale at an upstream that promised the
        /// same reference_id is one sale).
        MayRepeat,
        /// It leaves this server once, on a connection of its own, and is never sent again by the network layer: a
        /// sale at an upstream that promised nothing more than api-v1.md (a second copy may be a second real sale).
        /// A connection cut before the answer is then no answer (httpStatus 0), never a silent second request.
        AtMostOnce,
    };

    /// A request beyond call()'s fixed shape: any URL on the upstream's own host, extra request headers.
    struct Request
    {
        QByteArray method = "GET"; ///< "GET" or "POST" (with `body` as JSON)
        QUrl url;                  ///< settings.url(path), or a location read by onUpstreamHost()
        QByteArray body;
        QList<std::pair<QByteArray, QByteArray>> headers; ///< added to the usual ones, e.g. If-None-Match
    };

    /// Sends `method` ("GET" or "POST", with `body` as JSON) to settings.url(path); `done` runs
    /// on this thread with the answer, always exactly once.
    void call(const UpstreamSettings &settings, const QByteArray &method, const QString &path, const QByteArray &body,
              Done done, Delivery delivery = Delivery::MayRepeat);
    /// Sends @p request as call() does (Delivery::MayRepeat); `done` runs on this thread, always exactly once and
    /// never before send() returns. A URL that is not on the upstream's own host (onUpstreamHost()) is not sent:
    /// `done` gets httpStatus 0 and a networkError saying so.
    void send(const UpstreamSettings &settings, const Request &request, Done done);

    /// The URL @p location names when it lies on the upstream's own host, else nullopt (issue 26, "Liberal in what it
    /// accepts"). @p location is an absolute http(s) URL with the scheme, host and port of settings.baseUrl (default
    /// ports count as written: http 80, https 443) and any path and query; or a path, "/x" from that host's root
    /// and "x" under the base URL. A URL with user info, another scheme, host or port, or an empty or unreadable
    /// one is refused: the upstream's key is sent to its own host only. The fragment is dropped.
    static std::optional<QUrl> onUpstreamHost(const UpstreamSettings &settings, const QString &location);

    /// Answers longer than @p bytes are cut off and come back as no answer (httpStatus 0, tooLarge). 0, the
    /// default: no limit.
    void setMaxAnswerBytes(qint64 bytes) { m_maxAnswerBytes = bytes; }

private:
    /// Connections open at once to one upstream host (more calls wait for one): up to this many sales are on the
    /// wire together, each waiting for the upstream's commit.
    static constexpr int kConnectionsPerHost = 36;

    /// settings.url(path) encoded, remembered per path for the current base URL: parsing the URL each call was a
    /// measurable part of a live sale (docs/benchmarks.md).
    const QByteArray &urlFor(const UpstreamSettings &settings, const QString &path);
    /// A request to @p url with this client's headers and limits: Authorization, Accept, the time limit, the answer
    /// size limit, and for a POST the JSON Content-Type.
    CurlClient::Request prepared(const QByteArray &method, QByteArray url, const QByteArray &authorization) const;
    /// Sends @p request and hands @p done the answer as an UpstreamAnswer.
    void start(CurlClient::Request request, Done done);

    const Clock &m_clock;
    int m_timeoutMs;
    qint64 m_maxAnswerBytes = 0;
    QString m_urlsBaseUrl;             ///< the base URL m_urls were made for
    QHash<QString, QByteArray> m_urls; ///< by path
    CurlClient m_curl;
};
