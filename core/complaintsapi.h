#pragma once

#include "answer.h"
#include "entities/collection.h"
#include "entities/complaint.h"

/// Typed calls of the complaints (issue 29, /api/v1/complaints and POST /api/v1/transactions/{id}/complaints); owns
/// their routes. Any key of the account raises and reads complaints of its mode; resolving needs admin authority
/// (live admin authority for a live sale's complaint).
class ComplaintsApi
{
public:
    explicit ComplaintsApi(ApiClient &api) : m_api(api) {}

    /// POST /api/v1/transactions/{id}/complaints: raises a complaint about the caller's SUCCESS or PENDING sale
    /// `transactionId` with `reason` (one of Complaint::reasons()) and `note` (at most 300 characters; required for
    /// "other"); answers it (201). 400 `invalid_reason`, `note_required`, `invalid_note`; 404 `transaction_not_found`;
    /// 409 `not_complainable` (a FAILED sale), `complaint_open` (the sale has an unresolved one).
    TypedCall<Complaint> raise(qint64 transactionId, const QString &reason, const QString &note) const;
    /// GET /api/v1/complaints/{id}.
    TypedCall<Complaint> get(qint64 id) const;
    /// GET /api/v1/complaints?transaction_id=: the complaints of one sale, the unresolved one first, then newest.
    TypedCall<Collection<Complaint>> ofSale(qint64 transactionId) const;
    /// POST /api/v1/complaints/{id}/resolve: ends an unresolved complaint as `outcome` "credited" (the sale is
    /// reversed: FAILED, refunded once) or "rejected" (`words` required), with the operator's reference ("" = none);
    /// answers the resolved complaint. 403 without admin authority; 409 `complaint_resolved`.
    TypedCall<Complaint> resolve(qint64 id, const QString &outcome, const QString &words,
                                 const QString &operatorReference) const;
    /// The path of GET /api/v1/complaints (query items state=open|with_upstream|credited|rejected|unresolved,
    /// transaction_id, limit, cursor), for a collection model: the unresolved first, then the newest.
    static QString listPath();

private:
    ApiClient &m_api;
};
