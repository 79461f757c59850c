#pragma once

#include "entities/upstreamwallet.h"
#include "upstream/upstreamclient.h"

#include <QHash>
#include <QJsonArray>
#include <QPair>
#include <QString>

#include <functional>

class Clock;
class Database;
class UpstreamDispatcher;

/// The shop's float at its RechargeDesk upstream beside its own live wallet (issue 30, "The shop's float and the
/// distributor's books agree"; GET /api/v1/upstreams/{name}/wallet). Asks the upstream — with this server's key — for
/// GET {base_url}/wallet (its figure for us, live) and GET {base_url}/fund-requests?state=approved (what it credited),
/// and explains the difference local − upstream with what this server knows, each kind's amount signed in that sense:
/// - `unknown_at_upstream`: live sales debited here whose send has no answer yet (upstream_sales queued, sent,
///   unknown): −their paid, as the upstream may never have debited them;
/// - `pending`: live sales PENDING on both sides: ₹0 (both debited), listed because their end may still move one;
/// - `mismatch`: sales FAILED (refunded) here that the upstream reported SUCCESS: +their paid;
/// - `fund_request_not_credited`: fund requests approved (credited) at the upstream and not credited here: −their
///   amount (transaction_ids are the upstream's fund request ids).
/// What is left is `unexplained` (a top-up recorded on one side only, different margins…). The answer is kept 30 s
/// per upstream and account (kCacheMs), until a fund request there ends (forget()). Never throws into `done`.
class UpstreamWalletCheck
{
public:
    static constexpr qint64 kCacheMs = 30'000;
    /// Most approved fund requests read from the upstream per check.
    static constexpr int kApprovedRead = 200;

    UpstreamWalletCheck(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher, int timeoutMs);

    /// The comparison for the caller's account `accountId` with the upstream `upstreamName`; `done` runs exactly
    /// once on this thread (at once from the cache). Throws ApiError 404 `unknown_upstream` when there is no such
    /// upstream, 409 `not_offered` when it does not offer the balance; a call that fails is an answer with `error`.
    void check(qint64 accountId, const QString &upstreamName, std::function<void(const UpstreamWallet &)> done);
    /// Drops the kept answers about `upstreamName` (a fund request there ended: both figures moved).
    void forget(const QString &upstreamName);

private:
    /// What the two calls brought back.
    struct Asked
    {
        std::optional<Paise> balance;
        QString error;
        QJsonArray approved; ///< the upstream's approved fund_request entities (empty when unreadable)
        int pending = 2;     ///< calls not answered yet
    };
    /// The comparison once both calls answered.
    UpstreamWallet explain(qint64 accountId, const QString &upstreamName, const Asked &asked);

    Database &m_db;
    const Clock &m_clock;
    UpstreamDispatcher &m_dispatcher;
    UpstreamClient m_client;
    QHash<QPair<QString, qint64>, UpstreamWallet> m_cache; ///< by upstream name and account
};
