// Issue 30, a distributor's shops over real HTTP: shops added (and a shop made by `keys create --account`), listed
// with search, sort and paging, topped up, given a credit limit (a live sale down to -limit, beyond it 402 with nothing
// debited) and margins (the next sale's discount), suspended (403 account_suspended, but its sales and wallet still
// read and its PENDING sale still settles) and resumed; statements that add up to the wallet, with a reversal classed
// as one, and their CSV; keys made, rotated and revoked; every /shops route refused to a shop's keys; a shop that never
// reads another's; bad input refused with a clear 400 and nothing changed. The distributor sells live through an
// upstream (a second real server, whose sandbox decides). Runs on SQLite and (pg_shopsapi) PostgreSQL.
#include "apiserver.h"
#include "clock.h"
#include "entities/shop.h"
#include "entities/shopstatement.h"
#include "http/apirouter.h"
#include "money.h"
#include "salesapitest.h"
#include "services/settlementservice.h"
#include "shops/contacttracker.h"
#include "shops/shopinput.h"
#include "store/walletrepository.h"
#include "testserver.h"
#include "validators.h"

#include <QJsonArray>
#include <QTest>
#include <QUrlQuery>

namespace {

const QString kShops = QStringLiteral("/api/v1/shops");
const QString kValidGstin = QStringLiteral("27AAPFU0939F1ZV");
const QString kOtherValidGstin = QStringLiteral("29AAGCB7383J1Z4");

QString describe(const HttpResult &result)
{
    return QStringLiteral("%1 %2").arg(result.status).arg(QString::fromUtf8(result.body.left(500)));
}

QString reasonOf(const HttpResult &result)
{
    return result.error().value(QStringLiteral("reason")).toString();
}

Paise paise(const QJsonObject &object, const QString &field)
{
    return Money::parse(object.value(field).toString()).value_or(-999'999'999);
}

QString shopPath(qint64 id, const QString &tail = {})
{
    return kShops + QLatin1Char('/') + QString::number(id) + tail;
}

/// The shop as compared before and after a refused change: everything but the last contact (every call moves it).
QJsonObject comparable(QJsonObject shop)
{
    shop.remove(QStringLiteral("last_contact_at"));
    return shop;
}

QString istDate(int daysFromToday)
{
    return IstTime::dateOf(QDateTime::currentDateTimeUtc())
        .addDays(daysFromToday)
        .toString(QStringLiteral("yyyy-MM-dd"));
}

} // namespace

class TestShopsApi final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_upstream; ///< the distributor's own upstream: its sandbox decides every live sale
    std::unique_ptr<TestServer> m_server;   ///< the distributor under test
    int m_names = 0;

    HttpResult call(const QByteArray &method, const QString &path, const QByteArray &key, const QJsonObject &body = {})
    {
        QUrl url = m_server->url(path.section(QLatin1Char('?'), 0, 0));
        url.setQuery(path.section(QLatin1Char('?'), 1));
        return m_server->http().sendJson(method, url, key, body);
    }

    /// A fresh shop name (tests share one server).
    QString uniqueName(const QString &stem) { return QStringLiteral("%1 %2").arg(stem).arg(++m_names); }

    /// POST /api/v1/shops; the answer's data (fails the test unless 201).
    QJsonObject addShop(const QString &name, const QString &owner = QStringLiteral("Ramesh Kumar"),
                        const QString &mobile = QStringLiteral("+91 98765 43210"), const QString &gstin = {})
    {
        QJsonObject body{{QStringLiteral("name"), name},
                         {QStringLiteral("owner"), owner},
                         {QStringLiteral("mobile"), mobile},
                         {QStringLiteral("circle_code"), QStringLiteral("MH")}};
        if (!gstin.isEmpty())
            body.insert(QStringLiteral("gstin"), gstin);
        const HttpResult r = call("POST", kShops, m_server->liveAdmin(), body);
        if (r.status != 201)
            qWarning("add shop: %s", qPrintable(describe(r)));
        return r.data();
    }

    static qint64 idOf(const QJsonObject &added)
    {
        return added.value(QStringLiteral("shop")).toObject().value(QStringLiteral("id")).toInteger();
    }

    static QByteArray keyOf(const QJsonObject &added)
    {
        const QJsonObject key = added.value(QStringLiteral("key")).toObject();
        return HttpClient::basic(key.value(QStringLiteral("key_id")).toString(),
                                 key.value(QStringLiteral("key_secret")).toString());
    }

    QJsonObject shop(qint64 id) { return call("GET", shopPath(id), m_server->liveAdmin()).data(); }

    HttpResult topup(qint64 id, int rupees, const QString &method = QStringLiteral("upi"),
                     const QString &reference = QStringLiteral("UTR4242"))
    {
        QJsonObject body{{QStringLiteral("amount"), rupees}, {QStringLiteral("method"), method}};
        if (!reference.isEmpty())
            body.insert(QStringLiteral("reference"), reference);
        return call("POST", shopPath(id, QStringLiteral("/topups")), m_server->liveAdmin(), body);
    }

    HttpResult sell(const QByteArray &key, const QString &phone, int rupees)
    {
        return call("POST", kMobile, key, mobileBody(phone, rupees, QStringLiteral("RJ")));
    }

    Paise liveBalance(qint64 id) { return paise(shop(id), QStringLiteral("balance")); }

    qint64 scalar(const QString &sql)
    {
        QSqlQuery &q = m_server->db().run(sql);
        const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return value;
    }

