#pragma once

#include "apiclient.h"

#include <optional>

/// The answer to a typed ApiClient call: the decoded entity, or why there is none: the
/// server's error envelope, a network failure, or an answer that does not decode (reason
/// `bad_answer`, description naming the field) — which a screen shows like any other error.
template <class T> struct Answer
{
    std::optional<T> value;
    std::optional<ApiError> error;
    int httpStatus = 0;
    bool ok() const { return value.has_value(); }
};

namespace AnswerDecoding {

/// The ApiError for an answer that does not decode: status of the HTTP answer, code
/// NETWORK_ERROR, reason `bad_answer`, the codec's problem as description.
ApiError badAnswer(int httpStatus, const QString &problem);

/// Decodes the `data` of a successful `result` with `decode(const QJsonObject &, QString *)`.
template <class T, class Decode> Answer<T> decode(const ApiResult &result, Decode decode)
{
    Answer<T> answer;
    answer.httpStatus = result.httpStatus;
    if (result.error) {
        answer.error = result.error;
        return answer;
    }
    QString problem;
    answer.value = decode(result.data, &problem);
    if (!answer.value)
        answer.error = badAnswer(result.httpStatus, problem);
    return answer;
}

} // namespace AnswerDecoding

/// A call in flight whose answer decodes to T: what every typed ApiClient call returns (issue 14).
/// The typed call owns the route; the screen only says what to do with the entity or the error.
template <class T> class TypedCall
{
public:
    /// `decode` has the shape of every entity's fromJson: (const QJsonObject &, QString *error).
    using Decoder = std::optional<T> (*)(const QJsonObject &, QString *);

    TypedCall(ApiCall *call, Decoder decode) : m_call(call), m_decode(decode) {}

    /// Calls `handler(const Answer<T> &)` once, in `context`'s thread, and never after `context`
    /// is destroyed (a closed screen gets no stale answer). Returns the call, e.g. to abort it.
    template <class Handler> ApiCall *then(const QObject *context, Handler handler) const
    {
        const Decoder decode = m_decode;
        QObject::connect(m_call, &ApiCall::finished, context,
                         [decode, handler = std::move(handler)](const ApiResult &result) {
                             handler(AnswerDecoding::decode<T>(result, decode));
                         });
        return m_call;
    }

    ApiCall *call() const { return m_call; }

private:
    ApiCall *m_call;
    Decoder m_decode;
};
