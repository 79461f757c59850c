#pragma once

#include "upstreamsettings.h"

#include <QByteArray>
#include <QHash>
#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QObject>
#include <QString>

#include <array>
#include <functional>

class Clock;

/// What came back from one call to the upstream.
struct UpstreamAnswer
{
    int httpStatus = 0; ///< 0: no HTTP answer (refused, reset, timed out)
    QByteArray body;
    QString networkError; ///< in words; empty when an HTTP answer arrived
    qint64 latencyMs = 0;
    QByteArray retryAfter; ///< the answer's Retry-After when it is whole seconds (1-6 digits), else empty
};

/// What an answer means for the sale (issue 11, "A live sale", step 3).
struct UpstreamVerdict
{
    enum class Kind
    {
        Success, ///< 200 with transaction_status SUCCESS
        Failed,  ///< 200 with transaction_status FAILED
        Pending, ///< 200 with transaction_status PENDING
        Refused, ///< a definite refusal: 400, 401, 402, 403, 409, 422
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

/// Talks HTTP to the upstream with QNetworkAccessManager on the server thread, never blocking
/// it: Basic auth with the configured key, JSON bodies, a per-call time limit.
class UpstreamClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamClient)

public:
    using Done = std::function<void(const UpstreamAnswer &answer)>;

    /// `timeoutMs` bounds each call (no answer within it counts as no answer).
    UpstreamClient(const Clock &clock, int timeoutMs, QObject *parent = nullptr);

    /// Sends `method` ("GET" or "POST", with `body` as JSON) to settings.url(path); `done` runs
    /// on this thread with the answer, always exactly once.
    void call(const UpstreamSettings &settings, const QByteArray &method, const QString &path, const QByteArray &body,
              Done done);

private:
    /// QNetworkAccessManager opens at most 6 keep-alive connections per host; the calls take turns
    /// over several managers so that up to 6 × kManagers sales are on the wire at once (each waits
    /// for the upstream's commit: with 6, a busy shop queued behind them).
    static constexpr std::size_t kManagers = 6;

    /// The request for settings.url(path), headers set. POST requests (a few fixed endpoints) are built
    /// once per upstream and key and reused: parsing the URL and encoding the key each call was a
    /// measurable part of a live sale (docs/benchmarks.md, "Upstream chain"). GETs (one URL per sale)
    /// are built each time.
    QNetworkRequest request(const UpstreamSettings &settings, const QString &path, bool post);

    const Clock &m_clock;
    int m_timeoutMs;
    QString m_requestsBaseUrl; ///< the settings m_postRequests were built with
    QString m_requestsKeyId;
    QString m_requestsKeySecret;
    QHash<QString, QNetworkRequest> m_postRequests; ///< by path
    std::array<QNetworkAccessManager, kManagers> m_managers;
    std::size_t m_nextManager = 0;
};
