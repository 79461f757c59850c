// Issue 30, fund requests over real HTTP. At one distributor: a shop submits (with a slip), the same reference_id again
// answers the first; bad input is refused with nothing stored; another shop's key cannot read or decide, a shop never
// approves its own; an approval credits the shop's live wallet once (a second one refused, the balance unchanged), a
// rejection keeps its reason; duplicate UTRs are flagged; the lists' order. Then a shop server chained to the
// distributor (two servers in this process): the shop submits through its own route, the distributor decides, and the
// shop's live wallet is credited once by the distributor's event.fund_request webhook or, without it, by polling; a
// rejection comes back rejected; a refusal stays refused; the float comparison answers the right figures. Runs on
// SQLite and (pg_fundrequestsapi) PostgreSQL.
#include "complaintclient.h"
#include "money.h"
#include "services/walletservice.h"
#include "specaggregator.h"
#include "testserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace {

const QString kRequests = QStringLiteral("/api/v1/fund-requests");
const QString kPassword = QStringLiteral("fund-chain-password");

QString describe(const HttpResult &result)
{
    return QStringLiteral("%1 %2").arg(result.status).arg(QString::fromUtf8(result.body.left(400)));
}

QString reasonOf(const HttpResult &result)
{
    return result.error().value(QStringLiteral("reason")).toString();
}

/// `size` bytes that start as a PNG file does.
QByteArray pngBytes(qsizetype size = 300)
{
    QByteArray bytes("\x89PNG\r\n\x1a\n", 8);
    bytes.append(QByteArray(size - bytes.size(), 'p'));
    return bytes;
}

QJsonObject slipOf(const QByteArray &bytes, const QString &type = QStringLiteral("image/png"))
{
    return QJsonObject{{QStringLiteral("content_type"), type},
                       {QStringLiteral("data"), QString::fromLatin1(bytes.toBase64())}};
}

QJsonObject requestBody(qint64 rupees, const QString &utr, const QString &reference = {})
{
    QJsonObject body{{QStringLiteral("amount"), rupees},
                     {QStringLiteral("method"), QStringLiteral("upi")},
                     {QStringLiteral("utr"), utr},
                     {QStringLiteral("note"), QStringLiteral("paid at the counter")}};
    if (!reference.isEmpty())
        body.insert(QStringLiteral("reference_id"), reference);
    return body;
}

qint64 scalar(TestServer &server, const QString &sql, const QVariantList &values = {})
{
    QSqlQuery &q = server.db().run(sql, values);
    const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
    q.finish();
    return value;
}

qint64 accountId(TestServer &server, const QString &name)
{
    return scalar(server, QStringLiteral("SELECT id FROM accounts WHERE name = ?"), {name});
}

/// Every wallet of the server equals the sum of its ledger.
void checkLedgers(TestServer &server)
{
    QCOMPARE(scalar(server, QStringLiteral("SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT"
                                           " COALESCE(SUM(amount), 0) FROM wallet_ledger l WHERE l.account_id ="
                                           " w.account_id AND l.mode = w.mode)")),
             0);
}

QList<qint64> idsOf(const HttpResult &list)
{
    QList<qint64> ids;
    for (const QJsonValue &item : list.data().value(QStringLiteral("items")).toArray())
        ids.append(item.toObject().value(QStringLiteral("id")).toInteger());
    return ids;
}

} // namespace