private slots:
    void initTestCase()
    {
        m_upstream = std::make_unique<TestServer>();
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamRetryScale = 0.01;
        m_server = std::make_unique<TestServer>(options);
        const CreatedKey atUpstream = m_upstream->createKeyPair(Mode::Test, Scope::Pos);
        const HttpResult set =
            call("PUT", QStringLiteral("/api/v1/upstream"), m_server->liveAdmin(),
                 QJsonObject{{QStringLiteral("base_url"), m_upstream->url(QStringLiteral("/api/v1")).toString()},
                             {QStringLiteral("key_id"), atUpstream.keyId},
                             {QStringLiteral("key_secret"), atUpstream.secret}});
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
    }

    void gstinCheckDigit()
    {
        QVERIFY(Validators::isGstin(kValidGstin));
        QVERIFY(Validators::isGstin(kOtherValidGstin));
        QVERIFY(!Validators::isGstin(QStringLiteral("27AAPFU0939F1ZW"))); // the check digit is V
        QVERIFY(!Validators::isGstin(QStringLiteral("27aapfu0939f1zv"))); // the service upper-cases first
        QVERIFY(!Validators::isGstin(QStringLiteral("27AAPFU0939F1Z")));
    }

    // Adding shops: each answer carries the shop, its live pos key once and the lines the shop runs to connect; a
    // name taken (or the distributor's own) is 409; `keys create --account X` (ApiKeyService) makes a shop too, and
    // the distributor's account never is one.
    void addShopsAndKeysCreateMakesAShop()
    {
        const QString name = uniqueName(QStringLiteral("Sharma Mobile"));
        const QJsonObject added =
            addShop(name, QStringLiteral("Suresh Sharma"), QStringLiteral("098765 43210"), kValidGstin);
        QCOMPARE(added.value(QStringLiteral("entity")).toString(), QStringLiteral("shop_created"));
        const QJsonObject shop = added.value(QStringLiteral("shop")).toObject();
        QCOMPARE(shop.value(QStringLiteral("entity")).toString(), QStringLiteral("shop"));
        QCOMPARE(shop.value(QStringLiteral("name")).toString(), name);
        QCOMPARE(shop.value(QStringLiteral("mobile")).toString(), QStringLiteral("9876543210"));
        QCOMPARE(shop.value(QStringLiteral("circle_code")).toString(), QStringLiteral("MH"));
        QCOMPARE(shop.value(QStringLiteral("gstin")).toString(), kValidGstin);
        QCOMPARE(shop.value(QStringLiteral("state")).toString(), QStringLiteral("active"));
        QCOMPARE(shop.value(QStringLiteral("balance")).toString(), QStringLiteral("₹0.00"));
        QCOMPARE(shop.value(QStringLiteral("available")).toString(), QStringLiteral("₹0.00"));
        QVERIFY(shop.value(QStringLiteral("suspended_reason")).isNull());
        QVERIFY(shop.value(QStringLiteral("today")).toObject().value(QStringLiteral("success_rate")).isNull());
        QString why;
        QVERIFY2(Shop::fromJson(shop, &why), qPrintable(why));
        const QJsonObject key = added.value(QStringLiteral("key")).toObject();
        QCOMPARE(key.value(QStringLiteral("mode")).toString(), QStringLiteral("live"));
        QCOMPARE(key.value(QStringLiteral("scope")).toString(), QStringLiteral("pos"));
        QVERIFY(!key.value(QStringLiteral("key_secret")).toString().isEmpty());
        const QStringList connect = added.value(QStringLiteral("connect")).toVariant().toStringList();
        const QString expected =
            QStringLiteral("rechargedesk upstream set --url %1 --key-id %2 --key-secret-file secret.txt")
                .arg(m_server->url(QStringLiteral("/api/v1")).toString(),
                     key.value(QStringLiteral("key_id")).toString());
        QVERIFY2(connect.contains(expected), qPrintable(connect.join(QLatin1Char('\n'))));
        // The key works: the shop reads its wallet, with its credit.
        const HttpResult wallet = call("GET", kWallet, keyOf(added));
        QVERIFY2(wallet.status == 200, qPrintable(describe(wallet)));
        QCOMPARE(wallet.data().value(QStringLiteral("credit_limit")).toString(), QStringLiteral("₹0.00"));
        QCOMPARE(wallet.data().value(QStringLiteral("available")).toString(), QStringLiteral("₹0.00"));
        // ShopDetail reads GET /shops/{id}, margins and keys included.
        const QJsonObject detail = this->shop(idOf(added));
        QVERIFY2(ShopDetail::fromJson(detail, &why), qPrintable(why));
        QCOMPARE(detail.value(QStringLiteral("keys")).toArray().size(), 1);
        QVERIFY(detail.value(QStringLiteral("margins"))
                    .toObject()
                    .value(QStringLiteral("discount_basis_points"))
                    .toObject()
                    .contains(QStringLiteral("RJ")));

        HttpResult again = call("POST", kShops, m_server->liveAdmin(),
                                QJsonObject{{QStringLiteral("name"), name},
                                            {QStringLiteral("owner"), QStringLiteral("X")},
                                            {QStringLiteral("mobile"), QStringLiteral("9876543210")},
                                            {QStringLiteral("circle_code"), QStringLiteral("MH")}});
        QCOMPARE(again.status, 409);
        QCOMPARE(reasonOf(again), QStringLiteral("shop_exists"));
        again = call("POST", kShops, m_server->liveAdmin(),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("shop")},
                                 {QStringLiteral("owner"), QStringLiteral("X")},
                                 {QStringLiteral("mobile"), QStringLiteral("9876543210")},
                                 {QStringLiteral("circle_code"), QStringLiteral("MH")}});
        QCOMPARE(reasonOf(again), QStringLiteral("shop_exists"));

        const QString corner = uniqueName(QStringLiteral("corner"));
        m_server->createKey(Mode::Test, Scope::Pos, corner); // what `rechargedesk keys create --account` runs
        const HttpResult found = call("GET", kShops + QStringLiteral("?q=") + corner, m_server->liveAdmin());
        QCOMPARE(found.data().value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(found.data()
                     .value(QStringLiteral("items"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("active"));
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM shops s JOIN accounts a ON a.id = s.account_id"
                                       " WHERE a.name = 'shop'")),
                 0);
    }

    // The list: search on name, owner, mobile and GSTIN; sort by balance; the state filter; paging by cursor.
    void listSearchSortAndPaging()
    {
        const QString stem = uniqueName(QStringLiteral("Listing"));
        const QJsonObject a =
            addShop(stem + QStringLiteral(" Alpha"), QStringLiteral("Anita Desai"), QStringLiteral("9811111111"));
        const QJsonObject b = addShop(stem + QStringLiteral(" Beta"), QStringLiteral("Bhavesh Patel"),
                                      QStringLiteral("9822222222"), kOtherValidGstin);
        const QJsonObject c =
            addShop(stem + QStringLiteral(" Gamma"), QStringLiteral("Chitra Rao"), QStringLiteral("9833333333"));
        QCOMPARE(topup(idOf(a), 300).status, 201);
        QCOMPARE(topup(idOf(b), 100).status, 201);
        QCOMPARE(topup(idOf(c), 200).status, 201);
        const auto names = [](const HttpResult &r) {
            QStringList list;
            for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
                list.append(item.toObject().value(QStringLiteral("name")).toString());
            return list;
        };
        const QString q = QStringLiteral("?q=") + QString::fromLatin1(QUrl::toPercentEncoding(stem));
        HttpResult r = call("GET", kShops + q + QStringLiteral("&sort=balance&order=desc"), m_server->liveAdmin());
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(names(r), (QStringList{stem + QStringLiteral(" Alpha"), stem + QStringLiteral(" Gamma"),
                                        stem + QStringLiteral(" Beta")}));
        QCOMPARE(names(call("GET", kShops + QStringLiteral("?q=bhavesh"), m_server->liveAdmin())),
                 QStringList{stem + QStringLiteral(" Beta")});
        QCOMPARE(names(call("GET", kShops + QStringLiteral("?q=98333"), m_server->liveAdmin())),
                 QStringList{stem + QStringLiteral(" Gamma")});
        QCOMPARE(names(call("GET", kShops + QStringLiteral("?q=29aagcb"), m_server->liveAdmin())),
                 QStringList{stem + QStringLiteral(" Beta")});
        // Paging: two, then the last one.
        r = call("GET", kShops + q + QStringLiteral("&sort=name&limit=2"), m_server->liveAdmin());
        QCOMPARE(names(r), (QStringList{stem + QStringLiteral(" Alpha"), stem + QStringLiteral(" Beta")}));
        const QString cursor = r.data().value(QStringLiteral("next_cursor")).toString();
        QVERIFY(!cursor.isEmpty());
        r = call("GET", kShops + q + QStringLiteral("&sort=name&limit=2&cursor=") + cursor, m_server->liveAdmin());
        QCOMPARE(names(r), QStringList{stem + QStringLiteral(" Gamma")});
        QVERIFY(r.data().value(QStringLiteral("next_cursor")).isNull());
        // The state filter.
        QCOMPARE(call("POST", shopPath(idOf(b), QStringLiteral("/suspend")), m_server->liveAdmin(),
                      QJsonObject{{QStringLiteral("reason"), QStringLiteral("unpaid float")}})
                     .status,
                 200);
        QCOMPARE(names(call("GET", kShops + q + QStringLiteral("&state=suspended"), m_server->liveAdmin())),
                 QStringList{stem + QStringLiteral(" Beta")});
        QCOMPARE(names(call("GET", kShops + q + QStringLiteral("&state=active"), m_server->liveAdmin())).size(), 2);
        // Bad queries.
        QCOMPARE(reasonOf(call("GET", kShops + QStringLiteral("?sort=colour"), m_server->liveAdmin())),
                 QStringLiteral("invalid_sort"));
        QCOMPARE(reasonOf(call("GET", kShops + QStringLiteral("?state=closed"), m_server->liveAdmin())),
                 QStringLiteral("invalid_state"));
        QCOMPARE(call("GET", kShops + QStringLiteral("?limit=5001"), m_server->liveAdmin()).status, 400);
        QCOMPARE(call("GET", kShops + QStringLiteral("?order=up"), m_server->liveAdmin()).status, 400);
    }

    // A top-up is a ledger row; the credit limit lets a live sale take the wallet down to -limit, not beyond (402
    // naming the limit, nothing debited, no sale kept); margins set the next sale's discount; a shop cannot credit
    // itself nor set its own rates.
    void topupCreditLimitAndMargins()
    {
        const QJsonObject added = addShop(uniqueName(QStringLiteral("Credit")));
        const qint64 id = idOf(added);
        const QByteArray key = keyOf(added);
        HttpResult r = topup(id, 100, QStringLiteral("upi"), QStringLiteral("UPI123456"));
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("balance")).toString(), QStringLiteral("₹100.00"));
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE account_id = %1 AND mode = 'live'"
                                       " AND kind = 'topup' AND note = 'top-up by UPI, ref UPI123456'")
                            .arg(id)),
                 1);
        // No discount for this shop on RJ, so a sale debits its bill.
        r = call("PUT", shopPath(id, QStringLiteral("/margins")), m_server->liveAdmin(),
                 QJsonObject{{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("RJ"), 0}}}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        r = call("PUT", shopPath(id, QStringLiteral("/credit-limit")), m_server->liveAdmin(),
                 QJsonObject{{QStringLiteral("credit_limit"), 50}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("credit_limit")).toString(), QStringLiteral("₹50.00"));
        QCOMPARE(r.data().value(QStringLiteral("available")).toString(), QStringLiteral("₹150.00"));

        r = sell(key, QStringLiteral("9876543210"), 150); // down to exactly -₹50.00
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(liveBalance(id), -5000);
        const HttpResult wallet = call("GET", kWallet, key);
        QCOMPARE(wallet.data().value(QStringLiteral("balance")).toString(), QStringLiteral("-₹50.00"));
        QCOMPARE(wallet.data().value(QStringLiteral("available")).toString(), QStringLiteral("₹0.00"));
        const qint64 sales = scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE account_id = %1").arg(id));
        r = sell(key, QStringLiteral("9876543210"), 10);
        QCOMPARE(r.status, 402);
        QVERIFY2(r.error()
                     .value(QStringLiteral("description"))
                     .toString()
                     .contains(QStringLiteral("credit limit of ₹50.00")),
                 qPrintable(describe(r)));
        QCOMPARE(liveBalance(id), -5000);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE account_id = %1").arg(id)), sales);

        // 5 % on RJ: the next ₹100 sale pays ₹95.
        r = call("PUT", shopPath(id, QStringLiteral("/margins")), m_server->liveAdmin(),
                 QJsonObject{{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("RJ"), 500}}}});
        QCOMPARE(r.data().value(QStringLiteral("discount_basis_points")).toObject().value(QStringLiteral("RJ")).toInt(),
                 500);
        QCOMPARE(topup(id, 200, QStringLiteral("cash"), QString()).status, 201);
        r = sell(key, QStringLiteral("9876543210"), 100);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("discount")).toString(), QStringLiteral("₹5.00"));
        QCOMPARE(liveBalance(id), -5000 + 20000 - 9500);

        // The shop cannot credit itself, nor set its own rates; its test wallet stays its own to top up.
        const QByteArray shopAdmin =
            m_server->createKey(Mode::Live, Scope::Admin, shop(id).value(QStringLiteral("name")).toString());
        r = call("POST", QStringLiteral("/api/v1/wallet/topups"), shopAdmin,
                 QJsonObject{{QStringLiteral("amount"), 1000}});
        QCOMPARE(r.status, 403);
        QCOMPARE(reasonOf(r), QStringLiteral("shop_cannot_credit_itself"));
        r = call("PUT", QStringLiteral("/api/v1/shop"), shopAdmin,
                 QJsonObject{{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("RJ"), 2000}}}});
        QCOMPARE(r.status, 403);
        QCOMPARE(reasonOf(r), QStringLiteral("set_by_distributor"));
        QCOMPARE(liveBalance(id), -5000 + 20000 - 9500);
        const QByteArray shopTestAdmin =
            m_server->createKey(Mode::Test, Scope::Admin, shop(id).value(QStringLiteral("name")).toString());
        QCOMPARE(call("POST", QStringLiteral("/api/v1/wallet/topups"), shopTestAdmin,
                      QJsonObject{{QStringLiteral("amount"), 10}})
                     .status,
                 201);
        // The audit log of the distributor names the change of limit.
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'shop.credit_limit'"
                                       " AND detail LIKE '%₹0.00 → ₹50.00%'")),
                 1);
    }

    // Suspended: a sale is 403 account_suspended, its wallet and sales still read, its PENDING sale settles; resumed,
    // it sells again.
    void suspendAndResume()
    {
        const QJsonObject added = addShop(uniqueName(QStringLiteral("Suspend")));
        const qint64 id = idOf(added);
        const QByteArray key = keyOf(added);
        QCOMPARE(topup(id, 1000).status, 201);
        HttpResult r = sell(key, QStringLiteral("9876541111"), 100); // PENDING at the upstream, then SUCCESS
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const qint64 pending = r.data().value(QStringLiteral("transaction_id")).toInteger();
        QCOMPARE(r.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));

        r = call("POST", shopPath(id, QStringLiteral("/suspend")), m_server->liveAdmin(),
                 QJsonObject{{QStringLiteral("reason"), QStringLiteral("float unpaid since Monday")}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("state")).toString(), QStringLiteral("suspended"));
        QCOMPARE(r.data().value(QStringLiteral("suspended_reason")).toString(),
                 QStringLiteral("float unpaid since Monday"));
        const Paise before = liveBalance(id);
        r = sell(key, QStringLiteral("9876543210"), 100);
        QCOMPARE(r.status, 403);
        QCOMPARE(reasonOf(r), QStringLiteral("account_suspended"));
        QCOMPARE(liveBalance(id), before);
        QCOMPARE(call("GET", kWallet, key).status, 200);
        QCOMPARE(call("GET", kTransactions, key).status, 200);
        QCOMPARE(call("GET", kTransactions + QStringLiteral("/%1").arg(pending), key).status, 200);
        QCOMPARE(reasonOf(call("GET", QStringLiteral("/api/v1/shop"), key)), QStringLiteral("account_suspended"));
        QTRY_COMPARE_WITH_TIMEOUT(call("GET", kTransactions + QStringLiteral("/%1").arg(pending), key)
                                      .data()
                                      .value(QStringLiteral("transaction_status"))
                                      .toString(),
                                  QStringLiteral("SUCCESS"), 30'000);
        r = call("POST", shopPath(id, QStringLiteral("/suspend")), m_server->liveAdmin(),
                 QJsonObject{{QStringLiteral("reason"), QStringLiteral("again")}});
        QCOMPARE(r.status, 409);
        QCOMPARE(reasonOf(r), QStringLiteral("shop_suspended"));

        r = call("POST", shopPath(id, QStringLiteral("/resume")), m_server->liveAdmin());
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("state")).toString(), QStringLiteral("active"));
        QVERIFY(r.data().value(QStringLiteral("suspended_at")).isNull());
        r = sell(key, QStringLiteral("9876543210"), 100);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        r = call("POST", shopPath(id, QStringLiteral("/resume")), m_server->liveAdmin());
        QCOMPARE(r.status, 409);
        QCOMPARE(reasonOf(r), QStringLiteral("shop_not_suspended"));
        // The last contact was marked by the shop's calls.
        QVERIFY(!shop(id).value(QStringLiteral("last_contact_at")).isNull());
    }

    // A statement adds up: opening + every line = closing = the live wallet's balance; running balances chain across
    // pages; a failed sale's refund is `refund`, a SUCCESS sale reversed later is `reversal`; CSV has every line.
    void statementAddsUp()
    {
        const QJsonObject added = addShop(uniqueName(QStringLiteral("Statement")));
        const qint64 id = idOf(added);
        const QByteArray key = keyOf(added);
        // A top-up two days ago: the opening balance of a statement from yesterday.
        const qint64 twoDaysAgo = QDateTime::currentMSecsSinceEpoch() - 2 * 86'400'000LL;
        {
            WriteTransaction transaction(m_server->db());
            WalletRepository(m_server->db())
                .post(id, Mode::Live, 70'000, LedgerKind::Topup, 0, QStringLiteral("top-up by cash"),
                      QStringLiteral("test"), twoDaysAgo);
            transaction.commit();
        }
        QCOMPARE(topup(id, 500, QStringLiteral("bank"), QStringLiteral("NEFT998877")).status, 201);
        const HttpResult ok = sell(key, QStringLiteral("9876543210"), 199);
        QVERIFY2(ok.status == 200, qPrintable(describe(ok)));
        const HttpResult failed = sell(key, QStringLiteral("9876540000"), 149); // FAILED: refunded
        QVERIFY2(failed.status == 200, qPrintable(describe(failed)));
        const HttpResult reversed = sell(key, QStringLiteral("9876549999"), 299);
        QVERIFY2(reversed.status == 200, qPrintable(describe(reversed)));
        const qint64 reversedId = reversed.data().value(QStringLiteral("transaction_id")).toInteger();
        SystemClock clock;
        QVERIFY(SettlementService(m_server->db(), clock).reverseOne(reversedId, clock.nowMs()));

        const QString range = QStringLiteral("?from=%1&to=%2").arg(istDate(-1), istDate(0));
        HttpResult r = call("GET", shopPath(id, QStringLiteral("/statement")) + range, m_server->liveAdmin());
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QString why;
        const std::optional<ShopStatement> statement = ShopStatement::fromJson(r.data(), &why);
        QVERIFY2(statement, qPrintable(why));
        QCOMPARE(statement->opening, 70'000);
        QCOMPARE(statement->closing, liveBalance(id));
        Paise sum = statement->opening;
        QStringList kinds;
        for (const ShopStatement::Line &line : statement->lines) {
            sum += line.amount;
            QCOMPARE(line.balance, sum);
            kinds.append(line.kind);
        }
        QCOMPARE(sum, statement->closing);
        QCOMPARE(statement->totals.sum(), statement->closing - statement->opening);
        QCOMPARE(statement->lineCount, statement->lines.size());
        QCOMPARE(kinds, (QStringList{QStringLiteral("topup"), QStringLiteral("sale"), QStringLiteral("sale"),
                                     QStringLiteral("refund"), QStringLiteral("sale"), QStringLiteral("reversal")}));
        QCOMPARE(statement->lines.first().reference, QStringLiteral("NEFT998877"));
        QCOMPARE(statement->lines.last().transactionId, reversedId);
        QCOMPARE(statement->lines.at(1).number, QStringLiteral("9876543210"));
        QCOMPARE(statement->totals.topups, 50'000);
        QCOMPARE(statement->totals.reversals, statement->lines.last().amount);

        // Two lines a page: the running balance carries on.
        QList<ShopStatement::Line> paged;
        QString cursor;
        do {
            r = call("GET",
                     shopPath(id, QStringLiteral("/statement")) + range + QStringLiteral("&limit=2") +
                         (cursor.isEmpty() ? QString() : QStringLiteral("&cursor=") + cursor),
                     m_server->liveAdmin());
            const std::optional<ShopStatement> page = ShopStatement::fromJson(r.data(), &why);
            QVERIFY2(page, qPrintable(why));
            paged += page->lines;
            cursor = page->nextCursor;
        } while (!cursor.isEmpty());
        QCOMPARE(paged, statement->lines);

        // Up to yesterday: nothing moved yesterday, so opening = closing.
        r = call("GET", shopPath(id, QStringLiteral("/statement")) + QStringLiteral("?from=%1&to=%1").arg(istDate(-1)),
                 m_server->liveAdmin());
        QCOMPARE(r.data().value(QStringLiteral("line_count")).toInt(), 0);
        QCOMPARE(r.data().value(QStringLiteral("closing_balance")).toString(), QStringLiteral("₹700.00"));

        // CSV: a header, the opening row, every line, the closing row.
        r = call("GET", shopPath(id, QStringLiteral("/statement")) + range + QStringLiteral("&format=csv"),
                 m_server->liveAdmin());
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("content-type").startsWith("text/csv"));
        const QList<QByteArray> rows = r.body.trimmed().split('\n');
        QCOMPARE(rows.size(), statement->lines.size() + 3);
        QVERIFY(rows.at(0).startsWith("id,at,kind,amount,balance"));
        QVERIFY(rows.at(1).contains(",opening,,700.00,"));
        QVERIFY(rows.last().contains(
            QStringLiteral(",closing,,%1,").arg(double(statement->closing) / 100, 0, 'f', 2).toUtf8()));
    }

    // Keys: another live key, a test key, rotation (the old one stops), revocation; a key of another shop is 404.
    void shopKeys()
    {
        const QJsonObject added = addShop(uniqueName(QStringLiteral("Keys")));
        const QJsonObject other = addShop(uniqueName(QStringLiteral("Other keys")));
        const qint64 id = idOf(added);
        HttpResult r = call("POST", shopPath(id, QStringLiteral("/keys")), m_server->liveAdmin(),
                            QJsonObject{{QStringLiteral("name"), QStringLiteral("counter 2")},
                                        {QStringLiteral("mode"), QStringLiteral("test")}});
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("key")).toObject().value(QStringLiteral("mode")).toString(),
                 QStringLiteral("test"));
        QCOMPARE(r.data().value(QStringLiteral("key")).toObject().value(QStringLiteral("scope")).toString(),
                 QStringLiteral("pos"));
        QCOMPARE(call("GET", kWallet, keyOf(r.data())).status, 200);
        r = call("GET", shopPath(id, QStringLiteral("/keys")), m_server->liveAdmin());
        QCOMPARE(r.data().value(QStringLiteral("count")).toInt(), 2);

        const QString oldKeyId =
            added.value(QStringLiteral("key")).toObject().value(QStringLiteral("key_id")).toString();
        r = call("POST", shopPath(id, QStringLiteral("/keys/%1/rotate").arg(oldKeyId)), m_server->liveAdmin());
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
        QCOMPARE(call("GET", kWallet, keyOf(r.data())).status, 200);
        QCOMPARE(reasonOf(call("GET", kWallet, keyOf(added))), QStringLiteral("key_revoked"));
        const QString newKeyId =
            r.data().value(QStringLiteral("key")).toObject().value(QStringLiteral("key_id")).toString();
        QVERIFY(r.data()
                    .value(QStringLiteral("connect"))
                    .toVariant()
                    .toStringList()
                    .join(QLatin1Char(' '))
                    .contains(newKeyId));

        const QString otherKeyId =
            other.value(QStringLiteral("key")).toObject().value(QStringLiteral("key_id")).toString();
        r = call("DELETE", shopPath(id, QStringLiteral("/keys/") + otherKeyId), m_server->liveAdmin());
        QCOMPARE(r.status, 404);
        QCOMPARE(reasonOf(r), QStringLiteral("key_not_found"));
        QCOMPARE(call("GET", kWallet, keyOf(other)).status, 200);
        r = call("POST", shopPath(id, QStringLiteral("/keys/%1/rotate").arg(otherKeyId)), m_server->liveAdmin());
        QCOMPARE(reasonOf(r), QStringLiteral("key_not_found"));
        r = call("DELETE", shopPath(id, QStringLiteral("/keys/") + newKeyId), m_server->liveAdmin());
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QVERIFY(!r.data().value(QStringLiteral("revoked_at")).isNull());
        r = call("DELETE", shopPath(id, QStringLiteral("/keys/") + newKeyId), m_server->liveAdmin());
        QCOMPARE(reasonOf(r), QStringLiteral("key_not_found"));
    }

    // Every /shops route answers a shop's keys 403 (its live admin key: distributor_only), and a shop never reads
    // another shop's sales.
    void shopKeysNeverReachShopRoutes()
    {
        const QJsonObject added = addShop(uniqueName(QStringLiteral("Nosy")));
        const QJsonObject victim = addShop(uniqueName(QStringLiteral("Victim")));
        QCOMPARE(topup(idOf(victim), 500).status, 201);
        const HttpResult sale = sell(keyOf(victim), QStringLiteral("9876543210"), 100);
        QVERIFY2(sale.status == 200, qPrintable(describe(sale)));
        const qint64 saleId = sale.data().value(QStringLiteral("transaction_id")).toInteger();
        const QString nosyName =
            added.value(QStringLiteral("shop")).toObject().value(QStringLiteral("name")).toString();
        const QByteArray nosyAdmin = m_server->createKey(Mode::Live, Scope::Admin, nosyName);
        const QByteArray nosyPos = keyOf(added);
        const QJsonObject victimBefore = comparable(shop(idOf(victim)));
        int routes = 0;
        for (const ApiRouter::RouteInfo &route : m_server->server().router().routes()) {
            if (!route.pattern.startsWith(kShops))
                continue;
            ++routes;
            QString path = route.pattern;
            path.replace(QStringLiteral("{id}"), QString::number(idOf(victim)));
            path.replace(QStringLiteral("{key_id}"),
                         victim.value(QStringLiteral("key")).toObject().value(QStringLiteral("key_id")).toString());
            const QByteArray method = route.method == QHttpServerRequest::Method::Get    ? "GET"
                                      : route.method == QHttpServerRequest::Method::Post ? "POST"
                                      : route.method == QHttpServerRequest::Method::Put  ? "PUT"
                                                                                         : "DELETE";
            const QJsonObject body{{QStringLiteral("name"), QStringLiteral("x shop")},
                                   {QStringLiteral("reason"), QStringLiteral("x")},
                                   {QStringLiteral("amount"), 100},
                                   {QStringLiteral("credit_limit"), 100}};
            HttpResult r = call(method, path, nosyAdmin, body);
            QVERIFY2(r.status == 403 && reasonOf(r) == QLatin1String("distributor_only"),
                     qPrintable(path + QLatin1Char(' ') + describe(r)));
            r = call(method, path, nosyPos, body);
            QVERIFY2(r.status == 403, qPrintable(path + QLatin1Char(' ') + describe(r)));
        }
        QVERIFY(routes >= 15);
        QCOMPARE(comparable(shop(idOf(victim))), victimBefore);
        QCOMPARE(call("GET", kTransactions + QStringLiteral("/%1").arg(saleId), nosyPos).status, 404);
        QCOMPARE(call("GET", kTransactions + QStringLiteral("/%1").arg(saleId), nosyAdmin).status, 404);
        const QByteArray saleField = "\"transaction_id\":" + QByteArray::number(saleId);
        QVERIFY(!call("GET", kTransactions, nosyAdmin).body.contains(saleField));
    }

    void badInputChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("tail");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");
        const auto add = [](const char *name, const QJsonObject &extra, const QString &reason) {
            QJsonObject body{{QStringLiteral("name"), QStringLiteral("Brand New Shop")},
                             {QStringLiteral("owner"), QStringLiteral("Asha")},
                             {QStringLiteral("mobile"), QStringLiteral("9876543210")},
                             {QStringLiteral("circle_code"), QStringLiteral("MH")}};
            for (auto it = extra.begin(); it != extra.end(); ++it)
                body.insert(it.key(), it.value());
            QTest::newRow(name) << QByteArray("POST") << QString() << body << 400 << reason;
        };
        add("add: bad GSTIN", {{QStringLiteral("gstin"), QStringLiteral("07AAACR5055K1Z5")}},
            QStringLiteral("invalid_gstin"));
        add("add: short GSTIN", {{QStringLiteral("gstin"), QStringLiteral("27AAPFU0939")}},
            QStringLiteral("invalid_gstin"));
        add("add: landline", {{QStringLiteral("mobile"), QStringLiteral("02224567890")}},
            QStringLiteral("invalid_mobile"));
        add("add: 9 digits", {{QStringLiteral("mobile"), QStringLiteral("987654321")}},
            QStringLiteral("invalid_mobile"));
        add("add: circle", {{QStringLiteral("circle_code"), QStringLiteral("XX")}},
            QStringLiteral("invalid_circle_code"));
        add("add: name", {{QStringLiteral("name"), QStringLiteral("A")}}, QStringLiteral("invalid_name"));
        add("add: owner", {{QStringLiteral("owner"), QStringLiteral("  ")}}, QStringLiteral("missing_field"));
        add("add: limit", {{QStringLiteral("credit_limit"), 1'000'001}}, QStringLiteral("credit_limit_out_of_range"));
        const auto row = [](const char *name, const char *method, const QString &tail, const QJsonObject &body,
                            const QString &reason) {
            QTest::newRow(name) << QByteArray(method) << tail << body << 400 << reason;
        };
        row("update: GSTIN", "PUT", {}, {{QStringLiteral("gstin"), QStringLiteral("27AAPFU0939F1ZW")}},
            QStringLiteral("invalid_gstin"));
        row("update: mobile", "PUT", {}, {{QStringLiteral("mobile"), QStringLiteral("12345")}},
            QStringLiteral("invalid_mobile"));
        row("update: nothing", "PUT", {}, {}, QStringLiteral("nothing_to_update"));
        row("topup: zero", "POST", QStringLiteral("/topups"),
            {{QStringLiteral("amount"), 0}, {QStringLiteral("method"), QStringLiteral("cash")}},
            QStringLiteral("amount_out_of_range"));
        row("topup: too much", "POST", QStringLiteral("/topups"),
            {{QStringLiteral("amount"), 1'000'001}, {QStringLiteral("method"), QStringLiteral("cash")}},
            QStringLiteral("amount_out_of_range"));
        row("topup: method", "POST", QStringLiteral("/topups"),
            {{QStringLiteral("amount"), 10}, {QStringLiteral("method"), QStringLiteral("cheque")}},
            QStringLiteral("invalid_method"));
        row("topup: UPI without reference", "POST", QStringLiteral("/topups"),
            {{QStringLiteral("amount"), 10}, {QStringLiteral("method"), QStringLiteral("upi")}},
            QStringLiteral("invalid_reference"));
        row("limit: negative", "PUT", QStringLiteral("/credit-limit"), {{QStringLiteral("credit_limit"), -1}},
            QStringLiteral("not_an_integer"));
        row("limit: too high", "PUT", QStringLiteral("/credit-limit"), {{QStringLiteral("credit_limit"), 1'000'001}},
            QStringLiteral("credit_limit_out_of_range"));
        row("suspend: no reason", "POST", QStringLiteral("/suspend"),
            {{QStringLiteral("reason"), QStringLiteral("  ")}}, QStringLiteral("missing_field"));
        row("suspend: long reason", "POST", QStringLiteral("/suspend"),
            {{QStringLiteral("reason"), QString(201, QLatin1Char('x'))}}, QStringLiteral("invalid_reason"));
        row("margins: unknown operator", "PUT", QStringLiteral("/margins"),
            {{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("ZZ"), 10}}}}, QString());
        row("margins: too high", "PUT", QStringLiteral("/margins"),
            {{QStringLiteral("discount_basis_points"), QJsonObject{{QStringLiteral("RJ"), 2001}}}}, QString());
        row("statement: from after to", "GET", QStringLiteral("/statement?from=2026-03-02&to=2026-03-01"), {},
            QStringLiteral("invalid_date_range"));
        row("statement: 367 days", "GET", QStringLiteral("/statement?from=2025-01-01&to=2026-01-02"), {},
            QStringLiteral("invalid_date_range"));
        row("statement: not a date", "GET", QStringLiteral("/statement?from=yesterday&to=2026-01-02"), {},
            QStringLiteral("invalid_date_range"));
        row("statement: no dates", "GET", QStringLiteral("/statement"), {}, QStringLiteral("invalid_date_range"));
    }

    void badInputChangesNothing()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, tail);
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, reason);
        static qint64 id = 0;
        if (id == 0) {
            id = idOf(addShop(uniqueName(QStringLiteral("Untouched")), QStringLiteral("Asha"),
                              QStringLiteral("9876543210"), kValidGstin));
            QCOMPARE(topup(id, 100).status, 201);
        }
        const QJsonObject before = comparable(shop(id));
        const qint64 shopsBefore = scalar(QStringLiteral("SELECT COUNT(*) FROM shops"));
        const qint64 ledgerBefore = scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger"));
        const QString path = tail.isNull() && method == "POST" ? kShops : shopPath(id, tail);
        const HttpResult r = call(method, path, m_server->liveAdmin(), body);
        QVERIFY2(r.status == status, qPrintable(describe(r)));
        if (!reason.isEmpty())
            QCOMPARE(reasonOf(r), reason);
        QVERIFY(!r.error().value(QStringLiteral("description")).toString().isEmpty());
        QCOMPARE(comparable(shop(id)), before);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM shops")), shopsBefore);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger")), ledgerBefore);
    }

    // The last contact in memory reaches shops.last_contact_at when flushed, only forward in time (several servers
    // flush theirs), and the list shows it.
    void lastContactIsWrittenForwardOnly()
    {
        const qint64 id = idOf(addShop(uniqueName(QStringLiteral("Contact"))));
        QVERIFY(shop(id).value(QStringLiteral("last_contact_at")).isNull());
        const ManualClock later(QDateTime::currentDateTimeUtc().addSecs(3600));
        ContactTracker tracker(later);
        tracker.mark(id);
        QCOMPARE(tracker.lastContactMs(id), std::optional<qint64>(later.nowMs()));
        tracker.flush(m_server->db());
        const QString sql = QStringLiteral("SELECT last_contact_at FROM shops WHERE account_id = %1").arg(id);
        QCOMPARE(scalar(sql), later.nowMs());
        const ManualClock earlier(QDateTime::currentDateTimeUtc().addSecs(-3600));
        ContactTracker other(earlier);
        other.mark(id);
        other.flush(m_server->db());
        QCOMPARE(scalar(sql), later.nowMs());
        QCOMPARE(shop(id).value(QStringLiteral("last_contact_at")).toString(), IstTime::format(later.nowUtc()));
    }

    // An id that is no shop: a number of no account, the distributor's own account, not a number.
    void unknownShops()
    {
        const qint64 distributor = scalar(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        for (const QString &id : {QStringLiteral("999999"), QString::number(distributor), QStringLiteral("abc")}) {
            const HttpResult r = call("GET", kShops + QLatin1Char('/') + id, m_server->liveAdmin());
            QCOMPARE(r.status, 404);
            QCOMPARE(reasonOf(r), QStringLiteral("shop_not_found"));
        }
        // A test admin key reads but does not change shops.
        const HttpResult r =
            call("POST", kShops, m_server->admin(), QJsonObject{{QStringLiteral("name"), QStringLiteral("Nope")}});
        QCOMPARE(reasonOf(r), QStringLiteral("live_authority_required"));
        QCOMPARE(call("GET", kShops, m_server->admin()).status, 200);
        QCOMPARE(reasonOf(call("GET", kShops, m_server->pos())), QStringLiteral("admin_scope_required"));
    }
};

QTEST_GUILESS_MAIN(TestShopsApi)
#include "tst_shopsapi.moc"
