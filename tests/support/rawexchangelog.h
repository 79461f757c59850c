#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

struct RawHttpResponse;

/// Lets the raw-socket clients of the tests (RawHttpClient, TlsRawClient, the slowloris client) have their answers
/// checked by `api_contract` like HttpClient's: it follows the bytes a client sends to learn each request's method
/// and target, pairs every complete answer with the request it answers (in order, as HTTP/1.1 answers come), and
/// records the pair through ExchangeRecorder, marked `"via": "raw"`. An answer that came before any request line
/// (a connection refused at accept) is recorded with an empty method and path. Does nothing when
/// RECHARGEDESK_API_RECORD_DIR is unset.
class RawExchangeLog
{
public:
    /// Follows `bytes` the client sent (heads are parsed; bodies are skipped by their Content-Length).
    void sent(QByteArrayView bytes);
    /// Records `response` as the answer to the oldest request not answered yet.
    void answered(const RawHttpResponse &response);
    /// Records every complete answer in `received` (what a client collected and did not take), e.g. when the
    /// client goes away.
    void answeredAll(QByteArray received);

private:
    struct RequestLine
    {
        QByteArray method;
        QByteArray target;
    };

    QByteArray m_unparsed;         ///< sent bytes not yet understood: a head in progress
    qint64 m_bodyLeft = 0;         ///< body bytes of the last head still to skip
    bool m_lineQueued = false;     ///< the request line of the head in progress is already in m_requests
    QList<RequestLine> m_requests; ///< requests sent and not yet answered, oldest first
};
