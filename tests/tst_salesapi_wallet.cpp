// Endpoints 5, 6 and 7 of api-v1.md over real HTTP against the server on port 0 (api-conventions.md): modes, accounts
// and the wallet: live keys, what other accounts see, balances and the ledger, healthz, a lost database connection. The
// shared paths, bodies and fixture are in support/salesapitest.h.
#include "api/healthcontroller.h"
#include "salesapitest.h"
#include "store/migrations.h"

class TestSalesApiWallet final : public SalesApiTest
{
    Q_OBJECT

private slots:
    // ---- modes, accounts, wallet ----------------------------------------------------------------------------------

    void liveKeyGetsGatewayError()
    {
        const QByteArray live = m_server->createKey(Mode::Live, Scope::Pos);
        const Snapshot before = snapshot();
        const QList<std::pair<QString, QJsonObject>> sales{
            {kMobile, mobileBody(QStringLiteral("9876543210"), QStringLiteral("249"), QStringLiteral("RJ"),
                                 QStringLiteral("L-1"))},
            {kVoucher, voucherBody(QStringLiteral("100"))},
            {kDth, dthBody(QStringLiteral("1012345678"), QStringLiteral("300"), QStringLiteral("TS"))}};
        for (const auto &[path, body] : sales) {
            const HttpResult r = post(path, body, live);
            QString why;
            QVERIFY2(isError(r, 503, QStringLiteral("GATEWAY_ERROR"), QStringLiteral("no_live_provider"),
                             QJsonValue(QJsonValue::Null), &why),
                     qPrintable(why));
        }
        QVERIFY(snapshot() == before);
        // Validation still comes first for live keys.
        QCOMPARE(post(kMobile, mobileBody(QStringLiteral("123")), live).status, 400);
        // The reference_id was not consumed: a test key of the same account may use it.
        QCOMPARE(
            post(kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"), QStringLiteral("L-1")))
                .status,
            200);
        const HttpResult wallet = get(kWallet, live);
        QCOMPARE(wallet.status, 200);
        QCOMPARE(wallet.data().value(QStringLiteral("mode")).toString(), QStringLiteral("live"));
        QCOMPARE(wallet.data().value(QStringLiteral("balance")).toString(), QStringLiteral("₹0.00"));
    }

    void otherAccountsAndModesAreInvisible()
    {
        const HttpResult mine =
            post(kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"), QStringLiteral("MINE")));
        QCOMPARE(mine.status, 200);
        const qint64 id = mine.data().value(QStringLiteral("transaction_id")).toInteger();

        // Another account: 404 by id, absent from its listing, even filtered by reference_id.
        const QByteArray other = m_server->createKey(Mode::Test, Scope::Admin, QStringLiteral("other shop"));
        HttpResult r = transaction(id, other);
        QString why;
        QVERIFY2(isError(r, 404, QStringLiteral("NOT_FOUND_ERROR"), QStringLiteral("transaction_not_found"),
                         QJsonValue(QJsonValue::Null), &why),
                 qPrintable(why));
        QCOMPARE(list(QUrlQuery(), other).data().value(QStringLiteral("count")).toInt(), 0);
        QUrlQuery byRef;
        byRef.addQueryItem(QStringLiteral("reference_id"), QStringLiteral("MINE"));
        QCOMPARE(list(byRef, other).data().value(QStringLiteral("count")).toInt(), 0);
        QCOMPARE(list(byRef).data().value(QStringLiteral("count")).toInt(), 1);
        // Its wallet is its own.
        QCOMPARE(balance(other), ApiKeyService::kOpeningTestCredit);

        // A live transaction of this account (written directly: no live provider exists yet) is invisible to test
        // keys, and the test transaction is invisible to live keys.
        const QByteArray live = m_server->createKey(Mode::Live, Scope::Pos);
        StoredTransaction row;
        row.accountId = scalar(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        row.mode = Mode::Live;
        row.keyId = keyIdOf(live);
        row.fingerprint = QStringLiteral("live");
        row.record.type = TransactionType::Mobile;
        row.record.operatorCode = QStringLiteral("AT");
        row.record.number = QStringLiteral("9876543210");
        row.record.billAmount = 10000;
        row.record.discount = 200;
        row.record.paid = 9800;
        row.record.status = TransactionStatus::Success;
        row.record.referenceId = QStringLiteral("LIVE-1");
        row.record.createdAtMs = QDateTime::currentMSecsSinceEpoch();
        const qint64 liveId = TransactionRepository(m_server->db()).insert(row, row.record.createdAtMs);
        QVERIFY(liveId > id);

        QCOMPARE(transaction(liveId).status, 404);
        QCOMPARE(transaction(liveId, m_server->admin()).status, 404);
        QUrlQuery liveRef;
        liveRef.addQueryItem(QStringLiteral("reference_id"), QStringLiteral("LIVE-1"));
        QCOMPARE(list(liveRef).data().value(QStringLiteral("count")).toInt(), 0);
        const QJsonArray testItems = list(QUrlQuery()).data().value(QStringLiteral("items")).toArray();
        QCOMPARE(testItems.size(), 1);
        QCOMPARE(testItems.at(0).toObject().value(QStringLiteral("transaction_id")).toInteger(), id);

        r = transaction(liveId, live);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("reference_id")).toString(), QStringLiteral("LIVE-1"));
        QCOMPARE(transaction(id, live).status, 404);
        QCOMPARE(list(QUrlQuery(), live).data().value(QStringLiteral("count")).toInt(), 1);
    }

    void insufficientBalance()
    {
        // Drain the ₹10,000 opening credit: a ₹10,000 voucher pays ₹9,900, leaving ₹100.
        QCOMPARE(post(kVoucher, voucherBody(10000)).status, 200);
        QCOMPARE(balance(), 10000);
        const Snapshot before = snapshot();
        const QList<std::pair<QString, QJsonObject>> sales{
            {kVoucher, voucherBody(QStringLiteral("102"), {}, QStringLiteral("SHORT-1"))}, // pays ₹100.98
            {kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("AT"))},
            {kDth, dthBody(QStringLiteral("1012345678"), 200, QStringLiteral("TS"))},
            {kMobile, mobileBody(QStringLiteral("9876540000"), 249, QStringLiteral("AT"))}, // would fail, still 402
        };
        for (const auto &[path, body] : sales) {
            const HttpResult r = post(path, body);
            QString why;
            QVERIFY2(isError(r, 402, QStringLiteral("INSUFFICIENT_BALANCE"), QStringLiteral("insufficient_balance"),
                             QJsonValue(QJsonValue::Null), &why),
                     qPrintable(why));
        }
        QVERIFY(snapshot() == before);
        QCOMPARE(balance(), 10000);
        // Exactly the balance is enough: ₹101 at 1 % pays ₹99.99.
        const HttpResult exact = post(kVoucher, voucherBody(101));
        QCOMPARE(exact.status, 200);
        QCOMPARE(balance(), 1);
        // After a top-up the refused reference_id is free to use.
        topup(1000);
        QCOMPARE(post(kVoucher, voucherBody(QStringLiteral("102"), {}, QStringLiteral("SHORT-1"))).status, 200);
    }

