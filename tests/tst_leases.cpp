// Issue 16, leases: several `rechargedesk serve` processes on one PostgreSQL database claim settlement timers and
// upstream calls so that each runs exactly once while all live, and a server killed with kill -9 has its claims
// taken over by another within the lease time. Real server processes (support/serverprocess.h, upstreamchain.h)
// over real HTTP. PostgreSQL only: CTest runs it as pg_leases through tests/tools/with_postgres.sh, which skips
// it (exit 77) when no PostgreSQL can be started.
#include "aadhaar/aadhaarmodule.h"
#include "httpclient.h"
#include "salesapitest.h"
#include "serverprocess.h"
#include "store/privatefiles.h"
#include "teststore.h"
#include "upstreamchain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

namespace {

const QString kLeaseSeconds = QStringLiteral("3"); ///< serve --lease-seconds of every server here
constexpr int kSettleDelayMs = 2000;               ///< sandbox PENDING -> final
/// How long a test waits for a dead server's work to be taken over: the lease (at most 7 s for an upstream call:
/// its 2 s time limit plus 5 s to write the answer) and the settle delay, with a wide margin for a loaded machine.
constexpr int kTakeOverMs = 30'000;
/// The request line of a mobile sale as the shop sends it to its upstream (the proxy counts them apart from the
/// shop's other requests, such as its read of the upstream's OpenAPI document).
const QByteArray kSaleRequest = "POST /api/v1/recharge/mobile/initiate-transaction";

QString statusOf(const QJsonObject &record)
{
    return record.value(QStringLiteral("transaction_status")).toString();
}

/// A second data directory for a server on `store`'s database: its own directory (serve locks one per process)
/// with the same vault key, so it unseals the upstream key the first server's `upstream set` sealed.
bool shareVault(const TestStore &store, const QString &dataDir, QString *error)
{
    QFile key(AadhaarModule::keyFilePath(store.path()));
    if (!key.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read ") + key.fileName();
        return false;
    }
    if (!QDir().mkpath(QFileInfo(AadhaarModule::keyFilePath(dataDir)).path())) {
        *error = QStringLiteral("cannot make the keys directory in ") + dataDir;
        return false;
    }
    return PrivateFiles::writeFile(AadhaarModule::keyFilePath(dataDir), key.readAll(), error);
}

} // namespace

class TestLeases final : public QObject
{
    Q_OBJECT

private:
    HttpClient m_http;

    /// Two sandbox servers on one fresh database, each with its own data directory.
    struct Pair
    {
        TestStore store;
        QTemporaryDir secondDir;
        ServerProcess first;
        ServerProcess second;
        QByteArray key; ///< test admin key of the shop (valid on both: one database)
    };

    static bool startPair(Pair &pair, QString *error)
    {
        pair.key = ServerProcess::createTestAdminKey(pair.store);
        const QStringList options{QStringLiteral("--settle-delay-ms"), QString::number(kSettleDelayMs),
                                  QStringLiteral("--lease-seconds"), kLeaseSeconds};
        return !pair.key.isEmpty() && pair.secondDir.isValid() && pair.first.start(pair.store, options, error) &&
               pair.second.start(pair.secondDir.path(),
                                 options + QStringList{QStringLiteral("--database"), pair.store.location()}, error);
    }

    /// A sandbox sale that answers PENDING and settles after kSettleDelayMs: SUCCESS for even `i`, FAILED for odd.
    qint64 sellPending(const ServerProcess &server, const QByteArray &key, int i)
    {
        const QString number = i % 2 == 0 ? QStringLiteral("9876541111") : QStringLiteral("9876542222");
        const HttpResult r =
            m_http.postJson(server.url().resolved(QUrl(kMobile)),
                            mobileBody(number, 249, QStringLiteral("AT"), QStringLiteral("lease-%1").arg(i)), key);
        if (r.status != 200 || statusOf(r.data()) != QLatin1String("PENDING")) {
            qWarning("sale %d: %d %s", i, r.status, r.body.constData());
            return 0;
        }
        return r.data().value(QStringLiteral("transaction_id")).toInteger();
    }

    /// `count` PENDING sales (sellPending(i)), each on the server `on(i)` picks; their ids (0: refused).
    QList<qint64> sellPendingSales(Pair &pair, int count, const std::function<ServerProcess &(int)> &on)
    {
        QList<qint64> ids;
        for (int i = 0; i < count; ++i)
            ids.append(sellPending(on(i), pair.key, i));
        return ids;
    }

    QString statusAt(const ServerProcess &server, const QByteArray &key, qint64 id)
    {
        return statusOf(
            m_http.get(server.url().resolved(QUrl(QStringLiteral("/api/v1/transactions/%1").arg(id))), key).data());
    }

