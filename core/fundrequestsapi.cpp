#include "fundrequestsapi.h"

namespace {

QString requestPath(qint64 id)
{
    return FundRequestsApi::listPath() + QLatin1Char('/') + QString::number(id);
}

} // namespace

TypedCall<FundRequest> FundRequestsApi::create(Paise amount, const QString &method, const QString &utr,
                                               const QString &referenceId, const QString &note,
                                               const std::optional<FundRequestSlip> &slip) const
{
    QJsonObject body{{QStringLiteral("amount"), amount / Money::kPaisePerRupee},
                     {QStringLiteral("method"), method},
                     {QStringLiteral("utr"), utr}};
    if (!referenceId.isEmpty())
        body.insert(QStringLiteral("reference_id"), referenceId);
    if (!note.isEmpty())
        body.insert(QStringLiteral("note"), note);
    if (slip) {
        body.insert(QStringLiteral("slip"),
                    QJsonObject{{QStringLiteral("content_type"), slip->contentType},
                                {QStringLiteral("data"), QString::fromLatin1(slip->data.toBase64())}});
    }
    return {m_api.post(listPath(), body), &FundRequest::fromJson};
}

TypedCall<FundRequest> FundRequestsApi::get(qint64 id) const
{
    return {m_api.get(requestPath(id)), &FundRequest::fromJson};
}

TypedCall<FundRequest> FundRequestsApi::approve(qint64 id) const
{
    return {m_api.post(requestPath(id) + QStringLiteral("/approve"), QJsonObject()), &FundRequest::fromJson};
}

TypedCall<FundRequest> FundRequestsApi::reject(qint64 id, const QString &reason) const
{
    return {m_api.post(requestPath(id) + QStringLiteral("/reject"), QJsonObject{{QStringLiteral("reason"), reason}}),
            &FundRequest::fromJson};
}

ApiCall *FundRequestsApi::slip(qint64 id) const
{
    return m_api.get(requestPath(id) + QStringLiteral("/slip"));
}

QString FundRequestsApi::listPath()
{
    return QStringLiteral("/api/v1/fund-requests");
}