    void walletEndpoints()
    {
        HttpResult r = get(kWallet);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value(QStringLiteral("entity")).toString(), QStringLiteral("wallet"));
        QCOMPARE(r.data().value(QStringLiteral("mode")).toString(), QStringLiteral("test"));
        QCOMPARE(r.data().value(QStringLiteral("balance")).toString(), QStringLiteral("₹10000.00"));
        QCOMPARE(r.data().value(QStringLiteral("balance_paise")).toInteger(), 1000000);

        // Top-ups: admin only, whole rupees as integer or digit string, note and actor kept in the ledger.
        r = post(QStringLiteral("/api/v1/wallet/topups"),
                 QJsonObject{{QStringLiteral("amount"), QStringLiteral("2500")},
                             {QStringLiteral("note"), QStringLiteral("cash deposit")}},
                 m_server->admin());
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value(QStringLiteral("balance")).toString(), QStringLiteral("₹12500.00"));
        QCOMPARE(balance(), 1250000);
        const Snapshot before = snapshot();
        for (const QJsonValue &bad :
             {QJsonValue(0), QJsonValue(-5), QJsonValue(QStringLiteral("12.5")), QJsonValue(1000001)}) {
            r = post(QStringLiteral("/api/v1/wallet/topups"), QJsonObject{{QStringLiteral("amount"), bad}},
                     m_server->admin());
            QCOMPARE(r.status, 400);
            QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("amount"));
        }
        QVERIFY(snapshot() == before);

        const QList<QJsonObject> rows = ledger(50);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(0).value(QStringLiteral("kind")).toString(), QStringLiteral("topup"));
        QCOMPARE(rows.at(0).value(QStringLiteral("amount")).toString(), QStringLiteral("₹2500.00"));
        QCOMPARE(rows.at(0).value(QStringLiteral("note")).toString(), QStringLiteral("cash deposit"));
        QCOMPARE(rows.at(0).value(QStringLiteral("actor")).toString(),
                 QStringLiteral("key:") + keyIdOf(m_server->admin()));
        QCOMPARE(rows.at(0).value(QStringLiteral("transaction_id")), QJsonValue(QJsonValue::Null));
        QCOMPARE(rows.at(1).value(QStringLiteral("kind")).toString(), QStringLiteral("opening"));
        QCOMPARE(rows.at(1).value(QStringLiteral("amount_paise")).toInteger(), ApiKeyService::kOpeningTestCredit);

        // Bad ledger queries.
        QUrl url = m_server->url(QStringLiteral("/api/v1/wallet/ledger"));
        url.setQuery(QStringLiteral("limit=0"));
        QCOMPARE(m_http.get(url, m_server->admin()).status, 400);
        url.setQuery(QStringLiteral("cursor=abc"));
        QCOMPARE(m_http.get(url, m_server->admin()).status, 400);
    }

    void healthz()
    {
        const HttpResult r = m_http.get(m_server->url(QStringLiteral("/healthz")));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QVERIFY(r.header("Content-Type").startsWith("application/json"));
        QVERIFY(!r.header("X-Request-Id").isEmpty());
        // Credentials are not needed, and bad ones do not matter.
        QCOMPARE(m_http.get(m_server->url(QStringLiteral("/healthz")), "Basic !!!").status, 200);
    }

    /// GET /readyz (issue 16): 200 while the database answers and its migrations are exactly this server's; no
    /// credentials needed.
    void readyz()
    {
        const HttpResult r = m_http.get(m_server->url(QStringLiteral("/readyz")), "Basic !!!");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("ready"));
        QCOMPARE(r.json().value(QStringLiteral("schema_version")).toInt(), allMigrations().last().version);
        QVERIFY(!r.header("X-Request-Id").isEmpty());
    }

    void readyzWhenMigrationsDoNotMatch_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("undo");
        QTest::addColumn<QString>("reason");
        const QString newest = QString::number(allMigrations().last().version);
        // A newer server migrated the database (a rolling upgrade): this one must take no traffic.
        QTest::newRow("ahead") << QStringLiteral("INSERT INTO schema_migrations (version, applied_at) VALUES (9999, 0)")
                               << QStringLiteral("DELETE FROM schema_migrations WHERE version = 9999")
                               << QStringLiteral("migrations_ahead");
        // A migration this server needs is missing (a database restored from an older backup).
        QTest::newRow("behind")
            << QStringLiteral("DELETE FROM schema_migrations WHERE version = ") + newest
            << QStringLiteral("INSERT INTO schema_migrations (version, applied_at) VALUES (%1, 0)").arg(newest)
            << QStringLiteral("migrations_behind");
    }

    void readyzWhenMigrationsDoNotMatch()
    {
        QFETCH(QString, change);
        QFETCH(QString, undo);
        QFETCH(QString, reason);
        m_server->db().execute(change);
        const HttpResult r = m_http.get(m_server->url(QStringLiteral("/readyz")));
        QString why;
        QVERIFY2(isError(r, 503, QStringLiteral("GATEWAY_ERROR"), reason, QJsonValue(QJsonValue::Null), &why),
                 qPrintable(why));
        QCOMPARE(r.header("Retry-After").toInt(), HealthController::kSchemaRetryAfterSeconds);
        QCOMPARE(m_http.get(m_server->url(QStringLiteral("/healthz"))).status, 200); // alive, just not ready
        m_server->db().execute(undo);
        QCOMPARE(m_http.get(m_server->url(QStringLiteral("/readyz"))).status, 200);
    }

    void walletInvariantsAfterMixedRun()
    {
        topup(5000);
        const QList<std::pair<QString, QJsonObject>> sales{
            {kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"))},
            {kMobile, mobileBody(QStringLiteral("9876540000"), 199, QStringLiteral("AT"))},
            {kMobile, mobileBody(QStringLiteral("9876541111"), QStringLiteral("299"), QStringLiteral("VI"))},
            {kMobile, mobileBody(QStringLiteral("9876542222"), 399, QStringLiteral("BS"))},
            {kDth, dthBody(QStringLiteral("41234567890"), 300, QStringLiteral("SD"))},
            {kDth, dthBody(QStringLiteral("123456780000"), 300, QStringLiteral("BT"))},
            {kDth, dthBody(QStringLiteral("123456781111"), 300, QStringLiteral("VC"))},
            {kDth, dthBody(QStringLiteral("3012342222"), 300, QStringLiteral("AD"))},
            {kVoucher, voucherBody(1000, QStringLiteral("a@example.com"))},
            {kVoucher, voucherBody(1000, QStringLiteral("a+failed@example.com"))},
            {kVoucher, voucherBody(1000, QStringLiteral("a+pending@example.com"))},
            {kVoucher, voucherBody(1000, QStringLiteral("a+pendingfail@example.com"))},
            {kVoucher, voucherBody(20000)},                                                  // 400: nothing
            {kMobile, mobileBody(QStringLiteral("9876543210"), 5001, QStringLiteral("VI"))}, // 400: nothing
        };
        QList<qint64> ids;
        for (const auto &[path, body] : sales) {
            const HttpResult r = post(path, body);
            if (r.status == 200)
                ids.append(r.data().value(QStringLiteral("transaction_id")).toInteger());
        }
        QCOMPARE(ids.size(), 12);
        QTRY_COMPARE_WITH_TIMEOUT(
            list(QUrlQuery(QStringLiteral("status=PENDING"))).data().value(QStringLiteral("count")).toInt(), 0, 15'000);

        // balance == sum of the ledger, read through the API's ledger pages (3 rows a page).
        const QList<QJsonObject> rows = ledger(3);
        Paise sum = 0;
        QSet<qint64> rowIds;
        for (const QJsonObject &row : rows) {
            sum += row.value(QStringLiteral("amount_paise")).toInteger();
            rowIds.insert(row.value(QStringLiteral("id")).toInteger());
        }
        QCOMPARE(rowIds.size(), rows.size());
        QCOMPARE(balance(), sum);
        // opening + topup + 12 debits + 6 refunds.
        QCOMPARE(rows.size(), 2 + 12 + 6);

        Paise expected = ApiKeyService::kOpeningTestCredit + 500000;
        int failed = 0;
        for (qint64 id : std::as_const(ids)) {
            const QJsonObject t = transaction(id).data();
            const Paise paid = Money::parse(t.value(QStringLiteral("paid")).toString()).value_or(0);
            const QString status = t.value(QStringLiteral("transaction_status")).toString();
            Paise net = 0;
            int debits = 0;
            int refunds = 0;
            for (const QJsonObject &row : rows) {
                if (row.value(QStringLiteral("transaction_id")).toInteger() != id)
                    continue;
                net += row.value(QStringLiteral("amount_paise")).toInteger();
                debits += row.value(QStringLiteral("kind")).toString() == QLatin1String("debit");
                refunds += row.value(QStringLiteral("kind")).toString() == QLatin1String("refund");
            }
            QCOMPARE(debits, 1);
            if (status == QLatin1String("FAILED")) {
                ++failed;
                QCOMPARE(refunds, 1);
                QCOMPARE(net, 0);
            } else {
                QCOMPARE(status, QStringLiteral("SUCCESS"));
                QCOMPARE(refunds, 0);
                QCOMPARE(net, -paid);
                expected -= paid;
            }
        }
        QCOMPARE(failed, 6);
        QCOMPARE(balance(), expected);
        // And in the store: every wallet's balance row equals its ledger.
        QCOMPARE(
            scalar(QStringLiteral("SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT COALESCE(SUM(amount), 0)"
                                  " FROM wallet_ledger l WHERE l.account_id = w.account_id AND l.mode = w.mode)")),
            0);
    }

    /// PostgreSQL ends the server's session (a restart of PostgreSQL, an administrator): the next reads and sales
    /// work on a new connection, and a PENDING sale still settles. (SQLite: nothing to lose, the same must hold.)
    void lostDatabaseConnection()
    {
        const HttpResult pending = post(kMobile, mobileBody(QStringLiteral("9876541111"), 249, QStringLiteral("RJ")));
        QCOMPARE(pending.status, 200);
        const qint64 id = pending.data().value(QStringLiteral("transaction_id")).toInteger();
        m_server->store().terminateSessions();
        QCOMPARE(transaction(id).status, 200); // a read: asked again on a new connection
        m_server->store().terminateSessions();
        const HttpResult sale = post(kMobile, mobileBody(QStringLiteral("9876543210"), 199, QStringLiteral("RJ")));
        QCOMPARE(sale.status, 200); // BEGIN on a new connection
        QCOMPARE(sale.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QTRY_COMPARE_WITH_TIMEOUT(transaction(id).data().value(QStringLiteral("transaction_status")).toString(),
                                  QStringLiteral("SUCCESS"), 10'000);
        QCOMPARE(list(QUrlQuery()).data().value(QStringLiteral("count")).toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(TestSalesApiWallet)
#include "tst_salesapi_wallet.moc"
