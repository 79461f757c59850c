#include "upstreamwalletcheck.h"

#include "apierror.h"
#include "clock.h"
#include "entities/walletbalance.h"
#include "store/database.h"
#include "store/walletrepository.h"
#include "upstream/upstreamdispatcher.h"
#include "upstreamfundrequestrepository.h"

#include <QJsonDocument>
#include <QLoggingCategory>

#include <memory>

Q_LOGGING_CATEGORY(lcUpstreamWallet, "rechargedesk.fundrequests.wallet")

namespace {

/// One kind of explanation from `sales` (id, paid), each counted with `sign` × paid.
UpstreamWallet::Explanation explanationOf(const QString &kind, const QList<std::pair<qint64, Paise>> &sales, int sign)
{
    UpstreamWallet::Explanation e;
    e.kind = kind;
    for (const auto &[id, paid] : sales) {
        e.count += 1;
        e.amount += sign * paid;
        if (e.transactionIds.size() < UpstreamWallet::kMaxTransactionIds)
            e.transactionIds.append(id);
    }
    return e;
}

} // namespace

UpstreamWalletCheck::UpstreamWalletCheck(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher,
                                         int timeoutMs)
    : m_db(db), m_clock(clock), m_dispatcher(dispatcher), m_client(clock, timeoutMs)
{}

void UpstreamWalletCheck::check(qint64 accountId, const QString &upstreamName,
                                std::function<void(const UpstreamWallet &)> done)
{
    const std::optional<UpstreamSettings> upstream = m_dispatcher.upstream(upstreamName);
    if (!upstream)
        throw ApiError::notFound(QStringLiteral("unknown_upstream"),
                                 QStringLiteral("no upstream %1").arg(upstreamName));
    if (!upstream->offers.balance)
        throw ApiError::conflict(QStringLiteral("not_offered"),
                                 QStringLiteral("the upstream %1 does not answer the shop's balance (a spec-only "
                                                "aggregator, or its offers were not read yet)")
                                     .arg(upstreamName));
    const auto key = qMakePair(upstreamName, accountId);
    const auto cached = m_cache.constFind(key);
    if (cached != m_cache.constEnd() && cached->checkedAt.toMSecsSinceEpoch() + kCacheMs > m_clock.nowMs()) {
        done(*cached);
        return;
    }
    auto asked = std::make_shared<Asked>();
    const auto finish = [this, asked, accountId, upstreamName, key, done] {
        if (--asked->pending > 0)
            return;
        UpstreamWallet wallet;
        try {
            wallet = explain(accountId, upstreamName, *asked);
            m_cache.insert(key, wallet);
        } catch (const std::exception &e) {
            qCWarning(lcUpstreamWallet, "cannot compare the wallet with the upstream %s: %s", qPrintable(upstreamName),
                      e.what());
            wallet.upstream = upstreamName;
            wallet.checkedAt = QDateTime::fromMSecsSinceEpoch(m_clock.nowMs(), Qt::UTC);
            wallet.error = QStringLiteral("this server could not read its own books");
        }
        done(wallet);
    };
    m_client.call(*upstream, "GET", QStringLiteral("/wallet"), {}, [asked, finish](const UpstreamAnswer &answer) {
        QString why;
        const std::optional<WalletBalance> balance =
            answer.httpStatus == 200
                ? WalletBalance::fromJson(
                      QJsonDocument::fromJson(answer.body).object().value(QStringLiteral("data")).toObject(), &why)
                : std::nullopt;
        if (balance && balance->mode == QLatin1String("live"))
            asked->balance = balance->balance;
        else if (answer.httpStatus != 200)
            asked->error = QStringLiteral("the upstream did not answer its balance: ") + answer.inWords();
        else
            asked->error =
                QStringLiteral("the upstream's balance was unreadable%1")
                    .arg(why.isEmpty() ? QStringLiteral(" (not the live wallet)") : QStringLiteral(": ") + why);
        finish();
    });
    m_client.call(*upstream, "GET", QStringLiteral("/fund-requests?state=approved&limit=%1").arg(kApprovedRead), {},
                  [asked, finish](const UpstreamAnswer &answer) {
                      if (answer.httpStatus == 200)
                          asked->approved = QJsonDocument::fromJson(answer.body)
                                                .object()
                                                .value(QStringLiteral("data"))
                                                .toObject()
                                                .value(QStringLiteral("items"))
                                                .toArray();
                      finish();
                  });
}

void UpstreamWalletCheck::forget(const QString &upstreamName)
{
    for (auto it = m_cache.begin(); it != m_cache.end();)
        it = it.key().first == upstreamName ? m_cache.erase(it) : std::next(it);
}

UpstreamWallet UpstreamWalletCheck::explain(qint64 accountId, const QString &upstreamName, const Asked &asked)
{
    UpstreamWallet w;
    w.upstream = upstreamName;
    w.checkedAt = QDateTime::fromMSecsSinceEpoch(m_clock.nowMs(), Qt::UTC);
    w.error = asked.error;
    w.localBalance = WalletRepository(m_db).balance(accountId, Mode::Live);
    UpstreamFundRequestRepository requests(m_db);
    const auto sales = [&](const char *condition) {
        return requests.liveSales(accountId, upstreamName, QLatin1String(condition));
    };
    const QList<UpstreamWallet::Explanation> kinds{
        explanationOf(QStringLiteral("unknown_at_upstream"),
                      sales("u.state IN ('queued', 'sent', 'unknown') AND t.status = 'PENDING'"), -1),
        explanationOf(QStringLiteral("pending"), sales("u.state = 'pending' AND t.status = 'PENDING'"), 0),
        explanationOf(QStringLiteral("mismatch"), sales("u.mismatch_reported = 'SUCCESS' AND t.status = 'FAILED'"), 1)};
    for (const UpstreamWallet::Explanation &e : kinds) {
        if (e.count > 0)
            w.explained.append(e);
    }
    UpstreamWallet::Explanation notCredited;
    notCredited.kind = QStringLiteral("fund_request_not_credited");
    for (const QJsonValue &item : asked.approved) {
        const QJsonObject remote = item.toObject();
        if (remote.value(QStringLiteral("state")).toString() != QLatin1String("approved"))
            continue;
        const QString reference = remote.value(QStringLiteral("reference_id")).toString();
        const std::optional<StoredUpstreamFundRequest> local =
            reference.isEmpty() ? std::nullopt : requests.findByReference(reference);
        if (local && local->creditedAtMs > 0)
            continue;
        const std::optional<Paise> amount = Money::parse(remote.value(QStringLiteral("amount")).toString());
        if (!amount)
            continue;
        notCredited.count += 1;
        notCredited.amount -= *amount;
        if (notCredited.transactionIds.size() < UpstreamWallet::kMaxTransactionIds)
            notCredited.transactionIds.append(remote.value(QStringLiteral("id")).toInteger());
    }
    if (notCredited.count > 0)
        w.explained.append(notCredited);
    if (asked.balance) {
        w.balance = asked.balance;
        w.difference = w.localBalance - *asked.balance;
        Paise explained = 0;
        for (const UpstreamWallet::Explanation &e : std::as_const(w.explained))
            explained += e.amount;
        w.unexplained = *w.difference - explained;
    }
    return w;
}
