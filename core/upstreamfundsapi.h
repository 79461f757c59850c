#pragma once

#include "answer.h"
#include "entities/collection.h"
#include "entities/upstreamfundrequest.h"
#include "entities/upstreamwallet.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

/// What a shop asks its distributor to credit (issue 30, "Fund requests"): the body of
/// POST /api/v1/upstreams/{name}/fund-requests. The amount is whole rupees (as /api/v1/wallet/topups takes it);
/// the slip is the photo's bytes as they are in the file (empty: no slip), sent base64.
struct FundRequestDraft
{
    qint64 rupees = 0; ///< 1..WalletService::kMaxTopup rupees (the server checks)
    QString method;    ///< "upi", "bank" or "cash_deposit" (FundRequest::methods())
    QString utr;       ///< the payment's UTR or reference, 6–40 of [A-Za-z0-9/-]
    QString note;      ///< optional, at most FundRequest::kMaxNote characters ("" = none)
    QByteArray slip;   ///< the slip photo's bytes (at most FundRequest::kMaxSlipBytes); empty: none
    QString slipType;  ///< "image/png" or "image/jpeg" when there is a slip

    /// {amount, method, utr, note?, slip? {content_type, data (base64)}}.
    QJsonObject toJson() const;
};

/// Typed calls of a shop's fund requests to its RechargeDesk upstream and of the shop's float as that upstream sees it
/// (issue 30, "The shop's side"; docs/api/openapi.yaml); owns their routes. `upstream` is the upstream's name among the
/// server's upstreams (`^[a-z0-9_-]{1,32}$`), percent-encoded here.
class UpstreamFundsApi
{
public:
    explicit UpstreamFundsApi(ApiClient &api) : m_api(api) {}

    /// POST /api/v1/upstreams/{name}/fund-requests (live admin authority): the server stores the request, sends it to
    /// the upstream under its own reference_id and answers 201 the local record: `pending` once the upstream took it,
    /// `refused` with the upstream's words when it answered 4xx, still `sending` when it did not answer in time (the
    /// server sends it again by itself). 400 naming the field (`amount`, `method`, `utr`, `note`, `slip`:
    /// `invalid_slip`, `slip_too_large`), 403 without live admin authority, 404 `upstream_not_found`, 409
    /// `not_offered` (a spec-only upstream).
    TypedCall<UpstreamFundRequest> request(const QString &upstream, const FundRequestDraft &draft) const;
    /// GET /api/v1/upstreams/{name}/fund-requests (admin): this shop's requests to that upstream, newest first.
    TypedCall<Collection<UpstreamFundRequest>> list(const QString &upstream) const;
    /// GET /api/v1/upstreams/{name}/wallet (any key; the server caches the upstream's answer 30 s): the upstream's
    /// figure for our live wallet beside ours, the difference (ours − theirs, paise) and what explains it. When the
    /// upstream could not be asked the answer is still 200, with `error` in words and no figure. 404
    /// `upstream_not_found`, 409 `not_offered` (an upstream that does not offer the balance).
    TypedCall<UpstreamWallet> wallet(const QString &upstream) const;

    /// The path of the requests of `upstream`, for a collection model: /api/v1/upstreams/{name}/fund-requests.
    static QString requestsPath(const QString &upstream);

private:
    ApiClient &m_api;
};
