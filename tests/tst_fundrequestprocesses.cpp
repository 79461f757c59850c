// Issue 30, "Tests": fund requests through three real `rechargedesk serve` processes — a distributor and two shop
// servers chained to it, each with its own store and its own live key at the distributor (accounts "anand" and
// "bharat"). Each shop asks for a top-up through its own POST /api/v1/upstreams/default/fund-requests; the
// distributor's live admin approves one and rejects the other; the shops follow them by polling (the distributor's
// live webhooks never go to a loopback address): the approved one is credited at that shop exactly once, the rejected
// one comes back with its reason and no money. Runs on SQLite and (pg_fundrequestprocesses) PostgreSQL.
#include "httpclient.h"
#include "ledgercheck.h"
#include "serverprocess.h"
#include "teststore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace {

constexpr int kWaitMs = 20'000; ///< how long the test waits for what the servers do by themselves

QString describe(const HttpResult &result)
{
    return QStringLiteral("%1 %2").arg(result.status).arg(QString::fromUtf8(result.body.left(400)));
}

QUrl withPath(QUrl base, const QString &path)
{
    base.setPath(path);
    return base;
}

const QStringList kLive{QStringLiteral("--mode"), QStringLiteral("live")};
const QStringList kPos{QStringLiteral("--scope"), QStringLiteral("pos")};
const QStringList kAdmin{QStringLiteral("--scope"), QStringLiteral("admin")};

/// One shop server chained to the distributor with its account's live key there.
struct ShopServer
{
    explicit ShopServer(QString name) : account(std::move(name)) {}

    QString account;
    TestStore store;
    ServerProcess process;
    QByteArray liveAdmin;        ///< at the shop
    QByteArray keyAtDistributor; ///< the shop's own key at the distributor (to read its wallet there)
};

} // namespace

class TestFundRequestProcesses final : public QObject
{
    Q_OBJECT

private:
    TestStore m_distributorStore;
    ServerProcess m_distributor;
    QByteArray m_distributorLiveAdmin;
    HttpClient m_http;

    HttpResult send(const QByteArray &method, const QUrl &url, const QByteArray &key, const QJsonObject &body = {})
    {
        return m_http.sendJson(method, url, key, body);
    }

    /// Creates the shop's account and live key at the distributor, the shop's own keys, and starts it with the
    /// distributor as its upstream.
    bool startShop(ShopServer &shop, QString *error)
    {
        QString keyId;
        QString secret;
        if (!ServerProcess::createKey(m_distributorStore,
                                      kLive + kPos + QStringList{QStringLiteral("--account"), shop.account}, &keyId,
                                      &secret, error))
            return false;
        shop.keyAtDistributor = HttpClient::basic(keyId, secret);
        const QString secretFile = shop.store.filePath(QStringLiteral("upstream-key-secret"));
        QFile file(secretFile);
        if (!file.open(QIODevice::WriteOnly) || file.write(secret.toUtf8() + '\n') < 0) {
            *error = QStringLiteral("cannot write ") + secretFile;
            return false;
        }
        file.close();
        QString shopKeyId;
        QString shopSecret;
        if (!ServerProcess::createKey(shop.store, kLive + kAdmin, &shopKeyId, &shopSecret, error))
            return false;
        shop.liveAdmin = HttpClient::basic(shopKeyId, shopSecret);
        QString output;
        if (!ServerProcess::runCliOn(shop.store,
                                     {QStringLiteral("upstream"), QStringLiteral("set"), QStringLiteral("--url"),
                                      withPath(m_distributor.url(), QStringLiteral("/api/v1")).toString(),
                                      QStringLiteral("--key-id"), keyId, QStringLiteral("--key-secret-file"),
                                      secretFile},
                                     &output, error))
            return false;
        return shop.process.start(shop.store,
                                  {QStringLiteral("--upstream-timeout-ms"), QStringLiteral("3000"),
                                   QStringLiteral("--upstream-retry-scale"), QStringLiteral("0.01")},
                                  error);
    }