    /// Every sale of `ids` (sold with sellPending(i) for its index i) ended as its number says, read on `server`.
    bool allSettled(const ServerProcess &server, const QByteArray &key, const QList<qint64> &ids)
    {
        for (int i = 0; i < ids.size(); ++i)
            if (statusAt(server, key, ids.at(i)) != (i % 2 == 0 ? QLatin1String("SUCCESS") : QLatin1String("FAILED")))
                return false;
        return true;
    }

    /// Each settlement ran once: no timer left, one webhook event per sale, FAILED sales refunded once, every
    /// wallet equal to its ledger.
    void expectSettledOnce(const TestStore &store, int sales)
    {
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM settlements")), 0);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM webhook_events")), sales);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(DISTINCT transaction_id) FROM webhook_events")), sales);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE kind = 'refund'")),
                 sales / 2); // the odd ones
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM transactions t WHERE t.status = 'FAILED' AND"
                                             " (SELECT COUNT(*) FROM wallet_ledger l WHERE l.transaction_id = t.id"
                                             " AND l.kind = 'refund') <> 1")),
                 0);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT"
                                             " COALESCE(SUM(amount), 0) FROM wallet_ledger l WHERE"
                                             " l.account_id = w.account_id AND l.mode = w.mode)")),
                 0);
    }

    /// A shop selling live through its distributor (UpstreamChain, shop "A") and a second shop server ("B") on
    /// the same database, both with leases of kLeaseSeconds.
    struct Shops
    {
        std::unique_ptr<UpstreamChain> chain;
        QTemporaryDir secondDir;
        ServerProcess second;
    };

    /// Starts the distributor, the proxy and shop A.
    static bool startChain(Shops &shops, QString *error)
    {
        UpstreamChain::Options options;
        options.shopArguments = {QStringLiteral("--lease-seconds"), kLeaseSeconds};
        shops.chain = std::make_unique<UpstreamChain>(options);
        return shops.chain->start(error);
    }

    static bool startSecondShop(Shops &shops, QString *error)
    {
        const UpstreamChain::Options options;
        return shops.secondDir.isValid() && shareVault(shops.chain->shopStore(), shops.secondDir.path(), error) &&
               shops.second.start(shops.secondDir.path(),
                                  {QStringLiteral("--database"), shops.chain->shopStore().location(),
                                   QStringLiteral("--upstream-timeout-ms"), QString::number(options.upstreamTimeoutMs),
                                   QStringLiteral("--upstream-retry-scale"), options.upstreamRetryScale,
                                   QStringLiteral("--lease-seconds"), kLeaseSeconds},
                                  error);
    }

