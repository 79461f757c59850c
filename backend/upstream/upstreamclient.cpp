#include "upstreamclient.h"

#include "clock.h"
#include "entities/transactionrecord.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <algorithm>

UpstreamVerdict UpstreamVerdict::of(const UpstreamAnswer &answer)
{
    UpstreamVerdict v;
    const int status = answer.httpStatus;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(answer.body, &parseError);
    const QJsonObject json = document.object();
    if (status == 200) {
        const QJsonObject record = json.value(QStringLiteral("data")).toObject();
        const std::optional<TransactionStatus> s =
            TransactionNames::statusFromString(record.value(QStringLiteral("transaction_status")).toString());
        if (parseError.error != QJsonParseError::NoError || !s) {
            v.errorCode = QStringLiteral("unreadable_answer");
            v.errorDescription = QStringLiteral("the upstream answered 200 with a body that is not a transaction");
            return v;
        }
        v.kind = *s == TransactionStatus::Success  ? Kind::Success
                 : *s == TransactionStatus::Failed ? Kind::Failed
                                                   : Kind::Pending;
        v.upstreamId = record.value(QStringLiteral("transaction_id")).toInteger();
        v.referenceId = record.value(QStringLiteral("reference_id")).toString();
        v.redeemCode = record.value(QStringLiteral("redeem_code")).toString();
        return v;
    }
    static const QList<int> kDefinite{400, 401, 402, 403, 409, 422};
    if (kDefinite.contains(status)) {
        v.kind = Kind::Refused;
        const QJsonObject error = json.value(QStringLiteral("error")).toObject();
        v.errorCode = error.value(QStringLiteral("reason")).toString();
        if (v.errorCode.isEmpty())
            v.errorCode = error.value(QStringLiteral("code")).toString();
        if (v.errorCode.isEmpty())
            v.errorCode = QStringLiteral("http_%1").arg(status);
        v.errorDescription = error.value(QStringLiteral("description")).toString();
        if (v.errorDescription.isEmpty())
            v.errorDescription = QStringLiteral("the upstream refused the sale (HTTP %1)").arg(status);
        return v;
    }
    if (status == 0) {
        v.errorCode = QStringLiteral("no_answer");
        v.errorDescription = answer.networkError;
    } else {
        v.errorCode = QStringLiteral("http_%1").arg(status);
        v.errorDescription = QStringLiteral("the upstream answered HTTP %1; the outcome is not known yet").arg(status);
    }
    return v;
}

QString UpstreamVerdict::outcomeName() const
{
    switch (kind) {
    case Kind::Success:
        return QStringLiteral("SUCCESS");
    case Kind::Failed:
        return QStringLiteral("FAILED");
    case Kind::Pending:
        return QStringLiteral("PENDING");
    case Kind::Refused:
        return QStringLiteral("refused");
    case Kind::Unknown:
        return QStringLiteral("unknown");
    }
    return QString();
}

UpstreamClient::UpstreamClient(const Clock &clock, int timeoutMs, QObject *parent)
    : QObject(parent), m_clock(clock), m_timeoutMs(timeoutMs)
{
    for (QNetworkAccessManager &manager : m_managers)
        manager.setAutoDeleteReplies(true);
}

QNetworkRequest UpstreamClient::request(const UpstreamSettings &settings, const QString &path, bool post)
{
    if (settings.baseUrl != m_requestsBaseUrl || settings.keyId != m_requestsKeyId ||
        settings.keySecret != m_requestsKeySecret) {
        m_postRequests.clear();
        m_requestsBaseUrl = settings.baseUrl;
        m_requestsKeyId = settings.keyId;
        m_requestsKeySecret = settings.keySecret;
    }
    if (post) {
        if (const auto found = m_postRequests.constFind(path); found != m_postRequests.cend())
            return found.value();
    }
    QNetworkRequest request(settings.url(path));
    request.setRawHeader("Authorization", settings.authorization());
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(m_timeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    if (post) {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        m_postRequests.insert(path, request);
    }
    return request;
}

void UpstreamClient::call(const UpstreamSettings &settings, const QByteArray &method, const QString &path,
                          const QByteArray &body, Done done)
{
    const bool post = method == "POST";
    const QNetworkRequest request = this->request(settings, path, post);
    QNetworkAccessManager &manager = m_managers[m_nextManager];
    m_nextManager = (m_nextManager + 1) % kManagers;
    QNetworkReply *reply = post ? manager.post(request, body) : manager.get(request);
    const qint64 startedMs = m_clock.nowMs();
    connect(reply, &QNetworkReply::finished, this, [this, reply, startedMs, done = std::move(done)] {
        UpstreamAnswer answer;
        answer.latencyMs = qMax(qint64(0), m_clock.nowMs() - startedMs);
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (status.isValid()) {
            answer.httpStatus = status.toInt();
            answer.body = reply->readAll();
            const QByteArray retryAfter = reply->rawHeader("Retry-After").trimmed();
            const bool seconds =
                !retryAfter.isEmpty() && retryAfter.size() <= 6 &&
                std::all_of(retryAfter.begin(), retryAfter.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (seconds)
                answer.retryAfter = retryAfter;
        }
        if (reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError)
            answer.networkError = QStringLiteral("no answer within %1 ms").arg(m_timeoutMs);
        else if (!status.isValid())
            answer.networkError = reply->errorString();
        if (!answer.networkError.isEmpty() && reply->error() == QNetworkReply::OperationCanceledError)
            answer.httpStatus = 0;
        done(answer);
    });
}
