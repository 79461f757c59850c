// Issue 28, shifts and cash-up over real HTTP: open, sales by tender, cash in and out with the PIN, the close with
// a count by denomination, the blind count, a restart, one open shift per person and terminal, who may close whose
// shift, bad input refused with nothing changed, shops that sell only in shifts, and the day-end report's tenders and
// shifts. Runs on SQLite and (pg_shiftsapi) PostgreSQL.
#include "clock.h"
#include "money.h"
#include "testserver.h"

#include <QJsonArray>
#include <QTest>
#include <QUrlQuery>

namespace {

const QString kShifts = QStringLiteral("/api/v1/shifts");
const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
const QString kAdminPin = QStringLiteral("246802");
const QString kAshaPin = QStringLiteral("1357");
const QString kRaviPin = QStringLiteral("2468");

/// Paise of a money string field of `object` ("₹2848.00"); -1 when it is missing or not money.
Paise paise(const QJsonObject &object, const QString &field)
{
    return Money::parse(object.value(field).toString()).value_or(-1);
}

QString describe(const HttpResult &result)
{
    return QStringLiteral("%1 %2").arg(result.status).arg(QString::fromUtf8(result.body.left(400)));
}

QString reasonOf(const HttpResult &result)
{
    return result.error().value(QStringLiteral("reason")).toString();
}

QString shiftPath(qint64 id, const QString &tail = {})
{
    return kShifts + QLatin1Char('/') + QString::number(id) + tail;
}

} // namespace

class TestShiftsApi final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_server;
    QByteArray m_admin; ///< Meera, admin
    QByteArray m_asha;  ///< clerk
    QByteArray m_ravi;  ///< clerk

    /// `method` on `path` (a query after '?') with the terminal's pos key and `session` (none when empty).
    HttpResult call(const QByteArray &method, const QString &path, const QByteArray &session,
                    const QJsonObject &body = {}, const QByteArray &key = {})
    {
        QUrl url = m_server->url(path.section(QLatin1Char('?'), 0, 0));
        url.setQuery(path.section(QLatin1Char('?'), 1));
        return m_server->http().sendJson(method, url, key.isEmpty() ? m_server->pos() : key, body, session);
    }

    void addUser(const QString &name, const QString &role, const QString &pin)
    {
        const HttpResult r = call(
            "POST", QStringLiteral("/api/v1/users"), {},
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("role"), role}, {QStringLiteral("pin"), pin}},
            m_server->liveAdmin());
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
    }

    QByteArray signIn(const QString &name, const QString &pin)
    {
        const HttpResult r = call("POST", QStringLiteral("/api/v1/users/sign-in"), {},
                                  QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("pin"), pin}});
        return r.data().value(QStringLiteral("session_token")).toString().toLatin1();
    }

    /// Opens `session`'s shift on `terminal` with `openingCash` (a money string); the answer.
    HttpResult open(const QByteArray &session, const QString &terminal, const QString &openingCash)
    {
        return call("POST", kShifts, session,
                    QJsonObject{{QStringLiteral("terminal"), terminal}, {QStringLiteral("opening_cash"), openingCash}});
    }

    /// Opens a shift that must open; its id.
    qint64 openedShift(const QByteArray &session, const QString &terminal, const QString &openingCash)
    {
        const HttpResult r = open(session, terminal, openingCash);
        if (r.status != 201)
            qWarning("open: %s", qPrintable(describe(r)));
        return r.status == 201 ? r.data().value(QStringLiteral("id")).toInteger() : -1;
    }

    /// A mobile sale of `rupees` to `phone` by `session`, with `tender` ("" sends none).
    HttpResult sell(const QByteArray &session, const QString &tender, qint64 rupees = 249,
                    const QString &phone = QStringLiteral("9876543210"), const QByteArray &key = {})
    {
        QJsonObject body{{QStringLiteral("phone_number"), phone},
                         {QStringLiteral("amount"), rupees},
                         {QStringLiteral("operator_code"), QStringLiteral("RJ")}};
        if (!tender.isEmpty())
            body.insert(QStringLiteral("tender"), tender);
        return call("POST", kMobile, session, body, key);
    }

    HttpResult cashMove(const QByteArray &session, qint64 id, const QString &direction, const QString &amount,
                        const QString &reason, const QString &pin)
    {
        return call("POST", shiftPath(id, QStringLiteral("/cash-moves")), session,
                    QJsonObject{{QStringLiteral("direction"), direction},
                                {QStringLiteral("amount"), amount},
                                {QStringLiteral("reason"), reason},
                                {QStringLiteral("pin"), pin}});
    }

    HttpResult close(const QByteArray &session, qint64 id, const QJsonObject &body)
    {
        return call("POST", shiftPath(id, QStringLiteral("/close")), session, body);
    }

    /// The shift as an admin sees it (everything shown).
    QJsonObject shiftSeenByAdmin(qint64 id) { return call("GET", shiftPath(id), m_admin).data(); }

    qint64 balance()
    {
        return call("GET", QStringLiteral("/api/v1/wallet"), {})
            .data()
            .value(QStringLiteral("balance_paise"))
            .toInteger(-1);
    }

    qint64 transactionCount()
    {
        QSqlQuery &q = m_server->db().run(QStringLiteral("SELECT COUNT(*) FROM transactions"));
        const qint64 count = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return count;
    }

    HttpResult updateShop(const QJsonObject &changes, const QByteArray &session, const QByteArray &key = {})
    {
        return call("PUT", QStringLiteral("/api/v1/shop"), session, changes, key);
    }

    /// The ids of the listed transactions for `query` (e.g. "tender=cash").
    QList<qint64> listedIds(const QString &query)
    {
        QList<qint64> ids;
        const HttpResult r = call("GET", QStringLiteral("/api/v1/transactions?") + query, {});
        for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
            ids.append(item.toObject().value(QStringLiteral("transaction_id")).toInteger());
        std::sort(ids.begin(), ids.end());
        return ids;
    }

    QString statusOf(qint64 transactionId)
    {
        return call("GET", QStringLiteral("/api/v1/transactions/%1").arg(transactionId), {})
            .data()
            .value(QStringLiteral("transaction_status"))
            .toString();
    }