private slots:
    void initTestCase()
    {
        if (!TestStore::postgres())
            QSKIP("PostgreSQL only: run as pg_leases (tests/tools/with_postgres.sh)");
    }

    /// (a) PENDING sandbox sales made on server A, A killed with kill -9 before they are due: server B, which
    /// started before them and never sold one, settles every one exactly once soon after it is due.
    void deadServersTimersAreSettledByAnother()
    {
        Pair pair;
        QString error;
        QVERIFY2(startPair(pair, &error), qPrintable(error));
        const QList<qint64> ids = sellPendingSales(pair, 6, [&pair](int) -> ServerProcess & { return pair.first; });
        QVERIFY(!ids.contains(0));
        pair.first.kill();
        QTRY_VERIFY_WITH_TIMEOUT(allSettled(pair.second, pair.key, ids), kTakeOverMs);
        expectSettledOnce(pair.store, int(ids.size()));
        QCOMPARE(pair.second.terminate(), 0);
    }

    /// (b) Both servers live, each selling half of the PENDING sales and both waking for every timer: each timer
    /// runs once (one webhook event per sale, one refund per FAILED sale).
    void twoLiveServersSettleEachTimerOnce()
    {
        Pair pair;
        QString error;
        QVERIFY2(startPair(pair, &error), qPrintable(error));
        const QList<qint64> ids = sellPendingSales(
            pair, 10, [&pair](int i) -> ServerProcess & { return i % 4 < 2 ? pair.first : pair.second; });
        QVERIFY(!ids.contains(0));
        QTRY_VERIFY_WITH_TIMEOUT(allSettled(pair.first, pair.key, ids), kTakeOverMs);
        expectSettledOnce(pair.store, int(ids.size()));
        QCOMPARE(pair.first.terminate(), 0);
        QCOMPARE(pair.second.terminate(), 0);
    }

    /// (c) Shop A dies (kill -9) while its call for a live sale is on the wire, holding the sale's lease: shop B
    /// sends the same request once, only after that lease is over, and the distributor holds one sale.
    void deadShopsUpstreamCallIsMadeOnceByAnother()
    {
        Shops shops;
        QString error;
        QVERIFY2(startChain(shops, &error) && startSecondShop(shops, &error), qPrintable(error));
        UpstreamChain &chain = *shops.chain;
        chain.proxy().setMode(FaultProxy::Mode::Slow, 300);
        QTimer killer;
        killer.setInterval(5);
        connect(&killer, &QTimer::timeout, this, [&chain, &killer] {
            if (chain.proxy().count(FaultProxy::Mode::Slow, kSaleRequest) >= 1) { // A's first call is at the proxy
                killer.stop();
                chain.killShop();
            }
        });
        killer.start();
        const HttpResult sale = chain.sell(kMobile, mobileBody(QStringLiteral("9876543210"), 249));
        QCOMPARE(sale.status, 0); // A died before it answered
        QVERIFY(!killer.isActive());
        chain.proxy().setMode(FaultProxy::Mode::Pass);
        chain.proxy().resetCounts();

        const TestStore &store = chain.shopStore();
        const qint64 id = store.scalar(QStringLiteral("SELECT transaction_id FROM upstream_sales"));
        const qint64 leaseUntil = store.scalar(QStringLiteral("SELECT lease_until FROM upstream_sales"));
        QVERIFY(id > 0);
        // A's lease, taken with the sale (its first call needs no write of its own).
        const qint64 heldByA = store.scalar(QStringLiteral("SELECT COUNT(*) FROM upstream_sales WHERE state = 'queued'"
                                                           " AND lease_owner LIKE '%") +
                                            QDir(store.path()).absolutePath() + QStringLiteral("'"));
        const auto statusAtB = [&] {
            return statusOf(
                m_http
                    .get(shops.second.url().resolved(QUrl(QStringLiteral("/api/v1/transactions/%1").arg(id))),
                         chain.shopLive())
                    .data());
        };
        QTRY_COMPARE_WITH_TIMEOUT(statusAtB(), QStringLiteral("SUCCESS"), kTakeOverMs);

        QCOMPARE(chain.proxy().count(FaultProxy::Mode::Pass, kSaleRequest), 1); // B sent it once
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM upstream_calls WHERE transaction_id = %1").arg(id)),
                 1);
        const qint64 sentAt =
            store.scalar(QStringLiteral("SELECT MIN(at) FROM upstream_calls WHERE transaction_id = %1").arg(id));
        QVERIFY2(sentAt >= leaseUntil,
                 qPrintable(QStringLiteral("sent at %1, lease until %2").arg(sentAt).arg(leaseUntil)));
        QCOMPARE(heldByA, 1);
        QCOMPARE(chain.distributorSales(chain.upstreamReference(id)).size(), 1);
        const QString problems = chain.ledgerProblems();
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QCOMPARE(shops.second.terminate(), 0);
    }

    /// (b) Both shops live while live sales wait on an upstream that is down (B starting meanwhile): once it is
    /// back, each sale is sent once, by one of them (one request per sale through the proxy, one answered call
    /// per sale in the log, one sale per reference_id at the distributor).
    void twoLiveShopsSendEachSaleOnce()
    {
        Shops shops;
        QString error;
        QVERIFY2(startChain(shops, &error), qPrintable(error));
        UpstreamChain &chain = *shops.chain;
        chain.proxy().setMode(FaultProxy::Mode::Down);
        QList<qint64> ids;
        for (int i = 0; i < 6; ++i) {
            const HttpResult r = chain.sell(kMobile, mobileBody(QStringLiteral("98765432%1").arg(10 + i), 249));
            QCOMPARE(r.status, 200);
            QCOMPARE(statusOf(r.data()), QStringLiteral("PENDING"));
            ids.append(r.data().value(QStringLiteral("transaction_id")).toInteger());
        }
        QVERIFY2(startSecondShop(shops, &error), qPrintable(error)); // while A retries them
        QTRY_VERIFY(chain.proxy().count(FaultProxy::Mode::Down) >= 2 * int(ids.size()));
        chain.proxy().setMode(FaultProxy::Mode::Pass);
        chain.proxy().resetCounts();

        const TestStore &store = chain.shopStore();
        QTRY_COMPARE_WITH_TIMEOUT(
            store.scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'SUCCESS'")),
            qint64(ids.size()), kTakeOverMs);
        QCOMPARE(chain.proxy().count(FaultProxy::Mode::Pass, kSaleRequest), int(ids.size()));
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM upstream_calls WHERE http_status = 200")),
                 qint64(ids.size()));
        for (const qint64 id : std::as_const(ids))
            QCOMPARE(chain.distributorSales(chain.upstreamReference(id)).size(), 1);
        const QString problems = chain.ledgerProblems();
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QCOMPARE(shops.second.terminate(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLeases)
#include "tst_leases.moc"
