#include "fundrequestservice.h"

#include "apierror.h"
#include "clock.h"
#include "fundrequestinput.h"
#include "store/database.h"
#include "store/walletrepository.h"
#include "users/auditlog.h"
#include "validators.h"
#include "webhooks/webhookoutbox.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcFundRequests, "rechargedesk.fundrequests")

namespace {

QDateTime instant(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

ApiError notFound(qint64 id)
{
    return ApiError::notFound(QStringLiteral("fund_request_not_found"),
                              QStringLiteral("no fund request %1 for this account").arg(id));
}

} // namespace

FundRequest FundRequestService::present(const StoredFundRequest &s)
{
    FundRequest r;
    r.id = s.id;
    r.shopId = s.accountId;
    r.shopName = s.shopName;
    r.amount = s.amount;
    r.method = s.method;
    r.utr = s.utr;
    r.referenceId = s.referenceId;
    r.note = s.note;
    r.hasSlip = !s.slipType.isEmpty();
    r.state = s.state;
    r.reason = s.reason;
    r.decidedBy = s.decidedBy;
    if (s.decidedAtMs > 0)
        r.decidedAt = instant(s.decidedAtMs);
    r.createdAt = instant(s.createdAtMs);
    r.duplicateUtr = s.duplicateUtr;
    return r;
}

FundRequestService::Submitted FundRequestService::submit(const AuthContext &caller, const FundRequestInput &input)
{
    FundRequestRepository requests(m_db);
    if (!requests.isShop(caller.accountId))
        throw ApiError::forbidden(QStringLiteral("not_a_shop"),
                                  QStringLiteral("fund requests are sent by a shop to its distributor: this is the "
                                                 "distributor's own account"));
    if (caller.mode != Mode::Live)
        throw ApiError::forbidden(QStringLiteral("live_key_required"),
                                  QStringLiteral("a fund request credits the live wallet: send it with a live key"));
    const auto earlier = [&]() -> std::optional<Submitted> {
        if (input.referenceId.isEmpty())
            return std::nullopt;
        const std::optional<StoredFundRequest> first = requests.findByReference(caller.accountId, input.referenceId);
        if (!first)
            return std::nullopt;
        if (!input.sameAs(first->amount, first->method, first->utr, first->note))
            throw ApiError::conflict(QStringLiteral("reference_id_reused"),
                                     QStringLiteral("reference_id %1 was sent with another fund request (%2)")
                                         .arg(input.referenceId)
                                         .arg(first->id),
                                     QStringLiteral("reference_id"));
        return Submitted{present(*first), false};
    };
    if (const std::optional<Submitted> first = earlier())
        return *first;
    const qint64 now = m_clock.nowMs();
    StoredFundRequest r;
    r.accountId = caller.accountId;
    r.amount = input.amount;
    r.method = input.method;
    r.utr = input.utr;
    r.referenceId = input.referenceId;
    r.note = input.note;
    r.slipType = input.slipType;
    r.createdAtMs = now;
    try {
        WriteTransaction transaction(m_db);
        r.id = requests.insert(r, input.slip);
        m_audit.record(caller.accountId, caller.actor(), QStringLiteral("fund_request.submit"),
                       QStringLiteral("fund request %1: %2 by %3, UTR %4%5")
                           .arg(r.id)
                           .arg(Money::format(r.amount), FundRequest::methodLabel(r.method), r.utr,
                                r.slipType.isEmpty() ? QString() : QStringLiteral(" (with a slip)")));
        enqueueWebhook(r.id);
        transaction.commit();
    } catch (const DatabaseError &error) {
        // The same reference_id sent twice at once: the unique index kept one; answer it.
        if (!error.isUniqueViolation())
            throw;
        if (const std::optional<Submitted> first = earlier())
            return *first;
        throw;
    }
    m_outbox.wake();
    qCInfo(lcFundRequests, "fund request %lld of account %lld: %s", r.id, r.accountId,
           qPrintable(Money::format(r.amount)));
    return Submitted{get(caller, r.id), true};
}

QList<FundRequest> FundRequestService::list(const AuthContext &caller, FundRequestFilter filter)
{
    FundRequestRepository requests(m_db);
    // Every shop's for the distributor's admins; anyone else sees its own account's (none for the distributor's).
    filter.accountId = !requests.isShop(caller.accountId) && caller.hasAdminAuthority() ? 0 : caller.accountId;
    QList<FundRequest> page;
    for (const StoredFundRequest &stored : requests.list(filter))
        page.append(present(stored));
    return page;
}

FundRequest FundRequestService::get(const AuthContext &caller, qint64 id)
{
    FundRequestRepository requests(m_db);
    const std::optional<StoredFundRequest> r = requests.find(id);
    if (!r)
        throw notFound(id);
    if (r->accountId != caller.accountId) {
        // Another account's: only the distributor's admins see it; to a shop it does not exist.
        if (requests.isShop(caller.accountId) || !caller.hasAdminAuthority())
            throw notFound(id);
    }
    return present(*r);
}

std::pair<QString, QByteArray> FundRequestService::slip(const AuthContext &caller, qint64 id)
{
    const FundRequest r = get(caller, id);
    const QByteArray bytes = r.hasSlip ? FundRequestRepository(m_db).slip(id) : QByteArray();
    if (bytes.isEmpty())
        throw ApiError::notFound(QStringLiteral("slip_not_found"),
                                 QStringLiteral("fund request %1 has no slip").arg(id));
    return {FundRequest::slipTypeOf(bytes), bytes};
}

void FundRequestService::requireDistributor(const AuthContext &caller, FundRequestRepository &requests)
{
    if (requests.isShop(caller.accountId))
        throw ApiError::forbidden(QStringLiteral("distributor_only"),
                                  QStringLiteral("only the distributor's admins decide fund requests"));
}

FundRequest FundRequestService::approve(const AuthContext &caller, qint64 id)
{
    return decide(caller, id, QStringLiteral("approved"), QString());
}

FundRequest FundRequestService::reject(const AuthContext &caller, qint64 id, const QString &reason)
{
    const QString words = reason.trimmed();
    if (words.isEmpty() || words.size() > FundRequest::kMaxReason || !Validators::isPlainText(words))
        throw ApiError::badRequest(
            QStringLiteral("reason"), QStringLiteral("invalid_reason"),
            QStringLiteral("reason must be 1 to %1 characters on one line").arg(FundRequest::kMaxReason));
    return decide(caller, id, QStringLiteral("rejected"), words);
}

FundRequest FundRequestService::decide(const AuthContext &caller, qint64 id, const QString &state,
                                       const QString &reason)
{
    FundRequestRepository requests(m_db);
    requireDistributor(caller, requests);
    const qint64 now = m_clock.nowMs();
    {
        WriteTransaction transaction(m_db);
        const std::optional<StoredFundRequest> r = requests.find(id);
        if (!r)
            throw notFound(id);
        // The conditional UPDATE first: of two approvals at once, one finds it decided and credits nothing.
        if (!requests.decide(id, state, reason, caller.actor(), now))
            throw ApiError::conflict(QStringLiteral("fund_request_decided"),
                                     QStringLiteral("fund request %1 is already %2").arg(id).arg(r->state));
        const bool approved = state == QLatin1String("approved");
        if (approved) {
            WalletRepository wallets(m_db);
            wallets.ensureWallet(r->accountId, Mode::Live);
            wallets.lock(r->accountId, Mode::Live);
            wallets.post(
                r->accountId, Mode::Live, r->amount, LedgerKind::Topup, 0,
                QStringLiteral("fund request %1 · %2 UTR %3").arg(id).arg(FundRequest::methodLabel(r->method), r->utr),
                caller.actor(), now);
            requests.setLedgerId(id, requests.lastLiveLedgerId(r->accountId));
        }
        m_audit.record(caller.accountId, caller.actor(),
                       approved ? QStringLiteral("fund_request.approve") : QStringLiteral("fund_request.reject"),
                       QStringLiteral("fund request %1 of %2 (%3, %4 UTR %5) %6")
                           .arg(id)
                           .arg(r->shopName, Money::format(r->amount), FundRequest::methodLabel(r->method), r->utr,
                                approved ? QStringLiteral("approved: the shop's live wallet credited")
                                         : QStringLiteral("rejected: ") + reason));
        enqueueWebhook(id);
        transaction.commit();
    }
    m_outbox.wake();
    qCInfo(lcFundRequests, "fund request %lld %s by %s", id, qPrintable(state), qPrintable(caller.actor()));
    return present(*requests.find(id));
}

void FundRequestService::enqueueWebhook(qint64 id)
{
    const std::optional<StoredFundRequest> r = FundRequestRepository(m_db).find(id);
    if (r)
        m_outbox.enqueueEvent(r->accountId, Mode::Live, WebhookOutbox::fundRequestEventType(), 0, present(*r).toJson());
}