class TestFundRequestsApi final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_distributor;
    std::unique_ptr<ComplaintClient> m_atDistributor; ///< any call to the distributor
    QByteArray m_kiranaLive;                          ///< live pos key of the shop "kirana" at the distributor
    QByteArray m_kiranaLiveAdmin;                     ///< live admin-scope key of "kirana" (still a shop's)
    QByteArray m_kiranaTest;                          ///< test pos key of "kirana"
    QByteArray m_dukaanLive;                          ///< live pos key of another shop, "dukaan"
    QByteArray m_distributorPos;                      ///< live pos key of the distributor's own account

    // The shop server of the chained tests.
    std::unique_ptr<TestServer> m_shop;
    std::unique_ptr<ComplaintClient> m_atShop;
    QByteArray m_shopLiveAdmin;
    QByteArray m_shopLivePos;

    void startDistributor()
    {
        m_distributor = std::make_unique<TestServer>();
        m_atDistributor = std::make_unique<ComplaintClient>(
            m_distributor->http(), [server = m_distributor.get()](const QString &path) { return server->url(path); });
        m_kiranaLive = m_distributor->createKey(Mode::Live, Scope::Pos, QStringLiteral("kirana"));
        m_kiranaLiveAdmin = m_distributor->createKey(Mode::Live, Scope::Admin, QStringLiteral("kirana"));
        m_kiranaTest = m_distributor->createKey(Mode::Test, Scope::Pos, QStringLiteral("kirana"));
        m_dukaanLive = m_distributor->createKey(Mode::Live, Scope::Pos, QStringLiteral("dukaan"));
        m_distributorPos = m_distributor->createKey(Mode::Live, Scope::Pos);
    }

    HttpResult submit(const QByteArray &key, const QJsonObject &body)
    {
        return m_atDistributor->send("POST", kRequests, key, body);
    }

    /// A request of `key`'s shop that must be taken; its id.
    qint64 submitted(const QByteArray &key, qint64 rupees, const QString &utr)
    {
        const HttpResult r = submit(key, requestBody(rupees, utr));
        if (r.status != 201)
            qWarning("submit: %s", qPrintable(describe(r)));
        return r.status == 201 ? r.data().value(QStringLiteral("id")).toInteger() : -1;
    }

    HttpResult decide(qint64 id, const char *step, const QByteArray &key, const QJsonObject &body = {})
    {
        return m_atDistributor->send("POST", QStringLiteral("%1/%2/%3").arg(kRequests).arg(id).arg(QLatin1String(step)),
                                     key, body);
    }

    qint64 liveBalance(const QByteArray &key)
    {
        return m_atDistributor->send("GET", QStringLiteral("/api/v1/wallet"), key)
            .data()
            .value(QStringLiteral("balance_paise"))
            .toInteger(-1);
    }

    qint64 storedRequests() { return scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM fund_requests")); }

    /// The states of the event.fund_request webhooks queued for `account`, oldest first.
    QStringList fundEvents(qint64 account)
    {
        QStringList states;
        QSqlQuery &q = m_distributor->db().run(QStringLiteral("SELECT payload, mode FROM webhook_events WHERE"
                                                              " account_id = ? AND event_type = 'event.fund_request'"
                                                              " ORDER BY id"),
                                               {account});
        while (q.next())
            states.append(q.value(1).toString() + QLatin1Char(':') +
                          QJsonDocument::fromJson(q.value(0).toString().toUtf8())
                              .object()
                              .value(QStringLiteral("state"))
                              .toString());
        q.finish();
        return states;
    }

    /// Starts the shop server whose RechargeDesk upstream is the distributor, with the shop's live key there.
    void startShop(double retryScale)
    {
        const CreatedKey kirana = m_distributor->createKeyPair(Mode::Live, Scope::Pos, QStringLiteral("kirana"));
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamTimeoutMs = 5000;
        options.upstreamRetryScale = retryScale;
        m_shop = std::make_unique<TestServer>(options);
        m_atShop = std::make_unique<ComplaintClient>(
            m_shop->http(), [server = m_shop.get()](const QString &path) { return server->url(path); });
        m_shopLiveAdmin = m_shop->createKey(Mode::Live, Scope::Admin);
        m_shopLivePos = m_shop->createKey(Mode::Live, Scope::Pos);
        WalletService(m_shop->db(), SystemClock())
            .topup(accountId(*m_shop, QStringLiteral("shop")), Mode::Live, 10'000 * 100, QStringLiteral("float"),
                   QStringLiteral("tests"));
        const HttpResult set = m_atShop->send(
            "PUT", QStringLiteral("/api/v1/upstream"), m_shopLiveAdmin,
            QJsonObject{{QStringLiteral("base_url"), m_distributor->url(QStringLiteral("/api/v1")).toString()},
                        {QStringLiteral("key_id"), kirana.keyId},
                        {QStringLiteral("key_secret"), kirana.secret},
                        {QStringLiteral("webhook_password"), kPassword}});
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
        const QJsonObject offers = set.data().value(QStringLiteral("offers")).toObject();
        QVERIFY2(offers.value(QStringLiteral("fund_requests")).toBool() &&
                     offers.value(QStringLiteral("balance")).toBool(),
                 QJsonDocument(offers).toJson().constData());
    }

    HttpResult shopSubmit(const QJsonObject &body)
    {
        return m_atShop->send("POST", QStringLiteral("/api/v1/upstreams/default/fund-requests"), m_shopLiveAdmin, body);
    }

    /// The shop's record of its request `id` ("" state when not listed).
    QJsonObject shopRecord(qint64 id)
    {
        const HttpResult list =
            m_atShop->send("GET", QStringLiteral("/api/v1/upstreams/default/fund-requests"), m_shopLiveAdmin);
        for (const QJsonValue &item : list.data().value(QStringLiteral("items")).toArray()) {
            if (item.toObject().value(QStringLiteral("id")).toInteger() == id)
                return item.toObject();
        }
        return {};
    }

    qint64 shopLiveBalance()
    {
        return m_atShop->send("GET", QStringLiteral("/api/v1/wallet"), m_shopLivePos)
            .data()
            .value(QStringLiteral("balance_paise"))
            .toInteger(-1);
    }

    /// Ledger rows of the shop's credits for fund requests.
    qint64 shopFundCredits()
    {
        return scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE mode = 'live' AND kind ="
                                              " 'topup' AND note LIKE 'fund request %'"));
    }

    /// POSTs to the shop's /hooks/upstream/default what the distributor would deliver for its latest
    /// event.fund_request about request `remoteId` (the distributor refuses to deliver a live webhook to a loopback
    /// address, so the test carries it).
    HttpResult deliverLatestEvent(qint64 remoteId)
    {
        QSqlQuery &q = m_distributor->db().run(QStringLiteral("SELECT payload FROM webhook_events WHERE event_type ="
                                                              " 'event.fund_request' ORDER BY id DESC"));
        QJsonObject payload;
        while (q.next()) {
            const QJsonObject candidate = QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
            if (candidate.value(QStringLiteral("id")).toInteger() == remoteId) {
                payload = candidate;
                break;
            }
        }
        q.finish();
        const QJsonObject body{{QStringLiteral("data"),
                                QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook")},
                                            {QStringLiteral("webhook_event"), QStringLiteral("event.fund_request")},
                                            {QStringLiteral("webhook_password"), kPassword},
                                            {QStringLiteral("payload"), payload}}}};
        return m_shop->http().send("POST", m_shop->url(QStringLiteral("/hooks/upstream/default")),
                                   QJsonDocument(body).toJson(QJsonDocument::Compact),
                                   {{"Content-Type", "application/json"}});
    }

