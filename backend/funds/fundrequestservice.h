#pragma once

#include "auth/authcontext.h"
#include "entities/fundrequest.h"
#include "fundrequestrepository.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

class AuditLog;
class Clock;
class Database;
class WebhookOutbox;
struct FundRequestInput;

/// Fund requests at the distributor (issue 30, "Fund requests"): a shop (an account with a `shops` row) asks with its
/// live key to be credited for money it paid the distributor; the distributor's live admin approves (the shop's live
/// wallet credited once, in the same db transaction as the decision: ledger kind topup, note "fund request 12 · UPI
/// UTR ABC123") or rejects it with a reason. A shop sees only its own; the distributor's admins see every shop's.
/// Every change is audited and sent to the shop's live webhook endpoint as `event.fund_request` with the request as
/// payload (outbox, in the same transaction). Times from the Clock, money in paise. Every call throws ApiError as
/// documented and DatabaseError.
class FundRequestService
{
public:
    FundRequestService(Database &db, const Clock &clock, AuditLog &audit, WebhookOutbox &outbox)
        : m_db(db), m_clock(clock), m_audit(audit), m_outbox(outbox)
    {}

    /// What submit() did: the request, and whether it was made now (201) or is the one sent earlier with the same
    /// reference_id (200).
    struct Submitted
    {
        FundRequest request;
        bool created = false;
    };

    /// A shop's request (`input` already checked by FundRequestInput). 403 `not_a_shop` for the distributor's own
    /// account, `live_key_required` for a test key; 409 `reference_id_reused` when the shop's reference_id was sent
    /// before with another amount, method, UTR or note. Nothing is written unless every check passes.
    Submitted submit(const AuthContext &caller, const FundRequestInput &input);
    /// One page of the caller's view (`filter.accountId` is set here): a shop's own, newest first; the distributor's
    /// admins every shop's, pending first then oldest first; the distributor's other callers their own account's
    /// (none: the distributor sends no fund requests).
    QList<FundRequest> list(const AuthContext &caller, FundRequestFilter filter);
    /// Request `id` as the caller may see it; 404 `fund_request_not_found` (another shop's too).
    FundRequest get(const AuthContext &caller, qint64 id);
    /// The slip of request `id` (content type and bytes); 404 `fund_request_not_found`, `slip_not_found`.
    std::pair<QString, QByteArray> slip(const AuthContext &caller, qint64 id);
    /// Approves a pending request: the shop's live wallet credited with its amount once. 403 `distributor_only` for
    /// a shop's caller; 404; 409 `fund_request_decided` when it was approved or rejected already (nothing changes).
    FundRequest approve(const AuthContext &caller, qint64 id);
    /// Rejects a pending request with `reason` (1–200 characters, one line: 400 `invalid_reason`). 403, 404 and 409 as
    /// approve().
    FundRequest reject(const AuthContext &caller, qint64 id, const QString &reason);

    /// The API's entity of a stored request.
    static FundRequest present(const StoredFundRequest &stored);

private:
    /// 403 `distributor_only` unless the caller's account is the distributor's (not a shop).
    void requireDistributor(const AuthContext &caller, FundRequestRepository &requests);
    /// Decides request `id` (inside one transaction with the credit when approving), audits it and queues its webhook.
    FundRequest decide(const AuthContext &caller, qint64 id, const QString &state, const QString &reason);
    /// Inside the open transaction: the request as it now stands into the outbox (event.fund_request).
    void enqueueWebhook(qint64 id);

    Database &m_db;
    const Clock &m_clock;
    AuditLog &m_audit;
    WebhookOutbox &m_outbox;
};