    /// The shop's record of its fund request `id` at the shop.
    QJsonObject shopRecord(ShopServer &shop, qint64 id)
    {
        const HttpResult list = send("GET",
                                     withPath(shop.process.url(), QStringLiteral("/api/v1/upstreams/default/"
                                                                                 "fund-requests")),
                                     shop.liveAdmin);
        for (const QJsonValue &item : list.data().value(QStringLiteral("items")).toArray()) {
            if (item.toObject().value(QStringLiteral("id")).toInteger() == id)
                return item.toObject();
        }
        return {};
    }

    qint64 liveBalance(const QUrl &server, const QByteArray &key)
    {
        return send("GET", withPath(server, QStringLiteral("/api/v1/wallet")), key)
            .data()
            .value(QStringLiteral("balance_paise"))
            .toInteger(-1);
    }

    static qint64 scalar(const TestStore &store, const QString &sql)
    {
        const ReadOnlyConnection db(store);
        QString error;
        const QStringList rows = db.column(sql, &error);
        return error.isEmpty() && !rows.isEmpty() ? rows.constFirst().toLongLong() : -999;
    }

private slots:
    void approvedOnceAtOneShopRejectedAtTheOther()
    {
        QVERIFY(m_distributorStore.isValid());
        QString error;
        QString keyId;
        QString secret;
        QVERIFY2(ServerProcess::createKey(m_distributorStore, kLive + kAdmin, &keyId, &secret, &error),
                 qPrintable(error));
        m_distributorLiveAdmin = HttpClient::basic(keyId, secret);
        QVERIFY2(m_distributor.start(m_distributorStore, {}, &error), qPrintable(error));

        ShopServer anand(QStringLiteral("anand"));
        ShopServer bharat(QStringLiteral("bharat"));
        QVERIFY2(startShop(anand, &error), qPrintable(error));
        QVERIFY2(startShop(bharat, &error), qPrintable(error));

        // Each shop asks through its own server.
        const auto ask = [&](ShopServer &shop, qint64 rupees, const QString &utr) {
            return send("POST", withPath(shop.process.url(), QStringLiteral("/api/v1/upstreams/default/fund-requests")),
                        shop.liveAdmin,
                        QJsonObject{{QStringLiteral("amount"), rupees},
                                    {QStringLiteral("method"), QStringLiteral("bank")},
                                    {QStringLiteral("utr"), utr},
                                    {QStringLiteral("note"), QStringLiteral("NEFT this morning")}});
        };
        const HttpResult fromAnand = ask(anand, 1500, QStringLiteral("NEFT00001111"));
        QVERIFY2(fromAnand.status == 201, qPrintable(describe(fromAnand) + anand.process.readOutput()));
        const HttpResult fromBharat = ask(bharat, 2500, QStringLiteral("NEFT00002222"));
        QVERIFY2(fromBharat.status == 201, qPrintable(describe(fromBharat) + bharat.process.readOutput()));
        QCOMPARE(fromAnand.data().value(QStringLiteral("state")).toString(), QStringLiteral("pending"));
        QCOMPARE(fromBharat.data().value(QStringLiteral("state")).toString(), QStringLiteral("pending"));
        const qint64 anandLocal = fromAnand.data().value(QStringLiteral("id")).toInteger();
        const qint64 bharatLocal = fromBharat.data().value(QStringLiteral("id")).toInteger();
        const qint64 anandRemote = fromAnand.data().value(QStringLiteral("remote_id")).toInteger();
        const qint64 bharatRemote = fromBharat.data().value(QStringLiteral("remote_id")).toInteger();
        QVERIFY(anandRemote > 0 && bharatRemote > 0 && anandRemote != bharatRemote);

        // The distributor sees both, oldest first, each under its shop.
        const HttpResult listed =
            send("GET", withPath(m_distributor.url(), QStringLiteral("/api/v1/fund-requests")), m_distributorLiveAdmin);
        QCOMPARE(listed.status, 200);
        const QJsonArray items = listed.data().value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 2);
        QCOMPARE(
            items.at(0).toObject().value(QStringLiteral("shop")).toObject().value(QStringLiteral("name")).toString(),
            QStringLiteral("anand"));
        QCOMPARE(
            items.at(1).toObject().value(QStringLiteral("shop")).toObject().value(QStringLiteral("name")).toString(),
            QStringLiteral("bharat"));