private slots:
    void init()
    {
        m_server = std::make_unique<TestServer>();
        addUser(QStringLiteral("Meera"), QStringLiteral("admin"), kAdminPin);
        addUser(QStringLiteral("Asha"), QStringLiteral("clerk"), kAshaPin);
        addUser(QStringLiteral("Ravi"), QStringLiteral("clerk"), kRaviPin);
        m_admin = signIn(QStringLiteral("Meera"), kAdminPin);
        m_asha = signIn(QStringLiteral("Asha"), kAshaPin);
        m_ravi = signIn(QStringLiteral("Ravi"), kRaviPin);
        QVERIFY(!m_admin.isEmpty() && !m_asha.isEmpty() && !m_ravi.isEmpty());
    }

    void cleanup() { m_server.reset(); }

    // The "done means", in money: ₹2000 opening, two cash sales, one UPI, one without a tender, ₹500 in,
    // ₹100 out; expected = 2000 + 448 + 500 - 100 = ₹2848.00; counted ₹2843.00; difference -₹5.00 exactly.
    void openSellMoveAndClose()
    {
        const HttpResult opened = open(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        QVERIFY2(opened.status == 201, qPrintable(describe(opened)));
        const QJsonObject fresh = opened.data();
        QCOMPARE(fresh.value(QStringLiteral("entity")).toString(), QStringLiteral("shift"));
        QCOMPARE(fresh.value(QStringLiteral("clerk")).toString(), QStringLiteral("Asha"));
        QCOMPARE(fresh.value(QStringLiteral("terminal")).toString(), QStringLiteral("Counter 1"));
        QCOMPARE(fresh.value(QStringLiteral("mode")).toString(), QStringLiteral("test"));
        QCOMPARE(fresh.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QCOMPARE(paise(fresh, QStringLiteral("opening_cash")), 200000);
        QCOMPARE(paise(fresh, QStringLiteral("expected_cash")), 200000);
        QVERIFY(fresh.value(QStringLiteral("closed_at")).isNull());
        QVERIFY(fresh.value(QStringLiteral("counted_cash")).isNull());
        QVERIFY(fresh.value(QStringLiteral("difference")).isNull());
        const qint64 id = fresh.value(QStringLiteral("id")).toInteger();

        QList<qint64> cash;
        QList<qint64> upi;
        QList<qint64> none;
        for (const auto &[tender, rupees] :
             {std::pair{QStringLiteral("cash"), 249}, std::pair{QStringLiteral("upi"), 299},
              std::pair{QStringLiteral("cash"), 199}, std::pair{QString(), 100}}) {
            const HttpResult sale = sell(m_asha, tender, rupees);
            QVERIFY2(sale.status == 200, qPrintable(describe(sale)));
            const QJsonObject record = sale.data();
            QCOMPARE(record.value(QStringLiteral("shift_id")).toInteger(), id);
            QCOMPARE(record.value(QStringLiteral("tender")).toString(), tender);
            QCOMPARE(record.contains(QStringLiteral("tender")), !tender.isEmpty());
            const qint64 transactionId = record.value(QStringLiteral("transaction_id")).toInteger();
            (tender == QLatin1String("cash")  ? cash
             : tender == QLatin1String("upi") ? upi
                                              : none)
                .append(transactionId);
            // The status check answers the same record, tender and shift included.
            QCOMPARE(call("GET", QStringLiteral("/api/v1/transactions/%1").arg(transactionId), {}).data(), record);
        }
        // A sale by the API key alone (no person) has no shift, and no tender unless sent.
        const HttpResult apiSale = sell({}, QStringLiteral("upi"), 50);
        QCOMPARE(apiSale.status, 200);
        QVERIFY(!apiSale.data().contains(QStringLiteral("shift_id")));

        // History by tender: the filter and the summary.
        QCOMPARE(listedIds(QStringLiteral("tender=cash")), cash);
        QCOMPARE(listedIds(QStringLiteral("tender=none")), none);
        QCOMPARE(listedIds(QStringLiteral("tender=upi")).size(), 2);
        const HttpResult summary = call("GET", QStringLiteral("/api/v1/transactions/summary?tender=cash"), {});
        QCOMPARE(summary.data().value(QStringLiteral("count")).toInteger(), 2);
        QCOMPARE(paise(summary.data(), QStringLiteral("bill_amount")), 44800);
        const HttpResult badFilter = call("GET", QStringLiteral("/api/v1/transactions?tender=card"), {});
        QCOMPARE(badFilter.status, 400);
        QCOMPARE(badFilter.error().value(QStringLiteral("field")).toString(), QStringLiteral("tender"));

        HttpResult moved = cashMove(m_asha, id, QStringLiteral("in"), QStringLiteral("₹500.00"),
                                    QStringLiteral("Float added"), kAshaPin);
        QVERIFY2(moved.status == 201, qPrintable(describe(moved)));
        moved = cashMove(m_asha, id, QStringLiteral("out"), QStringLiteral("₹100.00"),
                         QStringLiteral("Paid the tea stall"), kAshaPin);
        QVERIFY2(moved.status == 201, qPrintable(describe(moved)));
        const QJsonObject beforeClose = moved.data();
        const QJsonObject sales = beforeClose.value(QStringLiteral("sales")).toObject();
        QCOMPARE(sales.value(QStringLiteral("cash")).toObject().value(QStringLiteral("count")).toInt(), 2);
        QCOMPARE(paise(sales.value(QStringLiteral("cash")).toObject(), QStringLiteral("amount")), 44800);
        QCOMPARE(sales.value(QStringLiteral("upi")).toObject().value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(paise(sales.value(QStringLiteral("upi")).toObject(), QStringLiteral("amount")), 29900);
        QCOMPARE(sales.value(QStringLiteral("unrecorded")).toObject().value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(paise(beforeClose, QStringLiteral("cash_in")), 50000);
        QCOMPARE(paise(beforeClose, QStringLiteral("cash_out")), 10000);
        QCOMPARE(paise(beforeClose, QStringLiteral("expected_cash")), 284800);
        const QJsonArray moves = beforeClose.value(QStringLiteral("cash_moves")).toArray();
        QCOMPARE(moves.size(), 2);
        QCOMPARE(moves.at(1).toObject().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("Paid the tea stall"));
        QCOMPARE(moves.at(1).toObject().value(QStringLiteral("by")).toString(), QStringLiteral("Asha"));
        QCOMPARE(moves.at(1).toObject().value(QStringLiteral("direction")).toString(), QStringLiteral("out"));

        // 5 × 500 + 1 × 200 + 1 × 100 + 2 × 20 + coins 3 = ₹2843.00 (₹50 and ₹10 left out: 0).
        const HttpResult closed =
            close(m_asha, id,
                  QJsonObject{{QStringLiteral("counts"), QJsonObject{{QStringLiteral("500"), 5},
                                                                     {QStringLiteral("200"), 1},
                                                                     {QStringLiteral("100"), QStringLiteral("1")},
                                                                     {QStringLiteral("20"), 2}}},
                              {QStringLiteral("coins"), QStringLiteral("₹3.00")}});
        QVERIFY2(closed.status == 200, qPrintable(describe(closed)));
        const QJsonObject shift = closed.data();
        QCOMPARE(shift.value(QStringLiteral("state")).toString(), QStringLiteral("closed"));
        QCOMPARE(paise(shift, QStringLiteral("expected_cash")), 284800);
        QCOMPARE(paise(shift, QStringLiteral("counted_cash")), 284300);
        QCOMPARE(paise(shift, QStringLiteral("difference")), -500);
        QCOMPARE(paise(shift, QStringLiteral("coins")), 300);
        QCOMPARE(shift.value(QStringLiteral("counts")).toObject(), (QJsonObject{{QStringLiteral("500"), 5},
                                                                                {QStringLiteral("200"), 1},
                                                                                {QStringLiteral("100"), 1},
                                                                                {QStringLiteral("50"), 0},
                                                                                {QStringLiteral("20"), 2},
                                                                                {QStringLiteral("10"), 0}}));
        QCOMPARE(shift.value(QStringLiteral("closed_by")).toString(), QStringLiteral("Asha"));
        QVERIFY(shift.value(QStringLiteral("close_note")).isNull());
        QVERIFY(IstTime::parse(shift.value(QStringLiteral("closed_at")).toString()).isValid());
        QCOMPARE(call("GET", shiftPath(id), m_asha).data(), shift);

        // Closed: no current shift, and a sale after it is not attached to it; a second close is refused.
        const HttpResult current = call("GET", kShifts + QStringLiteral("/current"), m_asha);
        QCOMPARE(current.status, 404);
        QCOMPARE(reasonOf(current), QStringLiteral("no_open_shift"));
        QVERIFY(!sell(m_asha, QStringLiteral("cash")).data().contains(QStringLiteral("shift_id")));
        const HttpResult again = close(m_asha, id, QJsonObject{});
        QCOMPARE(again.status, 409);
        QCOMPARE(reasonOf(again), QStringLiteral("shift_closed"));
        const HttpResult lateMove =
            cashMove(m_asha, id, QStringLiteral("in"), QStringLiteral("₹1.00"), QStringLiteral("late"), kAshaPin);
        QCOMPARE(lateMove.status, 409);
        QCOMPARE(reasonOf(lateMove), QStringLiteral("shift_closed"));
        QCOMPARE(shiftSeenByAdmin(id), shift);
    }

    // A sale that fails after the customer paid (PENDING, then FAILED): in cash a cash refund of the shift, by UPI
    // money to return by UPI; either way no longer in the expected cash. A cash sale that failed at once never reached
    // the drawer; a UPI sale that failed at once had been paid (the clerk confirms "UPI received" before it is sent),
    // so it is UPI to return too.
    void salesFailedAfterPayment()
    {
        const qint64 id = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹1000.00"));
        const HttpResult cashSale = sell(m_asha, QStringLiteral("cash"), 249, QStringLiteral("9876542222"));
        const HttpResult upiSale = sell(m_asha, QStringLiteral("upi"), 299, QStringLiteral("9876512222"));
        const HttpResult failedAtOnce = sell(m_asha, QStringLiteral("cash"), 199, QStringLiteral("9876500000"));
        const HttpResult upiFailedAtOnce = sell(m_asha, QStringLiteral("upi"), 149, QStringLiteral("9876510000"));
        QCOMPARE(upiFailedAtOnce.data().value(QStringLiteral("transaction_status")).toString(),
                 QStringLiteral("FAILED"));
        QCOMPARE(cashSale.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        QCOMPARE(upiSale.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        QCOMPARE(failedAtOnce.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        const qint64 cashId = cashSale.data().value(QStringLiteral("transaction_id")).toInteger();
        const qint64 upiId = upiSale.data().value(QStringLiteral("transaction_id")).toInteger();

        // While PENDING the customer has paid: both count as taken.
        QJsonObject shift = call("GET", shiftPath(id), m_asha).data();
        QCOMPARE(paise(shift, QStringLiteral("expected_cash")), 100000 + 24900);
        QCOMPARE(shift.value(QStringLiteral("cash_refunds")).toObject().value(QStringLiteral("count")).toInt(), 0);

        QTRY_COMPARE_WITH_TIMEOUT(statusOf(cashId), QStringLiteral("FAILED"), 15'000);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(upiId), QStringLiteral("FAILED"), 15'000);
        shift = call("GET", shiftPath(id), m_asha).data();
        const QJsonObject sales = shift.value(QStringLiteral("sales")).toObject();
        QCOMPARE(sales.value(QStringLiteral("cash")).toObject().value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(paise(sales.value(QStringLiteral("cash")).toObject(), QStringLiteral("amount")), 24900);
        QCOMPARE(sales.value(QStringLiteral("upi")).toObject().value(QStringLiteral("count")).toInt(), 1);
        const QJsonObject refunds = shift.value(QStringLiteral("cash_refunds")).toObject();
        QCOMPARE(refunds.value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(paise(refunds, QStringLiteral("amount")), 24900);
        const QJsonArray toReturn = shift.value(QStringLiteral("upi_to_return")).toArray();
        QCOMPARE(toReturn.size(), 2); // oldest first
        QCOMPARE(toReturn.at(0).toObject().value(QStringLiteral("transaction_id")).toInteger(), upiId);
        QCOMPARE(toReturn.at(0).toObject().value(QStringLiteral("number")).toString(), QStringLiteral("9876512222"));
        QCOMPARE(paise(toReturn.at(0).toObject(), QStringLiteral("amount")), 29900);
        QCOMPARE(toReturn.at(1).toObject().value(QStringLiteral("number")).toString(), QStringLiteral("9876510000"));
        QCOMPARE(paise(toReturn.at(1).toObject(), QStringLiteral("amount")), 14900);
        QCOMPARE(paise(shift, QStringLiteral("expected_cash")), 100000); // + 249 taken - 249 refunded
    }

    void cashMovesNeedTheRightPin_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");
        const auto move = [](const QString &direction, const QJsonValue &amount, const QString &reason,
                             const QString &pin) {
            return QJsonObject{{QStringLiteral("direction"), direction},
                               {QStringLiteral("amount"), amount},
                               {QStringLiteral("reason"), reason},
                               {QStringLiteral("pin"), pin}};
        };
        const QString in = QStringLiteral("in");
        const QString why = QStringLiteral("Float added");
        QTest::newRow("wrong PIN") << move(in, QStringLiteral("₹100.00"), why, QStringLiteral("9999")) << 401
                                   << QStringLiteral("wrong_pin");
        QTest::newRow("another's PIN") << move(in, QStringLiteral("₹100.00"), why, kRaviPin) << 401
                                       << QStringLiteral("wrong_pin");
        QTest::newRow("zero") << move(in, QStringLiteral("₹0.00"), why, kAshaPin) << 400
                              << QStringLiteral("invalid_amount");
        QTest::newRow("negative") << move(in, QStringLiteral("-₹5.00"), why, kAshaPin) << 400
                                  << QStringLiteral("invalid_amount");
        QTest::newRow("over a lakh") << move(in, QStringLiteral("₹100000.01"), why, kAshaPin) << 400
                                     << QStringLiteral("invalid_amount");
        QTest::newRow("rupees as a number") << move(in, 100, why, kAshaPin) << 400 << QStringLiteral("invalid_amount");
        QTest::newRow("no decimals") << move(in, QStringLiteral("₹100"), why, kAshaPin) << 400
                                     << QStringLiteral("invalid_amount");
        QTest::newRow("sideways") << move(QStringLiteral("sideways"), QStringLiteral("₹1.00"), why, kAshaPin) << 400
                                  << QStringLiteral("invalid_direction");
        QTest::newRow("no reason") << move(in, QStringLiteral("₹1.00"), QStringLiteral("  "), kAshaPin) << 400
                                   << QStringLiteral("missing_field");
        QTest::newRow("long reason") << move(in, QStringLiteral("₹1.00"), QString(121, QLatin1Char('x')), kAshaPin)
                                     << 400 << QStringLiteral("invalid_reason");
        QTest::newRow("no PIN") << QJsonObject{{QStringLiteral("direction"), in},
                                               {QStringLiteral("amount"), QStringLiteral("₹1.00")},
                                               {QStringLiteral("reason"), why}}
                                << 400 << QStringLiteral("missing_field");
    }
    void cashMovesNeedTheRightPin()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, reason);
        const qint64 id = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        QCOMPARE(sell(m_asha, QStringLiteral("cash")).status, 200);
        const QJsonObject before = shiftSeenByAdmin(id);
        const qint64 wallet = balance();

        const HttpResult refused = call("POST", shiftPath(id, QStringLiteral("/cash-moves")), m_asha, body);
        QVERIFY2(refused.status == status && reasonOf(refused) == reason, qPrintable(describe(refused)));
        QVERIFY(!refused.error().value(QStringLiteral("description")).toString().isEmpty());
        QCOMPARE(shiftSeenByAdmin(id), before);
        QCOMPARE(balance(), wallet);

        // The right PIN afterwards moves the cash (and a wrong one before did not lock the clerk out).
        const HttpResult moved = cashMove(m_asha, id, QStringLiteral("out"), QStringLiteral("₹100.00"),
                                          QStringLiteral("Paid a supplier"), kAshaPin);
        QVERIFY2(moved.status == 201, qPrintable(describe(moved)));
        QCOMPARE(paise(moved.data(), QStringLiteral("expected_cash")),
                 paise(before, QStringLiteral("expected_cash")) - 10000);
    }

    // Five wrong PINs in a row lock the person exactly as at sign-in (the one PIN check of UserService).
    void wrongPinsLockLikeSignIn()
    {
        const qint64 id = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(cashMove(m_asha, id, QStringLiteral("in"), QStringLiteral("₹1.00"), QStringLiteral("x"),
                              QStringLiteral("0000"))
                         .status,
                     401);
        const HttpResult locked =
            cashMove(m_asha, id, QStringLiteral("in"), QStringLiteral("₹1.00"), QStringLiteral("x"), kAshaPin);
        QCOMPARE(locked.status, 429);
        QCOMPARE(reasonOf(locked), QStringLiteral("user_locked"));
        const HttpResult signIn =
            call("POST", QStringLiteral("/api/v1/users/sign-in"), {},
                 QJsonObject{{QStringLiteral("name"), QStringLiteral("Asha")}, {QStringLiteral("pin"), kAshaPin}});
        QCOMPARE(signIn.status, 429);
        QCOMPARE(shiftSeenByAdmin(id).value(QStringLiteral("cash_moves")).toArray().size(), 0);
    }

    void blindCountHidesExpectedFromTheClerk()
    {
        HttpResult r = updateShop(QJsonObject{{QStringLiteral("blind_count"), true}}, m_admin);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("blind_count")).toBool(), true);
        const qint64 id = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        QCOMPARE(sell(m_asha, QStringLiteral("cash"), 249).status, 200);

        for (const QString &path : QStringList{kShifts + QStringLiteral("/current"), shiftPath(id)}) {
            const QJsonObject seen = call("GET", path, m_asha).data();
            QCOMPARE(seen.value(QStringLiteral("blind")).toBool(), true);
            QVERIFY2(seen.value(QStringLiteral("expected_cash")).isNull(), qPrintable(path));
            QVERIFY(seen.value(QStringLiteral("difference")).isNull());
            QCOMPARE(paise(seen.value(QStringLiteral("sales")).toObject().value(QStringLiteral("cash")).toObject(),
                           QStringLiteral("amount")),
                     24900); // the sales stay visible
        }
        const QJsonObject listed =
            call("GET", kShifts, m_asha).data().value(QStringLiteral("items")).toArray().at(0).toObject();
        QVERIFY(listed.value(QStringLiteral("expected_cash")).isNull());
        QCOMPARE(paise(shiftSeenByAdmin(id), QStringLiteral("expected_cash")), 224900);

        // The count is made blind; the answer to the close shows the figures.
        const HttpResult closed =
            close(m_asha, id,
                  QJsonObject{{QStringLiteral("counts"), QJsonObject{{QStringLiteral("500"), 4},
                                                                     {QStringLiteral("200"), 1},
                                                                     {QStringLiteral("50"), 1}}}});
        QVERIFY2(closed.status == 200, qPrintable(describe(closed)));
        QCOMPARE(paise(closed.data(), QStringLiteral("expected_cash")), 224900);
        QCOMPARE(paise(closed.data(), QStringLiteral("counted_cash")), 225000);
        QCOMPARE(paise(closed.data(), QStringLiteral("difference")), 100);
    }

    // A restart of the server (a power cut at the shop) resumes the open shift: same id, same sales, same session.
    void restartResumesTheOpenShift()
    {
        const qint64 id = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        QCOMPARE(sell(m_asha, QStringLiteral("cash"), 249).status, 200);
        QCOMPARE(
            cashMove(m_asha, id, QStringLiteral("in"), QStringLiteral("₹50.00"), QStringLiteral("Change"), kAshaPin)
                .status,
            201);
        const QJsonObject before = call("GET", kShifts + QStringLiteral("/current"), m_asha).data();

        m_server->restart();

        const HttpResult after = call("GET", kShifts + QStringLiteral("/current"), m_asha);
        QVERIFY2(after.status == 200, qPrintable(describe(after)));
        QCOMPARE(after.data(), before);
        const HttpResult sale = sell(m_asha, QStringLiteral("upi"), 100);
        QCOMPARE(sale.data().value(QStringLiteral("shift_id")).toInteger(), id);
        const QJsonObject resumed = call("GET", shiftPath(id), m_asha).data();
        QCOMPARE(paise(resumed, QStringLiteral("expected_cash")), 229900); // 2000 + 249 + 50; UPI is not cash
        QCOMPARE(resumed.value(QStringLiteral("sales"))
                     .toObject()
                     .value(QStringLiteral("upi"))
                     .toObject()
                     .value(QStringLiteral("count")),
                 QJsonValue(1));
    }

    void oneOpenShiftPerPersonAndTerminal()
    {
        const qint64 first = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        QVERIFY(first > 0);

        HttpResult r = open(m_asha, QStringLiteral("Counter 2"), QStringLiteral("₹100.00"));
        QCOMPARE(r.status, 409);
        QCOMPARE(reasonOf(r), QStringLiteral("shift_already_open"));
        QVERIFY2(r.error().value(QStringLiteral("description")).toString().contains(QLatin1String("Counter 1")),
                 qPrintable(describe(r)));
        r = open(m_ravi, QStringLiteral("counter 1"), QStringLiteral("₹100.00")); // the same terminal, any case
        QCOMPARE(r.status, 409);
        QCOMPARE(reasonOf(r), QStringLiteral("shift_already_open"));
        QVERIFY2(r.error().value(QStringLiteral("description")).toString().contains(QLatin1String("Asha")),
                 qPrintable(describe(r)));
        QCOMPARE(
            call("GET", kShifts + QStringLiteral("?state=open"), m_admin).data().value(QStringLiteral("count")).toInt(),
            1);

        const qint64 second = openedShift(m_ravi, QStringLiteral("Counter 2"), QStringLiteral("₹500.00"));
        QVERIFY(second > first);
        QCOMPARE(close(m_asha, first, QJsonObject{}).status, 200);
        // Closed shifts block nothing: Asha opens again, on the counter she left.
        QVERIFY(openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹0.00")) > second);
    }

    void whoClosesWhoseShift()
    {
        const qint64 asha = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        const qint64 ravi = openedShift(m_ravi, QStringLiteral("Counter 2"), QStringLiteral("₹1000.00"));
        const QJsonObject before = shiftSeenByAdmin(asha);

        HttpResult r = close(m_ravi, asha, QJsonObject{{QStringLiteral("note"), QStringLiteral("helping")}});
        QCOMPARE(r.status, 403);
        QCOMPARE(reasonOf(r), QStringLiteral("not_your_shift"));
        r = cashMove(m_ravi, asha, QStringLiteral("out"), QStringLiteral("₹10.00"), QStringLiteral("x"), kRaviPin);
        QCOMPARE(r.status, 403);
        QCOMPARE(reasonOf(r), QStringLiteral("not_your_shift"));
        QCOMPARE(call("GET", shiftPath(asha), m_ravi).status, 404); // a clerk sees only their own
        r = close(m_admin, asha, QJsonObject{});
        QCOMPARE(r.status, 400);
        QCOMPARE(reasonOf(r), QStringLiteral("note_required"));
        QCOMPARE(shiftSeenByAdmin(asha), before);

        // Listing: a clerk their own; the admin all, by clerk, terminal, state and date.
        const auto listed = [&](const QByteArray &session, const QString &query) {
            QList<qint64> ids;
            const HttpResult page = call("GET", kShifts + QLatin1Char('?') + query, session);
            for (const QJsonValue &item : page.data().value(QStringLiteral("items")).toArray())
                ids.append(item.toObject().value(QStringLiteral("id")).toInteger());
            return ids;
        };
        const QString today = IstTime::dateOf(QDateTime::currentDateTimeUtc()).toString(Qt::ISODate);
        QCOMPARE(listed(m_ravi, QString()), QList<qint64>{ravi});
        QCOMPARE(listed(m_admin, QString()), (QList<qint64>{ravi, asha}));
        QCOMPARE(listed(m_admin, QStringLiteral("clerk=asha")), QList<qint64>{asha});
        QCOMPARE(listed(m_admin, QStringLiteral("terminal=Counter%202")), QList<qint64>{ravi});
        QCOMPARE(listed(m_admin, QStringLiteral("date=") + today), (QList<qint64>{ravi, asha}));
        QCOMPARE(listed(m_admin, QStringLiteral("date=2001-01-01")), QList<qint64>{});
        QCOMPARE(listed(m_admin, QStringLiteral("limit=1")), QList<qint64>{ravi});
        QCOMPARE(call("GET", kShifts + QStringLiteral("?limit=1"), m_admin).data().value(QStringLiteral("next_cursor")),
                 QJsonValue(QString::number(ravi)));
        QCOMPARE(listed(m_admin, QStringLiteral("limit=1&cursor=") + QString::number(ravi)), QList<qint64>{asha});
        QCOMPARE(call("GET", kShifts + QStringLiteral("?state=paused"), m_admin).status, 400);
        QCOMPARE(call("GET", kShifts + QStringLiteral("?date=yesterday"), m_admin).status, 400);

        r = close(m_admin, asha, QJsonObject{{QStringLiteral("note"), QStringLiteral("Asha went home ill")}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("closed_by")).toString(), QStringLiteral("Meera"));
        QCOMPARE(r.data().value(QStringLiteral("close_note")).toString(), QStringLiteral("Asha went home ill"));
        QCOMPARE(listed(m_admin, QStringLiteral("state=closed")), QList<qint64>{asha});
        QCOMPARE(listed(m_admin, QStringLiteral("state=open")), QList<qint64>{ravi});
        // Her own shift an admin closes without a note.
        const qint64 meera = openedShift(m_admin, QStringLiteral("Back desk"), QStringLiteral("₹0.00"));
        QCOMPARE(close(m_admin, meera, QJsonObject{}).status, 200);
    }

    void badOpeningsAreRefused_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("reason");
        const auto body = [](const QJsonValue &terminal, const QJsonValue &cash) {
            QJsonObject json;
            if (!terminal.isUndefined())
                json.insert(QStringLiteral("terminal"), terminal);
            if (!cash.isUndefined())
                json.insert(QStringLiteral("opening_cash"), cash);
            return json;
        };
        const QJsonValue gone(QJsonValue::Undefined);
        const QString counter = QStringLiteral("Counter 1");
        QTest::newRow("no terminal") << body(gone, QStringLiteral("₹1.00")) << QStringLiteral("missing_field");
        QTest::newRow("long terminal") << body(QString(41, QLatin1Char('T')), QStringLiteral("₹1.00"))
                                       << QStringLiteral("invalid_terminal");
        QTest::newRow("terminal with a tab")
            << body(QStringLiteral("Counter\t1"), QStringLiteral("₹1.00")) << QStringLiteral("control_characters");
        QTest::newRow("blank terminal") << body(QStringLiteral("   "), QStringLiteral("₹1.00"))
                                        << QStringLiteral("missing_field");
        QTest::newRow("no cash") << body(counter, gone) << QStringLiteral("missing_field");
        QTest::newRow("cash as a number") << body(counter, 2000) << QStringLiteral("invalid_amount");
        QTest::newRow("negative cash") << body(counter, QStringLiteral("-₹1.00"))
                                       << QStringLiteral("invalid_opening_cash");
        QTest::newRow("too much cash") << body(counter, QStringLiteral("₹1000000.01"))
                                       << QStringLiteral("invalid_opening_cash");
    }
    void badOpeningsAreRefused()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, reason);
        const HttpResult r = call("POST", kShifts, m_asha, body);
        QVERIFY2(r.status == 400 && reasonOf(r) == reason, qPrintable(describe(r)));
        QCOMPARE(call("GET", kShifts, m_admin).data().value(QStringLiteral("count")).toInt(), 0);
    }

    void badCountsAreRefused_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        const auto counts = [](const QString &note, const QJsonValue &count) {
            return QJsonObject{{QStringLiteral("counts"), QJsonObject{{QStringLiteral("500"), 2}, {note, count}}}};
        };
        QTest::newRow("a ₹2000 note") << counts(QStringLiteral("2000"), 1) << QStringLiteral("counts.2000")
                                      << QStringLiteral("unknown_denomination");
        QTest::newRow("coins as a note") << counts(QStringLiteral("1"), 5) << QStringLiteral("counts.1")
                                         << QStringLiteral("unknown_denomination");
        QTest::newRow("not a number") << counts(QStringLiteral("200"), QStringLiteral("two"))
                                      << QStringLiteral("counts.200") << QStringLiteral("invalid_count");
        QTest::newRow("negative") << counts(QStringLiteral("100"), -1) << QStringLiteral("counts.100")
                                  << QStringLiteral("invalid_count");
        QTest::newRow("fraction") << counts(QStringLiteral("50"), 1.5) << QStringLiteral("counts.50")
                                  << QStringLiteral("invalid_count");
        QTest::newRow("too many") << counts(QStringLiteral("10"), 100001) << QStringLiteral("counts.10")
                                  << QStringLiteral("invalid_count");
        QTest::newRow("counts as a list") << QJsonObject{{QStringLiteral("counts"), QJsonArray{1, 2}}}
                                          << QStringLiteral("counts") << QStringLiteral("invalid_type");
        QTest::newRow("coins as a number") << QJsonObject{{QStringLiteral("coins"), 35}} << QStringLiteral("coins")
                                           << QStringLiteral("invalid_amount");
        QTest::newRow("negative coins") << QJsonObject{{QStringLiteral("coins"), QStringLiteral("-₹1.00")}}
                                        << QStringLiteral("coins") << QStringLiteral("invalid_coins");
        QTest::newRow("long note") << QJsonObject{{QStringLiteral("note"), QString(301, QLatin1Char('n'))}}
                                   << QStringLiteral("note") << QStringLiteral("invalid_note");
        QTest::newRow("note as a number")
            << QJsonObject{{QStringLiteral("note"), 5}} << QStringLiteral("note") << QStringLiteral("invalid_type");
    }
    void badCountsAreRefused()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const qint64 id = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        QCOMPARE(sell(m_asha, QStringLiteral("cash")).status, 200);
        const QJsonObject before = shiftSeenByAdmin(id);
        const qint64 wallet = balance();

        const HttpResult r = close(m_asha, id, body);
        QVERIFY2(r.status == 400 && reasonOf(r) == reason, qPrintable(describe(r)));
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), field);
        QVERIFY(!r.error().value(QStringLiteral("description")).toString().isEmpty());
        QCOMPARE(shiftSeenByAdmin(id), before);
        QCOMPARE(before.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QCOMPARE(balance(), wallet);
    }

    void badTenderIsRefused_data()
    {
        QTest::addColumn<QJsonValue>("tender");
        QTest::addColumn<QString>("reason");
        QTest::newRow("card") << QJsonValue(QStringLiteral("card")) << QStringLiteral("invalid_tender");
        QTest::newRow("upper case") << QJsonValue(QStringLiteral("CASH")) << QStringLiteral("invalid_tender");
        QTest::newRow("number") << QJsonValue(1) << QStringLiteral("invalid_type");
    }
    void badTenderIsRefused()
    {
        QFETCH(QJsonValue, tender);
        QFETCH(QString, reason);
        const qint64 id = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        const QJsonObject before = shiftSeenByAdmin(id);
        const qint64 wallet = balance();
        const qint64 sales = transactionCount();
        const HttpResult r = call("POST", kMobile, m_asha,
                                  QJsonObject{{QStringLiteral("phone_number"), QStringLiteral("9876543210")},
                                              {QStringLiteral("amount"), 249},
                                              {QStringLiteral("operator_code"), QStringLiteral("RJ")},
                                              {QStringLiteral("tender"), tender}});
        QVERIFY2(r.status == 400 && reasonOf(r) == reason, qPrintable(describe(r)));
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("tender"));
        QCOMPARE(balance(), wallet);
        QCOMPARE(transactionCount(), sales);
        QCOMPARE(shiftSeenByAdmin(id), before);
    }

    // A shop that sells in shifts: no sale without the person's open shift (409, nothing charged), whoever asks.
    void shiftsOnNeedAnOpenShift()
    {
        // How the counter works is the admin's to say (a test admin key may); the UPI ID customers pay to needs
        // live authority.
        HttpResult r = updateShop(QJsonObject{{QStringLiteral("shifts_enabled"), true}}, {}, m_server->admin());
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("shifts_enabled")).toBool(), true);
        QCOMPARE(updateShop(QJsonObject{{QStringLiteral("shifts_enabled"), true}}, m_asha).status, 403);
        r = updateShop(QJsonObject{{QStringLiteral("upi_vpa"), QStringLiteral("sharma@okaxis")}}, {},
                       m_server->admin());
        QCOMPARE(r.status, 403);
        QCOMPARE(reasonOf(r), QStringLiteral("live_authority_required"));
        r = updateShop(QJsonObject{{QStringLiteral("upi_vpa"), QStringLiteral("not a vpa")}}, m_admin);
        QCOMPARE(r.status, 400);
        QCOMPARE(reasonOf(r), QStringLiteral("invalid_upi_vpa"));
        r = updateShop(QJsonObject{{QStringLiteral("upi_payee_name"), QString(51, QLatin1Char('p'))}}, m_admin);
        QCOMPARE(r.status, 400);
        QCOMPARE(reasonOf(r), QStringLiteral("invalid_upi_payee_name"));
        r = updateShop(QJsonObject{{QStringLiteral("upi_vpa"), QStringLiteral("sharmamobile@okaxis")},
                                   {QStringLiteral("upi_payee_name"), QStringLiteral("Sharma Mobile Point")}},
                       m_admin);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject shop = call("GET", QStringLiteral("/api/v1/shop"), m_asha).data();
        QCOMPARE(shop.value(QStringLiteral("upi_vpa")).toString(), QStringLiteral("sharmamobile@okaxis"));
        QCOMPARE(shop.value(QStringLiteral("upi_payee_name")).toString(), QStringLiteral("Sharma Mobile Point"));
        QCOMPARE(shop.value(QStringLiteral("shifts_enabled")).toBool(), true);
        QCOMPARE(shop.value(QStringLiteral("blind_count")).toBool(), false);

        const qint64 wallet = balance();
        const qint64 sales = transactionCount();
        for (const QByteArray &session : {m_asha, QByteArray()}) {
            const HttpResult refused = sell(session, QStringLiteral("cash"));
            QVERIFY2(refused.status == 409 && reasonOf(refused) == QLatin1String("no_open_shift"),
                     qPrintable(describe(refused)));
        }
        QCOMPARE(balance(), wallet);
        QCOMPARE(transactionCount(), sales);

        const qint64 id = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        const HttpResult sold = sell(m_asha, QStringLiteral("cash"));
        QVERIFY2(sold.status == 200, qPrintable(describe(sold)));
        QCOMPARE(sold.data().value(QStringLiteral("shift_id")).toInteger(), id);
        QCOMPARE(sell(m_ravi, QStringLiteral("cash")).status, 409); // Asha's shift is hers, not the terminal's key's

        // Turned off again, a sale needs no shift.
        QCOMPARE(updateShop(QJsonObject{{QStringLiteral("shifts_enabled"), false}}, m_admin).status, 200);
        const HttpResult free = sell(m_ravi, QStringLiteral("upi"));
        QCOMPARE(free.status, 200);
        QVERIFY(!free.data().contains(QStringLiteral("shift_id")));
    }

    void dayEndReportHasTendersAndShifts()
    {
        const qint64 closed = openedShift(m_asha, QStringLiteral("Counter 1"), QStringLiteral("₹2000.00"));
        QCOMPARE(sell(m_asha, QStringLiteral("cash"), 249).status, 200);
        QCOMPARE(sell(m_asha, QStringLiteral("upi"), 299).status, 200);
        QCOMPARE(sell(m_asha, QStringLiteral("cash"), 100, QStringLiteral("9876500000")).status, 200); // FAILED
        QCOMPARE(close(m_asha, closed,
                       QJsonObject{{QStringLiteral("counts"),
                                    QJsonObject{{QStringLiteral("500"), 4}, {QStringLiteral("200"), 2}}}})
                     .status,
                 200);
        const qint64 open = openedShift(m_ravi, QStringLiteral("Counter 2"), QStringLiteral("₹500.00"));
        QCOMPARE(sell(m_ravi, QStringLiteral("cash"), 199).status, 200);
        QCOMPARE(sell({}, QString(), 50).status, 200); // an API client: no tender

        const HttpResult r = call("GET", QStringLiteral("/api/v1/reports/day-end"), m_admin);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject tenders = r.data().value(QStringLiteral("tenders")).toObject();
        QCOMPARE(tenders.value(QStringLiteral("cash")).toObject().value(QStringLiteral("count")).toInt(), 2);
        QCOMPARE(paise(tenders.value(QStringLiteral("cash")).toObject(), QStringLiteral("amount")), 44800);
        QCOMPARE(tenders.value(QStringLiteral("upi")).toObject().value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(paise(tenders.value(QStringLiteral("upi")).toObject(), QStringLiteral("amount")), 29900);
        QCOMPARE(tenders.value(QStringLiteral("unrecorded")).toObject().value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(paise(tenders.value(QStringLiteral("unrecorded")).toObject(), QStringLiteral("amount")), 5000);

        const QJsonArray shifts = r.data().value(QStringLiteral("shifts")).toArray();
        QCOMPARE(shifts.size(), 2);
        const QJsonObject first = shifts.at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("id")).toInteger(), closed);
        QCOMPARE(first.value(QStringLiteral("clerk")).toString(), QStringLiteral("Asha"));
        QCOMPARE(first.value(QStringLiteral("state")).toString(), QStringLiteral("closed"));
        QCOMPARE(paise(first, QStringLiteral("expected_cash")), 224900);
        QCOMPARE(paise(first, QStringLiteral("counted_cash")), 240000);
        QCOMPARE(paise(first, QStringLiteral("difference")), 15100);
        const QJsonObject second = shifts.at(1).toObject();
        QCOMPARE(second.value(QStringLiteral("id")).toInteger(), open);
        QCOMPARE(second.value(QStringLiteral("terminal")).toString(), QStringLiteral("Counter 2"));
        QCOMPARE(second.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QCOMPARE(paise(second, QStringLiteral("expected_cash")), 69900);
        QVERIFY(second.value(QStringLiteral("counted_cash")).isNull());
        QVERIFY(second.value(QStringLiteral("difference")).isNull());
        QVERIFY(second.value(QStringLiteral("closed_at")).isNull());

        // Another day has none.
        const HttpResult past = call("GET", QStringLiteral("/api/v1/reports/day-end?date=2001-01-01"), m_admin);
        QCOMPARE(past.data().value(QStringLiteral("shifts")).toArray().size(), 0);
        QCOMPARE(past.data()
                     .value(QStringLiteral("tenders"))
                     .toObject()
                     .value(QStringLiteral("cash"))
                     .toObject()
                     .value(QStringLiteral("count")),
                 QJsonValue(0));
    }
};

QTEST_GUILESS_MAIN(TestShiftsApi)
#include "tst_shiftsapi.moc"
