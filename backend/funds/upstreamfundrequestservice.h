#pragma once

#include "auth/authcontext.h"
#include "entities/upstreamfundrequest.h"
#include "upstream/upstreamwebhookreceiver.h"
#include "upstreamfundrequestrepository.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

class AuditLog;
class Clock;
class Database;
struct FundRequestInput;

/// The shop's side of fund requests (issue 30, "Fund requests"): this server's account asks its RechargeDesk
/// upstream (the distributor) for a top-up. The request is stored first (state `sending`, reference_id
/// fr-<server id>-<id>), sent (UpstreamFundRequestFollowUp), and follows the upstream's answers — the answer to the
/// send, polls, and its `event.fund_request` webhooks — to `approved` (the account's live wallet credited with the
/// amount exactly once, in the same db transaction that marks it credited: ledger kind topup, note "fund request 12
/// approved by <upstream>") or `rejected` (the distributor's reason, no money); `refused` when the upstream refused
/// the request itself (a 4xx, its words kept). Times from the Clock, money in paise. Throws ApiError as documented and
/// DatabaseError.
class UpstreamFundRequestService
{
public:
    UpstreamFundRequestService(Database &db, const Clock &clock, AuditLog &audit)
        : m_db(db), m_clock(clock), m_audit(audit)
    {}

    /// Stores the caller's new request to the upstream `upstreamName` (state sending; its first send is due at
    /// `firstCheckAtMs`, UTC ms) with an audit entry; returns it. `serverId` makes its reference_id.
    StoredUpstreamFundRequest create(const AuthContext &caller, const QString &upstreamName,
                                     const FundRequestInput &input, const QString &serverId, qint64 firstCheckAtMs);
    /// The caller account's requests to `upstreamName`, newest first (at most `limit`, id < `beforeId` when > 0).
    QList<UpstreamFundRequest> list(const AuthContext &caller, const QString &upstreamName, int limit, qint64 beforeId);
    /// The request `id` as it stands now (nullopt when there is none).
    std::optional<StoredUpstreamFundRequest> find(qint64 id);

    /// The upstream's fund_request entity for `request` (the answer to a send or a poll, or a webhook's payload):
    /// pending is recorded with the upstream's id and the next poll at `nextPollAtMs`; rejected with its reason;
    /// approved credits the account's live wallet once. True when the request ended now (approved or rejected).
    bool takeAnswer(const StoredUpstreamFundRequest &request, const QJsonObject &remote, qint64 nextPollAtMs);
    /// Writes a step that decides nothing (state sending/pending/refused, reason, next check, attempts). False when
    /// the request was final meanwhile.
    bool recordStep(const StoredUpstreamFundRequest &request);
    /// An authenticated `event.fund_request` webhook of the upstream `upstreamName` with `payload` (the upstream's
    /// fund_request): matched by its id, else by its reference_id (ours), then takeAnswer(). 400 `not_a_fund_request`
    /// when the payload is not one; 404 `unknown_upstream_fund_request` when it matches no request sent there.
    UpstreamWebhookReceiver::Result fromUpstreamWebhook(const QString &upstreamName, const QJsonObject &payload);

    /// The API's entity of a stored request.
    static UpstreamFundRequest present(const StoredUpstreamFundRequest &stored);
    /// Runs `onEnded` with the upstream's name after a request to it ended (approved and credited, or rejected),
    /// once its transaction committed: what was known of the float there is stale (UpstreamWalletCheck::forget).
    void setOnEnded(std::function<void(const QString &upstreamName)> onEnded) { m_onEnded = std::move(onEnded); }

private:
    /// Inside the open transaction: marks `request` approved and credits its account's live wallet, once. False
    /// when it was credited already.
    bool credit(const StoredUpstreamFundRequest &request, qint64 remoteId, qint64 nowMs);

    Database &m_db;
    const Clock &m_clock;
    AuditLog &m_audit;
    std::function<void(const QString &)> m_onEnded;
};
