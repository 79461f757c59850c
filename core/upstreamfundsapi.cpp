#include "upstreamfundsapi.h"

#include <QUrl>

namespace {

/// /api/v1/upstreams/{name} with the name percent-encoded.
QString upstreamPath(const QString &upstream)
{
    return QStringLiteral("/api/v1/upstreams/") + QString::fromLatin1(QUrl::toPercentEncoding(upstream));
}

} // namespace

QJsonObject FundRequestDraft::toJson() const
{
    QJsonObject body{
        {QStringLiteral("amount"), rupees}, {QStringLiteral("method"), method}, {QStringLiteral("utr"), utr}};
    if (!note.isEmpty())
        body.insert(QStringLiteral("note"), note);
    if (!slip.isEmpty())
        body.insert(QStringLiteral("slip"),
                    QJsonObject{{QStringLiteral("content_type"), slipType},
                                {QStringLiteral("data"), QString::fromLatin1(slip.toBase64())}});
    return body;
}

TypedCall<UpstreamFundRequest> UpstreamFundsApi::request(const QString &upstream, const FundRequestDraft &draft) const
{
    return {m_api.post(requestsPath(upstream), draft.toJson()), &UpstreamFundRequest::fromJson};
}

TypedCall<Collection<UpstreamFundRequest>> UpstreamFundsApi::list(const QString &upstream) const
{
    return {m_api.get(requestsPath(upstream)), &Collection<UpstreamFundRequest>::fromJson};
}

TypedCall<UpstreamWallet> UpstreamFundsApi::wallet(const QString &upstream) const
{
    return {m_api.get(upstreamPath(upstream) + QStringLiteral("/wallet")), &UpstreamWallet::fromJson};
}

QString UpstreamFundsApi::requestsPath(const QString &upstream)
{
    return upstreamPath(upstream) + QStringLiteral("/fund-requests");
}