private slots:
    void init() { startDistributor(); }

    void cleanup()
    {
        m_atShop.reset();
        m_shop.reset();
        m_atDistributor.reset();
        m_distributor.reset();
    }

    void submitWithSlipOnce()
    {
        QJsonObject body = requestBody(2500, QStringLiteral("  abc123utr99 "), QStringLiteral("kirana-fr-1"));
        const QByteArray slip = pngBytes(4000);
        body.insert(QStringLiteral("slip"), slipOf(slip));
        const HttpResult first = submit(m_kiranaLive, body);
        QVERIFY2(first.status == 201, qPrintable(describe(first)));
        const QJsonObject r = first.data();
        QCOMPARE(r.value(QStringLiteral("entity")).toString(), QStringLiteral("fund_request"));
        QCOMPARE(r.value(QStringLiteral("amount")).toString(), QStringLiteral("₹2500.00"));
        QCOMPARE(r.value(QStringLiteral("utr")).toString(), QStringLiteral("ABC123UTR99"));
        QCOMPARE(r.value(QStringLiteral("state")).toString(), QStringLiteral("pending"));
        QCOMPARE(r.value(QStringLiteral("has_slip")).toBool(), true);
        QCOMPARE(r.value(QStringLiteral("duplicate_utr")).toBool(), false);
        QVERIFY(r.value(QStringLiteral("reason")).isNull());
        QCOMPARE(r.value(QStringLiteral("shop")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("kirana"));
        const qint64 id = r.value(QStringLiteral("id")).toInteger();

        const HttpResult again = submit(m_kiranaLive, body);
        QVERIFY2(again.status == 200, qPrintable(describe(again)));
        QCOMPARE(again.data().value(QStringLiteral("id")).toInteger(), id);
        QCOMPARE(storedRequests(), 1);
        QJsonObject other = body;
        other.insert(QStringLiteral("amount"), 2600);
        const HttpResult reused = submit(m_kiranaLive, other);
        QCOMPARE(reused.status, 409);
        QCOMPARE(reasonOf(reused), QStringLiteral("reference_id_reused"));
        QCOMPARE(storedRequests(), 1);

        const HttpResult image = m_atDistributor->send("GET", QStringLiteral("%1/%2/slip").arg(kRequests).arg(id),
                                                       m_distributor->liveAdmin());
        QCOMPARE(image.status, 200);
        QCOMPARE(image.header("content-type"), QByteArray("image/png"));
        QCOMPARE(image.body, slip);
        QCOMPARE(m_atDistributor->send("GET", QStringLiteral("%1/%2/slip").arg(kRequests).arg(id), m_kiranaLive).body,
                 slip);
        QCOMPARE(fundEvents(accountId(*m_distributor, QStringLiteral("kirana"))),
                 QStringList{QStringLiteral("live:pending")});
    }

    void badInputStoresNothing_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        const QJsonObject good = requestBody(500, QStringLiteral("UTR123456"));
        const auto with = [&good](const QString &field, const QJsonValue &value) {
            QJsonObject body = good;
            body.insert(field, value);
            return body;
        };
        QJsonObject noUtr = good;
        noUtr.remove(QStringLiteral("utr"));
        QTest::newRow("amount 0") << with(QStringLiteral("amount"), 0) << "amount"
                                  << "amount_out_of_range";
        QTest::newRow("amount too large") << with(QStringLiteral("amount"), 1'000'001) << "amount"
                                          << "amount_out_of_range";
        QTest::newRow("amount decimal") << with(QStringLiteral("amount"), QStringLiteral("12.5")) << "amount"
                                        << "not_an_integer";
        QTest::newRow("bad method") << with(QStringLiteral("method"), QStringLiteral("cheque")) << "method"
                                    << "invalid_method";
        QTest::newRow("short utr") << with(QStringLiteral("utr"), QStringLiteral("12345")) << "utr"
                                   << "invalid_utr";
        QTest::newRow("utr with spaces") << with(QStringLiteral("utr"), QStringLiteral("UTR 123 456")) << "utr"
                                         << "invalid_utr";
        QTest::newRow("no utr") << noUtr << "utr"
                                << "missing_field";
        QTest::newRow("note too long") << with(QStringLiteral("note"), QString(201, QLatin1Char('n'))) << "note"
                                       << "invalid_note";
        QTest::newRow("bad reference") << with(QStringLiteral("reference_id"), QStringLiteral("a b")) << "reference_id"
                                       << "invalid_reference_id";
        QTest::newRow("slip not an image")
            << with(QStringLiteral("slip"), slipOf(QByteArray("hello, not a png"))) << "slip"
            << "invalid_slip";
        QTest::newRow("slip jpeg said png")
            << with(QStringLiteral("slip"), slipOf(QByteArray("\xff\xd8\xff\xe0 jpeg", 9))) << "slip"
            << "invalid_slip";
        QTest::newRow("slip gif") << with(QStringLiteral("slip"), slipOf(pngBytes(), QStringLiteral("image/gif")))
                                  << "slip"
                                  << "invalid_slip";
        QTest::newRow("slip not base64")
            << with(QStringLiteral("slip"), QJsonObject{{QStringLiteral("content_type"), QStringLiteral("image/png")},
                                                        {QStringLiteral("data"), QStringLiteral("%%%not base64%%%")}})
            << "slip"
            << "invalid_slip";
        QTest::newRow("slip over 1 MiB") << with(QStringLiteral("slip"), slipOf(pngBytes((1 << 20) + 1))) << "slip"
                                         << "slip_too_large";
    }

    void badInputStoresNothing()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const HttpResult r = submit(m_kiranaLive, body);
        QVERIFY2(r.status == 400, qPrintable(describe(r)));
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(reasonOf(r), reason);
        QCOMPARE(storedRequests(), 0);
        QCOMPARE(scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM fund_request_slips")), 0);
    }

    void slipOfOneMiBIsTaken()
    {
        QJsonObject body = requestBody(100, QStringLiteral("UTR0000001"));
        body.insert(QStringLiteral("slip"), slipOf(pngBytes(1 << 20)));
        const HttpResult r = submit(m_kiranaLive, body);
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("has_slip")).toBool(), true);
    }

    void whoMayCall()
    {
        const HttpResult distributor = submit(m_distributorPos, requestBody(100, QStringLiteral("UTR0000001")));
        QCOMPARE(distributor.status, 403);
        QCOMPARE(reasonOf(distributor), QStringLiteral("not_a_shop"));
        const HttpResult test = submit(m_kiranaTest, requestBody(100, QStringLiteral("UTR0000001")));
        QCOMPARE(test.status, 403);
        QCOMPARE(reasonOf(test), QStringLiteral("live_key_required"));
        QCOMPARE(storedRequests(), 0);

        QJsonObject withSlip = requestBody(100, QStringLiteral("UTR0000002"));
        withSlip.insert(QStringLiteral("slip"), slipOf(pngBytes()));
        const HttpResult made = submit(m_kiranaLive, withSlip);
        QCOMPARE(made.status, 201);
        const qint64 id = made.data().value(QStringLiteral("id")).toInteger();
        const QString one = QStringLiteral("%1/%2").arg(kRequests).arg(id);
        // Another shop: it does not exist for it; it cannot decide anything.
        QCOMPARE(reasonOf(m_atDistributor->send("GET", one, m_dukaanLive)), QStringLiteral("fund_request_not_found"));
        QCOMPARE(m_atDistributor->send("GET", one + QStringLiteral("/slip"), m_dukaanLive).status, 404);
        QVERIFY(idsOf(m_atDistributor->send("GET", kRequests, m_dukaanLive)).isEmpty());
        QCOMPARE(reasonOf(decide(id, "approve", m_dukaanLive)), QStringLiteral("admin_scope_required"));
        // The shop itself, even with an admin-scope key, never approves its own.
        const HttpResult own = decide(id, "approve", m_kiranaLiveAdmin);
        QCOMPARE(own.status, 403);
        QCOMPARE(reasonOf(own), QStringLiteral("distributor_only"));
        QCOMPARE(reasonOf(decide(id, "reject", m_kiranaLiveAdmin, {{QStringLiteral("reason"), QStringLiteral("x")}})),
                 QStringLiteral("distributor_only"));
        // The distributor: a test admin key moves no live money; a pos key does not read the shops' requests.
        QCOMPARE(reasonOf(decide(id, "approve", m_distributor->admin())), QStringLiteral("live_authority_required"));
        const HttpResult clerkList = m_atDistributor->send("GET", kRequests, m_distributorPos);
        QCOMPARE(clerkList.status, 200);
        QVERIFY(idsOf(clerkList).isEmpty());
        QCOMPARE(reasonOf(m_atDistributor->send("GET", one, m_distributorPos)),
                 QStringLiteral("fund_request_not_found"));
        QCOMPARE(idsOf(m_atDistributor->send("GET", kRequests, m_distributor->admin())), QList<qint64>{id});
        QCOMPARE(m_atDistributor->send("GET", one, m_distributor->admin()).status, 200);
        QCOMPARE(m_atDistributor->send("GET", one, m_kiranaLive).status, 200);
        QCOMPARE(scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM fund_requests WHERE state = 'pending'")),
                 1);
        QCOMPARE(liveBalance(m_kiranaLive), 0);
    }

    // A suspended shop still asks, reads and pays (contract "Suspension"); its sales stay refused.
    void suspendedShopStillAsks()
    {
        const qint64 kirana = accountId(*m_distributor, QStringLiteral("kirana"));
        const HttpResult suspended = m_atDistributor->send(
            "POST", QStringLiteral("/api/v1/shops/%1/suspend").arg(kirana), m_distributor->liveAdmin(),
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("float unpaid")}});
        QVERIFY2(suspended.status == 200, qPrintable(describe(suspended)));
        const HttpResult sale =
            m_atDistributor->send("POST", QStringLiteral("/api/v1/recharge/mobile/initiate-transaction"), m_kiranaLive,
                                  QJsonObject{{QStringLiteral("phone_number"), QStringLiteral("9876543210")},
                                              {QStringLiteral("amount"), 199},
                                              {QStringLiteral("operator_code"), QStringLiteral("AT")}});
        QCOMPARE(reasonOf(sale), QStringLiteral("account_suspended"));
        QJsonObject body = requestBody(5000, QStringLiteral("UTR7777777"));
        body.insert(QStringLiteral("slip"), slipOf(pngBytes(200'000))); // through the larger body limit too
        const HttpResult asked = submit(m_kiranaLive, body);
        QVERIFY2(asked.status == 201, qPrintable(describe(asked)));
        const qint64 id = asked.data().value(QStringLiteral("id")).toInteger();
        QCOMPARE(idsOf(m_atDistributor->send("GET", kRequests, m_kiranaLive)), QList<qint64>{id});
        QCOMPARE(m_atDistributor->send("GET", QStringLiteral("%1/%2/slip").arg(kRequests).arg(id), m_kiranaLive).status,
                 200);
        QCOMPARE(decide(id, "approve", m_distributor->liveAdmin()).status, 200);
        QCOMPARE(liveBalance(m_kiranaLive), 5000 * 100);
    }

    void approveCreditsOnce()
    {
        const qint64 id = submitted(m_kiranaLive, 750, QStringLiteral("AXIS0001234"));
        QVERIFY(id > 0);
        QCOMPARE(liveBalance(m_kiranaLive), 0);
        const HttpResult approved = decide(id, "approve", m_distributor->liveAdmin());
        QVERIFY2(approved.status == 200, qPrintable(describe(approved)));
        QCOMPARE(approved.data().value(QStringLiteral("state")).toString(), QStringLiteral("approved"));
        QVERIFY(!approved.data().value(QStringLiteral("decided_by")).toString().isEmpty());
        QVERIFY(!approved.data().value(QStringLiteral("decided_at")).isNull());
        QCOMPARE(liveBalance(m_kiranaLive), 750 * 100);
        QCOMPARE(scalar(*m_distributor,
                        QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE note = ? AND kind ="
                                       " 'topup' AND mode = 'live' AND amount = 75000"),
                        {QStringLiteral("fund request %1 · UPI UTR AXIS0001234").arg(id)}),
                 1);
        QCOMPARE(scalar(*m_distributor,
                        QStringLiteral("SELECT COUNT(*) FROM fund_requests WHERE id = ? AND ledger_id"
                                       " = (SELECT MAX(id) FROM wallet_ledger)"),
                        {id}),
                 1);

        const HttpResult twice = decide(id, "approve", m_distributor->liveAdmin());
        QCOMPARE(twice.status, 409);
        QCOMPARE(reasonOf(twice), QStringLiteral("fund_request_decided"));
        const HttpResult rejectAfter =
            decide(id, "reject", m_distributor->liveAdmin(), {{QStringLiteral("reason"), QStringLiteral("late")}});
        QCOMPARE(reasonOf(rejectAfter), QStringLiteral("fund_request_decided"));
        QCOMPARE(liveBalance(m_kiranaLive), 750 * 100);
        QCOMPARE(m_atDistributor->send("GET", QStringLiteral("%1/%2").arg(kRequests).arg(id), m_kiranaLive)
                     .data()
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("approved"));
        QCOMPARE(fundEvents(accountId(*m_distributor, QStringLiteral("kirana"))),
                 (QStringList{QStringLiteral("live:pending"), QStringLiteral("live:approved")}));
        QCOMPARE(scalar(*m_distributor,
                        QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'fund_request.approve'")),
                 1);
        checkLedgers(*m_distributor);
    }

    void rejectWithReason()
    {
        const qint64 id = submitted(m_kiranaLive, 300, QStringLiteral("HDFC0009876"));
        QCOMPARE(reasonOf(decide(id, "reject", m_distributor->liveAdmin())), QStringLiteral("invalid_reason"));
        QCOMPARE(reasonOf(decide(id, "reject", m_distributor->liveAdmin(),
                                 {{QStringLiteral("reason"), QString(201, QLatin1Char('r'))}})),
                 QStringLiteral("invalid_reason"));
        const HttpResult rejected = decide(id, "reject", m_distributor->liveAdmin(),
                                           {{QStringLiteral("reason"), QStringLiteral("no such credit in our bank")}});
        QVERIFY2(rejected.status == 200, qPrintable(describe(rejected)));
        QCOMPARE(rejected.data().value(QStringLiteral("state")).toString(), QStringLiteral("rejected"));
        QCOMPARE(rejected.data().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("no such credit in our bank"));
        QCOMPARE(reasonOf(decide(id, "approve", m_distributor->liveAdmin())), QStringLiteral("fund_request_decided"));
        QCOMPARE(liveBalance(m_kiranaLive), 0);
    }

    void duplicatesAndOrder()
    {
        const qint64 a1 = submitted(m_kiranaLive, 100, QStringLiteral("SAMEUTR001"));
        const qint64 b1 = submitted(m_dukaanLive, 200, QStringLiteral("sameutr001"));
        const qint64 a2 = submitted(m_kiranaLive, 300, QStringLiteral("OTHERUTR02"));
        const qint64 b2 = submitted(m_dukaanLive, 400, QStringLiteral("OTHERUTR03"));
        QVERIFY(a1 > 0 && b1 > 0 && a2 > 0 && b2 > 0);
        QCOMPARE(decide(a1, "approve", m_distributor->liveAdmin()).status, 200);

        const HttpResult all = m_atDistributor->send("GET", kRequests, m_distributor->liveAdmin());
        QCOMPARE(idsOf(all), (QList<qint64>{b1, a2, b2, a1})); // pending oldest first, then the decided
        QHash<qint64, bool> duplicate;
        for (const QJsonValue &item : all.data().value(QStringLiteral("items")).toArray())
            duplicate.insert(item.toObject().value(QStringLiteral("id")).toInteger(),
                             item.toObject().value(QStringLiteral("duplicate_utr")).toBool());
        QCOMPARE(duplicate.value(a1), true);
        QCOMPARE(duplicate.value(b1), true);
        QCOMPARE(duplicate.value(a2), false);
        QCOMPARE(duplicate.value(b2), false);
        QCOMPARE(idsOf(m_atDistributor->send("GET", kRequests, m_kiranaLive)), (QList<qint64>{a2, a1}));
        QCOMPARE(idsOf(m_atDistributor->send("GET", kRequests + QStringLiteral("?state=pending"), m_kiranaLive)),
                 QList<qint64>{a2});
        QCOMPARE(reasonOf(m_atDistributor->send("GET", kRequests + QStringLiteral("?state=lost"), m_kiranaLive)),
                 QStringLiteral("invalid_query_parameter"));

        // Page by page, the same order.
        QList<qint64> paged;
        QString cursor;
        for (int page = 0; page < 10; ++page) {
            const HttpResult r =
                m_atDistributor->send("GET",
                                      kRequests + QStringLiteral("?limit=1") +
                                          (cursor.isEmpty() ? QString() : QStringLiteral("&cursor=") + cursor),
                                      m_distributor->liveAdmin());
            QCOMPARE(r.status, 200);
            paged += idsOf(r);
            const QJsonValue next = r.data().value(QStringLiteral("next_cursor"));
            if (next.isNull())
                break;
            cursor = next.toString();
        }
        QCOMPARE(paged, (QList<qint64>{b1, a2, b2, a1}));
    }

    // --- A shop server chained to the distributor -------------------------------------------------------------

    void chainApprovedByWebhook()
    {
        startShop(1.0); // the first poll a minute away: the webhook must do it
        QJsonObject body = requestBody(500, QStringLiteral("ICIC0000555"));
        const QByteArray slip = pngBytes(300'000); // more than the usual 64 KiB body: the route's larger limit
        body.insert(QStringLiteral("slip"), slipOf(slip));
        const HttpResult sent = shopSubmit(body);
        QVERIFY2(sent.status == 201, qPrintable(describe(sent)));
        const QJsonObject local = sent.data();
        QCOMPARE(local.value(QStringLiteral("entity")).toString(), QStringLiteral("upstream_fund_request"));
        QCOMPARE(local.value(QStringLiteral("state")).toString(), QStringLiteral("pending"));
        const qint64 localId = local.value(QStringLiteral("id")).toInteger();
        const qint64 remoteId = local.value(QStringLiteral("remote_id")).toInteger();
        QVERIFY(remoteId > 0);
        const QJsonObject there =
            m_atDistributor
                ->send("GET", QStringLiteral("%1/%2").arg(kRequests).arg(remoteId), m_distributor->liveAdmin())
                .data();
        QCOMPARE(there.value(QStringLiteral("has_slip")).toBool(), true);
        QCOMPARE(
            m_atDistributor
                ->send("GET", QStringLiteral("%1/%2/slip").arg(kRequests).arg(remoteId), m_distributor->liveAdmin())
                .body,
            slip);
        // Taken by the upstream: the shop keeps no copy of the slip.
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM upstream_fund_requests WHERE slip_data IS NOT"
                                                " NULL")),
                 0);
        QVERIFY(there.value(QStringLiteral("reference_id")).toString().startsWith(QStringLiteral("fr-")));
        QCOMPARE(there.value(QStringLiteral("shop")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("kirana"));

        QCOMPARE(decide(remoteId, "approve", m_distributor->liveAdmin()).status, 200);
        const qint64 before = shopLiveBalance();
        QCOMPARE(before, 10'000 * 100);
        const HttpResult hook = deliverLatestEvent(remoteId);
        QVERIFY2(hook.status == 200, qPrintable(describe(hook)));
        QCOMPARE(shopRecord(localId).value(QStringLiteral("state")).toString(), QStringLiteral("approved"));
        QVERIFY(!shopRecord(localId).value(QStringLiteral("credited_at")).isNull());
        QCOMPARE(shopLiveBalance(), before + 500 * 100);
        // The same event again (a redelivery) credits nothing more.
        QCOMPARE(deliverLatestEvent(remoteId).status, 200);
        QCOMPARE(shopLiveBalance(), before + 500 * 100);
        QCOMPARE(shopFundCredits(), 1);
        checkLedgers(*m_shop);
        checkLedgers(*m_distributor);
    }

    void chainApprovedByPolling()
    {
        startShop(0.01); // polls after about 600 ms
        const HttpResult sent = shopSubmit(requestBody(800, QStringLiteral("SBIN0000777")));
        QVERIFY2(sent.status == 201, qPrintable(describe(sent)));
        const qint64 localId = sent.data().value(QStringLiteral("id")).toInteger();
        const qint64 remoteId = sent.data().value(QStringLiteral("remote_id")).toInteger();
        QCOMPARE(decide(remoteId, "approve", m_distributor->liveAdmin()).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(shopRecord(localId).value(QStringLiteral("state")).toString(),
                                  QStringLiteral("approved"), 15'000);
        QCOMPARE(shopLiveBalance(), (10'000 + 800) * 100);
        QCOMPARE(shopFundCredits(), 1);
        // A late webhook of the same approval changes nothing.
        QCOMPARE(deliverLatestEvent(remoteId).status, 200);
        QCOMPARE(shopLiveBalance(), (10'000 + 800) * 100);
        checkLedgers(*m_shop);
    }

    void chainRejectedComesBack()
    {
        startShop(0.01);
        const HttpResult sent = shopSubmit(requestBody(900, QStringLiteral("PUNB0000888")));
        QVERIFY2(sent.status == 201, qPrintable(describe(sent)));
        const qint64 localId = sent.data().value(QStringLiteral("id")).toInteger();
        const qint64 remoteId = sent.data().value(QStringLiteral("remote_id")).toInteger();
        QCOMPARE(decide(remoteId, "reject", m_distributor->liveAdmin(),
                        {{QStringLiteral("reason"), QStringLiteral("UTR not found in our statement")}})
                     .status,
                 200);
        QTRY_COMPARE_WITH_TIMEOUT(shopRecord(localId).value(QStringLiteral("state")).toString(),
                                  QStringLiteral("rejected"), 15'000);
        QCOMPARE(shopRecord(localId).value(QStringLiteral("reason")).toString(),
                 QStringLiteral("UTR not found in our statement"));
        QVERIFY(shopRecord(localId).value(QStringLiteral("credited_at")).isNull());
        QCOMPARE(shopLiveBalance(), 10'000 * 100);
        QCOMPARE(shopFundCredits(), 0);
    }

    void chainRefusedAndBadInput()
    {
        startShop(0.01);
        // Bad input never leaves the shop.
        const HttpResult bad = shopSubmit(requestBody(0, QStringLiteral("PUNB0000888")));
        QCOMPARE(bad.status, 400);
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM upstream_fund_requests")), 0);
        QCOMPARE(storedRequests(), 0);
        // Only the shop's live admins send; an unknown upstream is 404.
        QCOMPARE(m_atShop
                     ->send("POST", QStringLiteral("/api/v1/upstreams/default/fund-requests"), m_shopLivePos,
                            requestBody(10, QStringLiteral("PUNB0000888")))
                     .status,
                 403);
        QCOMPARE(reasonOf(m_atShop->send("POST", QStringLiteral("/api/v1/upstreams/nowhere/fund-requests"),
                                         m_shopLiveAdmin, requestBody(10, QStringLiteral("PUNB0000888")))),
                 QStringLiteral("unknown_upstream"));
        // The distributor refuses (the shop's key there suspended from fund requests: a test key), so it is refused.
        const CreatedKey test = m_distributor->createKeyPair(Mode::Test, Scope::Pos, QStringLiteral("kirana"));
        const HttpResult set = m_atShop->send(
            "PUT", QStringLiteral("/api/v1/upstream"), m_shopLiveAdmin,
            QJsonObject{{QStringLiteral("base_url"), m_distributor->url(QStringLiteral("/api/v1")).toString()},
                        {QStringLiteral("key_id"), test.keyId},
                        {QStringLiteral("key_secret"), test.secret},
                        {QStringLiteral("webhook_password"), kPassword}});
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
        const HttpResult refused = shopSubmit(requestBody(50, QStringLiteral("PUNB0000999")));
        QVERIFY2(refused.status == 201, qPrintable(describe(refused)));
        QCOMPARE(refused.data().value(QStringLiteral("state")).toString(), QStringLiteral("refused"));
        QVERIFY2(refused.data().value(QStringLiteral("reason")).toString().contains(QStringLiteral("live key")),
                 qPrintable(refused.data().value(QStringLiteral("reason")).toString()));
        QCOMPARE(storedRequests(), 0);
    }

    void chainWalletComparison()
    {
        startShop(1.0); // no poll during the test: the approved request stays uncredited here
        const QString wallet = QStringLiteral("/api/v1/upstreams/default/wallet");
        const HttpResult sent = shopSubmit(requestBody(500, QStringLiteral("KKBK0000123")));
        QVERIFY2(sent.status == 201, qPrintable(describe(sent)));
        const qint64 remoteId = sent.data().value(QStringLiteral("remote_id")).toInteger();
        QCOMPARE(decide(remoteId, "approve", m_distributor->liveAdmin()).status, 200);
        // A live sale the distributor cannot take (no live provider there: 503): debited here, unknown there.
        const HttpResult sale =
            m_atShop->send("POST", QStringLiteral("/api/v1/recharge/mobile/initiate-transaction"), m_shopLivePos,
                           QJsonObject{{QStringLiteral("phone_number"), QStringLiteral("9876543210")},
                                       {QStringLiteral("amount"), 199},
                                       {QStringLiteral("operator_code"), QStringLiteral("AT")}});
        QVERIFY2(sale.status == 200, qPrintable(describe(sale)));
        QCOMPARE(sale.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        const qint64 saleId = sale.data().value(QStringLiteral("transaction_id")).toInteger();
        const Paise paid = Money::parse(sale.data().value(QStringLiteral("paid")).toString()).value_or(-1);
        QVERIFY(paid > 0);

        const HttpResult first = m_atShop->send("GET", wallet, m_shopLivePos);
        QVERIFY2(first.status == 200, qPrintable(describe(first)));
        const QJsonObject w = first.data();
        QCOMPARE(w.value(QStringLiteral("entity")).toString(), QStringLiteral("upstream_wallet"));
        QCOMPARE(w.value(QStringLiteral("upstream")).toString(), QStringLiteral("default"));
        QVERIFY2(w.value(QStringLiteral("error")).isNull(), QJsonDocument(w).toJson().constData());
        QCOMPARE(w.value(QStringLiteral("balance")).toString(), QStringLiteral("₹500.00"));
        QCOMPARE(w.value(QStringLiteral("local_balance")).toString(), Money::format(10'000 * 100 - paid));
        QCOMPARE(w.value(QStringLiteral("difference")).toString(), Money::format(9'500 * 100 - paid));
        const QJsonArray explained = w.value(QStringLiteral("explained")).toArray();
        QCOMPARE(explained.size(), 2);
        const QJsonObject unknown = explained.first().toObject();
        QCOMPARE(unknown.value(QStringLiteral("kind")).toString(), QStringLiteral("unknown_at_upstream"));
        QCOMPARE(unknown.value(QStringLiteral("count")).toInteger(), 1);
        QCOMPARE(unknown.value(QStringLiteral("amount")).toString(), Money::format(-paid));
        QCOMPARE(unknown.value(QStringLiteral("transaction_ids")).toArray(), QJsonArray{saleId});
        const QJsonObject notCredited = explained.last().toObject();
        QCOMPARE(notCredited.value(QStringLiteral("kind")).toString(), QStringLiteral("fund_request_not_credited"));
        QCOMPARE(notCredited.value(QStringLiteral("count")).toInteger(), 1);
        QCOMPARE(notCredited.value(QStringLiteral("amount")).toString(), QStringLiteral("-₹500.00"));
        QCOMPARE(notCredited.value(QStringLiteral("transaction_ids")).toArray(), QJsonArray{remoteId});
        // The float topped up here by hand is what nothing explains.
        QCOMPARE(w.value(QStringLiteral("unexplained")).toString(), QStringLiteral("₹10000.00"));

        // Kept 30 s: the same answer again.
        QCOMPARE(m_atShop->send("GET", wallet, m_shopLivePos).data(), w);
        // Until the credit arrives: then both figures moved, and the upstream is asked again.
        QCOMPARE(deliverLatestEvent(remoteId).status, 200);
        const QJsonObject after = m_atShop->send("GET", wallet, m_shopLivePos).data();
        QCOMPARE(after.value(QStringLiteral("local_balance")).toString(), Money::format(10'500 * 100 - paid));
        QCOMPARE(after.value(QStringLiteral("difference")).toString(), Money::format(10'000 * 100 - paid));
        QCOMPARE(after.value(QStringLiteral("explained")).toArray().size(), 1); // the request is credited here now
        QCOMPARE(after.value(QStringLiteral("unexplained")).toString(), QStringLiteral("₹10000.00"));

        // Not for an unknown upstream.
        QCOMPARE(reasonOf(m_atShop->send("GET", QStringLiteral("/api/v1/upstreams/nowhere/wallet"), m_shopLivePos)),
                 QStringLiteral("unknown_upstream"));
    }

    // A spec-only aggregator takes no fund requests and answers no balance: both routes say so, nothing is stored.
    void chainSpecOnlyUpstreamOffersNeither()
    {
        startShop(1.0);
        SpecAggregator aggregator(QStringLiteral("ak_live_funds_test"));
        QString error;
        QVERIFY2(aggregator.listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        const HttpResult set =
            m_atShop->send("PUT", QStringLiteral("/api/v1/upstream"), m_shopLiveAdmin,
                           QJsonObject{{QStringLiteral("base_url"), aggregator.baseUrl().toString()},
                                       {QStringLiteral("credential"), QStringLiteral("ak_live_funds_test")},
                                       {QStringLiteral("webhook_password"), QStringLiteral("spec-password")}});
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
        QCOMPARE(set.data().value(QStringLiteral("kind")).toString(), QStringLiteral("spec"));
        const HttpResult sent = shopSubmit(requestBody(100, QStringLiteral("UTR5555555")));
        QCOMPARE(sent.status, 409);
        QCOMPARE(reasonOf(sent), QStringLiteral("not_offered"));
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM upstream_fund_requests")), 0);
        const HttpResult wallet =
            m_atShop->send("GET", QStringLiteral("/api/v1/upstreams/default/wallet"), m_shopLivePos);
        QCOMPARE(wallet.status, 409);
        QCOMPARE(reasonOf(wallet), QStringLiteral("not_offered"));
    }

    void chainWalletWhenTheUpstreamIsDown()
    {
        startShop(1.0);
        m_distributor->stop();
        const HttpResult r = m_atShop->send("GET", QStringLiteral("/api/v1/upstreams/default/wallet"), m_shopLivePos);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QVERIFY(r.data().value(QStringLiteral("balance")).isNull());
        QVERIFY(r.data().value(QStringLiteral("difference")).isNull());
        QVERIFY(!r.data().value(QStringLiteral("error")).toString().isEmpty());
        QCOMPARE(r.data().value(QStringLiteral("local_balance")).toString(), QStringLiteral("₹10000.00"));
        // A request sent while the upstream is down stays `sending`; the follow-up sends it again later.
        const HttpResult sent = shopSubmit(requestBody(70, QStringLiteral("YESB0000111")));
        QVERIFY2(sent.status == 201, qPrintable(describe(sent)));
        QCOMPARE(sent.data().value(QStringLiteral("state")).toString(), QStringLiteral("sending"));
        QVERIFY(sent.data().value(QStringLiteral("remote_id")).isNull());
    }
};

QTEST_GUILESS_MAIN(TestFundRequestsApi)
#include "tst_fundrequestsapi.moc"