        const auto decide = [&](qint64 id, const QString &step, const QJsonObject &body = {}) {
            return send("POST",
                        withPath(m_distributor.url(), QStringLiteral("/api/v1/fund-requests/%1/%2").arg(id).arg(step)),
                        m_distributorLiveAdmin, body);
        };
        QCOMPARE(decide(anandRemote, QStringLiteral("approve")).status, 200);
        QCOMPARE(decide(anandRemote, QStringLiteral("approve")).status, 409);
        QCOMPARE(decide(bharatRemote, QStringLiteral("reject"),
                        {{QStringLiteral("reason"), QStringLiteral("no NEFT with this UTR reached us")}})
                     .status,
                 200);

        // The shops learn it by polling: credited once at anand, rejected at bharat.
        QTRY_COMPARE_WITH_TIMEOUT(shopRecord(anand, anandLocal).value(QStringLiteral("state")).toString(),
                                  QStringLiteral("approved"), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(shopRecord(bharat, bharatLocal).value(QStringLiteral("state")).toString(),
                                  QStringLiteral("rejected"), kWaitMs);
        QCOMPARE(shopRecord(bharat, bharatLocal).value(QStringLiteral("reason")).toString(),
                 QStringLiteral("no NEFT with this UTR reached us"));
        QCOMPARE(liveBalance(anand.process.url(), anand.liveAdmin), 1500 * 100);
        QCOMPARE(liveBalance(bharat.process.url(), bharat.liveAdmin), 0);
        QCOMPARE(scalar(anand.store, QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE mode = 'live' AND note"
                                                    " LIKE 'fund request %'")),
                 1);
        QCOMPARE(scalar(bharat.store, QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE mode = 'live'")), 0);
        // At the distributor: anand's float credited once, bharat's untouched.
        QCOMPARE(liveBalance(m_distributor.url(), anand.keyAtDistributor), 1500 * 100);
        QCOMPARE(liveBalance(m_distributor.url(), bharat.keyAtDistributor), 0);

        // Both floats agree with the distributor's figure: nothing left to explain.
        const HttpResult compared = send(
            "GET", withPath(anand.process.url(), QStringLiteral("/api/v1/upstreams/default/wallet")), anand.liveAdmin);
        QVERIFY2(compared.status == 200, qPrintable(describe(compared)));
        QCOMPARE(compared.data().value(QStringLiteral("balance")).toString(), QStringLiteral("₹1500.00"));
        QCOMPARE(compared.data().value(QStringLiteral("difference")).toString(), QStringLiteral("₹0.00"));
        QCOMPARE(compared.data().value(QStringLiteral("unexplained")).toString(), QStringLiteral("₹0.00"));

        for (const ShopServer *shop : {&anand, &bharat})
            QVERIFY2(ledgerProblems(shop->store, shop->account).isEmpty(),
                     qPrintable(ledgerProblems(shop->store, shop->account)));
        QVERIFY2(ledgerProblems(m_distributorStore, QStringLiteral("distributor")).isEmpty(),
                 qPrintable(ledgerProblems(m_distributorStore, QStringLiteral("distributor"))));
        anand.process.kill();
        bharat.process.kill();
        m_distributor.kill();
    }
};

QTEST_GUILESS_MAIN(TestFundRequestProcesses)
#include "tst_fundrequestprocesses.moc"
