#include "upstreamfundrequestservice.h"

#include "apierror.h"
#include "clock.h"
#include "entities/fundrequest.h"
#include "fundrequestinput.h"
#include "store/database.h"
#include "store/walletrepository.h"
#include "users/auditlog.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcUpstreamFunds, "rechargedesk.fundrequests.upstream")

namespace {

QDateTime instant(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

} // namespace

UpstreamFundRequest UpstreamFundRequestService::present(const StoredUpstreamFundRequest &s)
{
    UpstreamFundRequest r;
    r.id = s.id;
    r.upstream = s.upstreamName;
    r.remoteId = s.remoteId;
    r.amount = s.amount;
    r.method = s.method;
    r.utr = s.utr;
    r.note = s.note;
    r.state = s.state;
    r.reason = s.reason;
    if (s.creditedAtMs > 0)
        r.creditedAt = instant(s.creditedAtMs);
    r.createdAt = instant(s.createdAtMs);
    return r;
}

StoredUpstreamFundRequest UpstreamFundRequestService::create(const AuthContext &caller, const QString &upstreamName,
                                                             const FundRequestInput &input, const QString &serverId,
                                                             qint64 firstCheckAtMs)
{
    const qint64 now = m_clock.nowMs();
    StoredUpstreamFundRequest r;
    r.accountId = caller.accountId;
    r.upstreamName = upstreamName;
    r.amount = input.amount;
    r.method = input.method;
    r.utr = input.utr;
    r.note = input.note;
    r.slipType = input.slipType;
    r.slip = input.slip;
    r.actor = caller.actor();
    r.nextCheckAtMs = firstCheckAtMs;
    r.createdAtMs = now;
    WriteTransaction transaction(m_db);
    UpstreamFundRequestRepository requests(m_db);
    r.id = requests.insert(r, serverId, now);
    m_audit.record(caller.accountId, caller.actor(), QStringLiteral("fund_request.send"),
                   QStringLiteral("fund request %1 to the upstream %2: %3 by %4, UTR %5")
                       .arg(r.id)
                       .arg(upstreamName, Money::format(r.amount), FundRequest::methodLabel(r.method), r.utr));
    transaction.commit();
    return *requests.find(r.id);
}

QList<UpstreamFundRequest> UpstreamFundRequestService::list(const AuthContext &caller, const QString &upstreamName,
                                                            int limit, qint64 beforeId)
{
    QList<UpstreamFundRequest> page;
    for (const StoredUpstreamFundRequest &r :
         UpstreamFundRequestRepository(m_db).list(caller.accountId, upstreamName, limit, beforeId))
        page.append(present(r));
    return page;
}

std::optional<StoredUpstreamFundRequest> UpstreamFundRequestService::find(qint64 id)
{
    return UpstreamFundRequestRepository(m_db).find(id);
}

bool UpstreamFundRequestService::takeAnswer(const StoredUpstreamFundRequest &r, const QJsonObject &remote,
                                            qint64 nextPollAtMs)
{
    const QString state = remote.value(QStringLiteral("state")).toString();
    const qint64 remoteId = remote.value(QStringLiteral("id")).toInteger();
    const qint64 now = m_clock.nowMs();
    WriteTransaction transaction(m_db);
    UpstreamFundRequestRepository requests(m_db);
    bool ended = false;
    if (state == QLatin1String("approved")) {
        ended = credit(r, remoteId, now);
    } else {
        StoredUpstreamFundRequest next = r;
        next.remoteId = remoteId > 0 ? remoteId : r.remoteId;
        if (state == QLatin1String("rejected")) {
            next.state = QStringLiteral("rejected");
            next.reason = remote.value(QStringLiteral("reason")).toString().trimmed().left(FundRequest::kMaxReason);
            next.nextCheckAtMs = 0;
        } else {
            next.state = QStringLiteral("pending");
            next.reason.clear();
            next.nextCheckAtMs = nextPollAtMs;
        }
        ended = requests.updateWaiting(next, now) && next.state == QLatin1String("rejected");
        if (ended)
            m_audit.record(r.accountId, QStringLiteral("upstream:") + r.upstreamName,
                           QStringLiteral("fund_request.rejected"),
                           QStringLiteral("fund request %1 rejected by the upstream %2: %3")
                               .arg(r.id)
                               .arg(r.upstreamName, next.reason));
    }
    transaction.commit();
    if (ended) {
        qCInfo(lcUpstreamFunds, "fund request %lld: %s by the upstream %s", r.id, qPrintable(state),
               qPrintable(r.upstreamName));
        if (m_onEnded)
            m_onEnded(r.upstreamName);
    }
    return ended;
}

bool UpstreamFundRequestService::credit(const StoredUpstreamFundRequest &r, qint64 remoteId, qint64 nowMs)
{
    UpstreamFundRequestRepository requests(m_db);
    // The guard against crediting twice: the webhook, a poll and the send's answer may all say approved.
    if (!requests.markCredited(r.id, remoteId > 0 ? remoteId : r.remoteId, nowMs))
        return false;
    const QString upstreamActor = QStringLiteral("upstream:") + r.upstreamName;
    WalletRepository wallets(m_db);
    wallets.ensureWallet(r.accountId, Mode::Live);
    wallets.lock(r.accountId, Mode::Live);
    wallets.post(r.accountId, Mode::Live, r.amount, LedgerKind::Topup, 0,
                 QStringLiteral("fund request %1 approved by %2").arg(r.id).arg(r.upstreamName), upstreamActor, nowMs);
    requests.setLedgerToNewest(r.id, r.accountId);
    m_audit.record(r.accountId, upstreamActor, QStringLiteral("fund_request.approved"),
                   QStringLiteral("fund request %1 approved by the upstream %2: live wallet +%3")
                       .arg(r.id)
                       .arg(r.upstreamName, Money::format(r.amount)));
    return true;
}

bool UpstreamFundRequestService::recordStep(const StoredUpstreamFundRequest &r)
{
    WriteTransaction transaction(m_db);
    const bool written = UpstreamFundRequestRepository(m_db).updateWaiting(r, m_clock.nowMs());
    transaction.commit();
    return written;
}

UpstreamWebhookReceiver::Result UpstreamFundRequestService::fromUpstreamWebhook(const QString &upstreamName,
                                                                                const QJsonObject &payload)
{
    const qint64 remoteId = payload.value(QStringLiteral("id")).toInteger();
    if (payload.value(QStringLiteral("entity")).toString() != QLatin1String("fund_request") || remoteId <= 0 ||
        !FundRequest::states().contains(payload.value(QStringLiteral("state")).toString()))
        throw ApiError::badRequest(QStringLiteral("data.payload"), QStringLiteral("not_a_fund_request"),
                                   QStringLiteral("data.payload of an event.fund_request is not a fund request"));
    UpstreamFundRequestRepository requests(m_db);
    std::optional<StoredUpstreamFundRequest> r = requests.findByRemote(upstreamName, remoteId);
    if (!r) {
        // Its event may come before the answer to our send was written: the reference_id is ours (fr-…).
        const QString reference = payload.value(QStringLiteral("reference_id")).toString();
        if (!reference.isEmpty())
            r = requests.findByReference(reference);
        if (r && (r->upstreamName != upstreamName || (r->remoteId > 0 && r->remoteId != remoteId)))
            r.reset();
    }
    if (!r)
        throw ApiError::notFound(QStringLiteral("unknown_upstream_fund_request"),
                                 QStringLiteral("no fund request of this server was sent to the upstream %1 as its "
                                                "fund request %2")
                                     .arg(upstreamName)
                                     .arg(remoteId));
    if (r->isFinal())
        return UpstreamWebhookReceiver::Result::Unchanged;
    return takeAnswer(*r, payload, r->nextCheckAtMs) ? UpstreamWebhookReceiver::Result::Settled
                                                     : UpstreamWebhookReceiver::Result::Unchanged;
}
