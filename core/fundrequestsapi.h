#pragma once

#include "answer.h"
#include "entities/collection.h"
#include "entities/fundrequest.h"

/// A slip photo to send with a fund request: its type ("image/png" or "image/jpeg") and its bytes (≤ 1 MiB).
struct FundRequestSlip
{
    QString contentType;
    QByteArray data;
};

/// Typed calls of the fund requests at the distributor (issue 30, /api/v1/fund-requests); owns their routes. A shop's
/// live key raises its own requests and reads them (newest first); the distributor's admin reads every shop's (oldest
/// first, the pending ones first) and approves or rejects them. Amounts in paise, sent as whole rupees.
class FundRequestsApi
{
public:
    explicit FundRequestsApi(ApiClient &api) : m_api(api) {}

    /// POST /api/v1/fund-requests (a shop's live key): asks the distributor to credit `amount` (paise, sent as whole
    /// rupees: ₹1 .. the wallet's top-up limit) paid by `method` (FundRequest::methods()) under `utr` (6–40 of A–Z a–z
    /// 0–9 / -), with `referenceId` as the idempotency key ("" = none; the same one again answers the first request,
    /// 200), `note` (≤ 200) and an optional slip photo (≤ 1 MiB PNG or JPEG); answers the request (201). 400
    /// `invalid_utr`, `invalid_slip`, `slip_too_large`…; 403 `not_a_shop` (the distributor's own key),
    /// `live_key_required`.
    TypedCall<FundRequest> create(Paise amount, const QString &method, const QString &utr, const QString &referenceId,
                                  const QString &note, const std::optional<FundRequestSlip> &slip = {}) const;
    /// GET /api/v1/fund-requests/{id}: one request (another shop's: 404 `fund_request_not_found`).
    TypedCall<FundRequest> get(qint64 id) const;
    /// POST /api/v1/fund-requests/{id}/approve (the distributor's live admin authority): credits the shop's live
    /// wallet once with the amount (a ledger row `topup` naming the request) and answers the approved request.
    /// 409 `fund_request_decided` when it was approved or rejected before (nothing changes).
    TypedCall<FundRequest> approve(qint64 id) const;
    /// POST /api/v1/fund-requests/{id}/reject: rejects a pending request with `reason` (1–200 characters, told to the
    /// shop); no money moves. 409 `fund_request_decided` as approve().
    TypedCall<FundRequest> reject(qint64 id, const QString &reason) const;
    /// GET /api/v1/fund-requests/{id}/slip: the slip photo's bytes (ApiResult::body) with its content type; 404 when
    /// the request has none. Not a JSON answer, hence the bare call.
    ApiCall *slip(qint64 id) const;
    /// The path of GET /api/v1/fund-requests (query items state=pending|approved|rejected, limit, cursor), for a
    /// collection model: for the distributor's admin every shop's requests, the pending first, then oldest first.
    static QString listPath();

private:
    ApiClient &m_api;
};
