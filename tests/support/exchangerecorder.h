#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

/// Writes every HTTP exchange an API test makes as one JSON line into the directory named by the
/// environment variable RECHARGEDESK_API_RECORD_DIR (tests/CMakeLists.txt sets it for the API suites), so the
/// `api_contract` test can check every response against docs/api/openapi.yaml. Does nothing when the variable is
/// unset. One file per test process: `<suite>-<pid>.jsonl`.
class ExchangeRecorder
{
public:
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    /// Records one answered request: who asked (suite, test function, data tag), the method and URL, and the
    /// answer's status, headers and body. Requests that got no answer (status 0) are not recorded. `via` names a
    /// client other than HttpClient ("raw": read off a raw socket, see RawExchangeLog).
    static void record(const QByteArray &method, const QUrl &url, int status, const Headers &responseHeaders,
                       const QByteArray &body, const char *via = nullptr);
};
