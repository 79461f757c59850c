// Endpoints 5, 6 and 7 of api-v1.md over real HTTP against the server on port 0 (api-conventions.md): idempotency by
// reference_id: replays of each endpoint, and concurrent duplicate and distinct sales. The shared paths, bodies and
// fixture are in support/salesapitest.h.
#include "salesapitest.h"

class TestSalesApiIdempotency final : public SalesApiTest
{
    Q_OBJECT

private slots:
    // ---- idempotency ----------------------------------------------------------------------------------------------

    void idempotentReplay()
    {
        const qint64 start = balance();
        const HttpResult first = post(kMobile, mobileBody(QStringLiteral("9876543210"), QStringLiteral("249"),
                                                          QStringLiteral("RJ"), QStringLiteral("REF-7")));
        QCOMPARE(first.status, 200);
        const qint64 id = first.data().value(QStringLiteral("transaction_id")).toInteger();
        const Snapshot afterFirst = snapshot();
        // Same body (amount now as an integer, same meaning): the original transaction, no second debit.
        for (const QJsonValue &amount :
             {QJsonValue(QStringLiteral("249")), QJsonValue(249), QJsonValue(QStringLiteral(" 249 "))}) {
            const HttpResult replay = post(kMobile, mobileBody(QStringLiteral("9876543210"), amount,
                                                               QStringLiteral("RJ"), QStringLiteral("REF-7")));
            QCOMPARE(replay.status, 200);
            QCOMPARE(replay.data(), first.data());
        }
        QVERIFY(snapshot() == afterFirst);
        QCOMPARE(balance(), start - 24526);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ?"), {id}), 1);

        // A different body with the same reference_id: 409, nothing written.
        const QList<std::pair<QString, QJsonObject>> conflicts{
            {kMobile, mobileBody(QStringLiteral("9876543210"), 250, QStringLiteral("RJ"), QStringLiteral("REF-7"))},
            {kMobile, mobileBody(QStringLiteral("9876543211"), 249, QStringLiteral("RJ"), QStringLiteral("REF-7"))},
            {kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("AT"), QStringLiteral("REF-7"))},
            {kVoucher, voucherBody(249, {}, QStringLiteral("REF-7"))},
            {kDth, dthBody(QStringLiteral("9876543210"), 249, QStringLiteral("AD"), QStringLiteral("REF-7"))},
        };
        for (const auto &[path, body] : conflicts) {
            const HttpResult r = post(path, body);
            QString why;
            QVERIFY2(isError(r, 409, QStringLiteral("CONFLICT_ERROR"), QStringLiteral("reference_id_reused"),
                             QStringLiteral("reference_id"), &why),
                     qPrintable(why));
        }
        QVERIFY(snapshot() == afterFirst);

        // reference_id is unique per account: another shop may use the same one.
        const QByteArray other = m_server->createKey(Mode::Test, Scope::Pos, QStringLiteral("other shop"));
        const HttpResult elsewhere =
            post(kMobile, mobileBody(QStringLiteral("9876543210"), 249, QStringLiteral("RJ"), QStringLiteral("REF-7")),
                 other);
        QCOMPARE(elsewhere.status, 200);
        QVERIFY(elsewhere.data().value(QStringLiteral("transaction_id")).toInteger() != id);

        // Without reference_id every request is a new sale.
        const HttpResult a = post(kVoucher, voucherBody(100));
        const HttpResult b = post(kVoucher, voucherBody(100));
        QCOMPARE(a.status, 200);
        QCOMPARE(b.status, 200);
        QVERIFY(a.data().value(QStringLiteral("transaction_id")) != b.data().value(QStringLiteral("transaction_id")));
    }

    void idempotentReplayOfEachEndpoint_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::newRow("voucher") << kVoucher
                                 << voucherBody(QStringLiteral("100"), QStringLiteral("a@example.com"),
                                                QStringLiteral("V-1"));
        QTest::newRow("dth") << kDth
                             << dthBody(QStringLiteral("01234567890"), QStringLiteral("300"), QStringLiteral("DT"),
                                        QStringLiteral("D-1"));
        QTest::newRow("failed sale replays as failed")
            << kMobile << mobileBody(QStringLiteral("9876540000"), 100, QStringLiteral("AT"), QStringLiteral("F-1"));
    }
    void idempotentReplayOfEachEndpoint()
    {
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        const HttpResult first = post(path, body);
        QCOMPARE(first.status, 200);
        const Snapshot after = snapshot();
        const HttpResult replay = post(path, body);
        QCOMPARE(replay.status, 200);
        QCOMPARE(replay.data(), first.data()); // the voucher keeps its redeem code
        QVERIFY(snapshot() == after);
    }

    void concurrentDuplicates()
    {
        const qint64 start = balance();
        const Snapshot before = snapshot();
        const QJsonObject body = mobileBody(QStringLiteral("9876543210"), QStringLiteral("399"), QStringLiteral("VI"),
                                            QStringLiteral("SAME-REF"));
        QList<std::pair<QString, QJsonObject>> requests;
        for (int i = 0; i < 20; ++i)
            requests.append({kMobile, body});
        const QList<HttpResult> results = concurrently(requests, m_server->pos());
        QCOMPARE(results.size(), 20);
        QSet<qint64> ids;
        for (const HttpResult &r : results) {
            QCOMPARE(r.status, 200);
            ids.insert(r.data().value(QStringLiteral("transaction_id")).toInteger());
        }
        QCOMPARE(ids.size(), 1);
        const qint64 id = *ids.cbegin();
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = 'SAME-REF'")), 1);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ?"), {id}), 1);
        const Snapshot after = snapshot();
        QCOMPARE(after.transactions, before.transactions + 1);
        QCOMPARE(after.ledgerRows, before.ledgerRows + 1);
        QCOMPARE(balance(), start - (39900 - Money::percentageOf(39900, 350)));
    }

    void concurrentDistinctSales()
    {
        // Requests grouped into one commit stay isolated: a bad one (402-sized voucher, 409 reuse) spoils no other.
        const HttpResult seed = post(kVoucher, voucherBody(100, {}, QStringLiteral("TAKEN")));
        QCOMPARE(seed.status, 200);
        const qint64 start = balance();
        QList<std::pair<QString, QJsonObject>> requests;
        for (int i = 0; i < 24; ++i) {
            requests.append({kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT"),
                                                 QStringLiteral("C-%1").arg(i))});
        }
        // Pays ₹19,400: more than the wallet holds whatever the order inside the batch.
        requests.append(
            {kDth, dthBody(QStringLiteral("1012345678"), 20000, QStringLiteral("TS"), QStringLiteral("TOO-BIG"))});
        requests.append(
            {kMobile, mobileBody(QStringLiteral("9876543210"), 100, QStringLiteral("AT"), QStringLiteral("TAKEN"))});
        const QList<HttpResult> results = concurrently(requests, m_server->pos());
        QSet<qint64> ids;
        for (int i = 0; i < 24; ++i) {
            QCOMPARE(results.at(i).status, 200);
            ids.insert(results.at(i).data().value(QStringLiteral("transaction_id")).toInteger());
        }
        QCOMPARE(ids.size(), 24);
        QCOMPARE(results.at(24).status, 402);
        QCOMPARE(results.at(25).status, 409);
        QCOMPARE(balance(), start - 24 * 9800);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = 'TOO-BIG'")), 0);
    }
};

QTEST_GUILESS_MAIN(TestSalesApiIdempotency)
#include "tst_salesapi_idempotency.moc"
