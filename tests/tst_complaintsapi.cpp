// Issue 29, complaints over real HTTP on one server (test sales, so the sandbox decides where a person does not):
// each reason and each state, one unresolved complaint per sale, who may raise and who may resolve, bad input refused
// with nothing changed, credited reversing the sale exactly once (a second resolve refused, the wallet refunded once,
// the status check answering FAILED), the sandbox's decisions by reason (also after a restart), the list's order and
// filters, the deadline, the day-end report's counts and the event.complaint webhooks. Runs on SQLite and
// (pg_complaintsapi) PostgreSQL, and with HTTP worker threads (threads_complaintsapi).
#include "clock.h"
#include "complaintclient.h"
#include "money.h"
#include "testserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
const QString kAdminPin = QStringLiteral("246802");
const QString kClerkPin = QStringLiteral("1357");
const QStringList kReasons{QStringLiteral("not_received"), QStringLiteral("wrong_number"),
                           QStringLiteral("wrong_operator"), QStringLiteral("wrong_amount"), QStringLiteral("other")};

QString describe(const HttpResult &result)
{
    return QStringLiteral("%1 %2").arg(result.status).arg(QString::fromUtf8(result.body.left(400)));
}

QString reasonOf(const HttpResult &result)
{
    return result.error().value(QStringLiteral("reason")).toString();
}

/// What the wallet paid for a sale (its record's `paid`), in paise; -1 when unreadable.
Paise paidOf(const QJsonObject &record)
{
    return Money::parse(record.value(QStringLiteral("paid")).toString()).value_or(-1);
}

} // namespace

class TestComplaintsApi final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ManualClock> m_clock; ///< when a test sets the time; outlives the server (its threads read it)
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<ComplaintClient> m_complaints;

    void startServer(const Clock *clock = nullptr)
    {
        m_server = std::make_unique<TestServer>(TestServer::defaultOptions(), clock);
        m_complaints = std::make_unique<ComplaintClient>(
            m_server->http(), [server = m_server.get()](const QString &path) { return server->url(path); });
    }

    /// The shop's sandbox settle delay (also when the sandbox decides a complaint), in ms.
    void setSettleDelay(qint64 ms)
    {
        const HttpResult r = m_complaints->send("PUT", QStringLiteral("/api/v1/shop"), m_server->admin(),
                                                QJsonObject{{QStringLiteral("sandbox_settle_delay_ms"), ms}});
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
    }

    /// A test mobile sale of ₹249 to `phone` with `key` (default: the pos key); its record.
    QJsonObject sell(const QString &phone = QStringLiteral("9876543210"), const QByteArray &key = {})
    {
        const HttpResult r = m_complaints->send("POST", kMobile, key.isEmpty() ? m_server->pos() : key,
                                                QJsonObject{{QStringLiteral("phone_number"), phone},
                                                            {QStringLiteral("amount"), 249},
                                                            {QStringLiteral("operator_code"), QStringLiteral("RJ")}});
        if (r.status != 200)
            qWarning("sell: %s", qPrintable(describe(r)));
        return r.data();
    }

    qint64 soldId(const QString &phone = QStringLiteral("9876543210"))
    {
        return sell(phone).value(QStringLiteral("transaction_id")).toInteger();
    }

    /// Raises a complaint that must be taken; its id.
    qint64 raised(qint64 saleId, const QString &reason, const QString &note = QStringLiteral("customer says so"))
    {
        const HttpResult r = m_complaints->raise(saleId, reason, note, m_server->pos());
        if (r.status != 201)
            qWarning("raise: %s", qPrintable(describe(r)));
        return r.status == 201 ? r.data().value(QStringLiteral("id")).toInteger() : -1;
    }

    QJsonObject record(qint64 saleId)
    {
        return m_complaints->send("GET", QStringLiteral("/api/v1/transactions/%1").arg(saleId), m_server->pos()).data();
    }

    qint64 scalar(const QString &sql, const QVariantList &values = {})
    {
        QSqlQuery &q = m_server->db().run(sql, values);
        const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return value;
    }

    qint64 balance()
    {
        return m_complaints->send("GET", QStringLiteral("/api/v1/wallet"), m_server->pos())
            .data()
            .value(QStringLiteral("balance_paise"))
            .toInteger(-1);
    }

    qint64 refunds(qint64 saleId)
    {
        return scalar(QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ? AND kind = 'refund'"),
                      {saleId});
    }

    /// The states of the complaint events queued for `saleId`, oldest first.
    QStringList complaintEvents(qint64 saleId)
    {
        QStringList states;
        QSqlQuery &q = m_server->db().run(QStringLiteral("SELECT payload FROM webhook_events WHERE transaction_id = ?"
                                                         " AND event_type = 'event.complaint' ORDER BY id"),
                                          {saleId});
        while (q.next())
            states.append(QJsonDocument::fromJson(q.value(0).toString().toUtf8())
                              .object()
                              .value(QStringLiteral("state"))
                              .toString());
        q.finish();
        return states;
    }

    QByteArray signIn(const QString &name, const QString &pin)
    {
        return m_complaints
            ->send("POST", QStringLiteral("/api/v1/users/sign-in"), m_server->pos(),
                   QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("pin"), pin}})
            .data()
            .value(QStringLiteral("session_token"))
            .toString()
            .toLatin1();
    }

    void addUser(const QString &name, const QString &role, const QString &pin)
    {
        const HttpResult r = m_complaints->send(
            "POST", QStringLiteral("/api/v1/users"), m_server->liveAdmin(),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("role"), role}, {QStringLiteral("pin"), pin}});
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
    }

private slots:
    void init() { startServer(); }

    void cleanup()
    {
        m_complaints.reset();
        m_server.reset();
        m_clock.reset();
    }

    void raisesWithEachReason_data()
    {
        QTest::addColumn<QString>("reason");
        for (const QString &reason : kReasons)
            QTest::newRow(qPrintable(reason)) << reason;
    }

    void raisesWithEachReason()
    {
        QFETCH(QString, reason);
        setSettleDelay(600'000); // the sandbox does not decide during the test
        const QJsonObject sale = sell();
        const qint64 saleId = sale.value(QStringLiteral("transaction_id")).toInteger();
        const HttpResult r =
            m_complaints->raise(saleId, reason, QStringLiteral("Recharge not\nshown on the phone"), m_server->pos());
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
        const QJsonObject c = r.data();
        QCOMPARE(c.value(QStringLiteral("entity")).toString(), QStringLiteral("complaint"));
        QCOMPARE(c.value(QStringLiteral("transaction_id")).toInteger(), saleId);
        QCOMPARE(c.value(QStringLiteral("reason")).toString(), reason);
        QCOMPARE(c.value(QStringLiteral("note")).toString(), QStringLiteral("Recharge not\nshown on the phone"));
        QCOMPARE(c.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QCOMPARE(c.value(QStringLiteral("mode")).toString(), QStringLiteral("test"));
        QCOMPARE(c.value(QStringLiteral("number")).toString(), QStringLiteral("9876543210"));
        QCOMPARE(c.value(QStringLiteral("operator_code")).toString(), QStringLiteral("RJ"));
        QCOMPARE(c.value(QStringLiteral("amount")).toString(), QStringLiteral("₹249.00"));
        QCOMPARE(c.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QVERIFY(c.value(QStringLiteral("raised_by")).toString().startsWith(QStringLiteral("key:test_")));
        QVERIFY(c.value(QStringLiteral("resolution")).isNull());
        QVERIFY(c.value(QStringLiteral("resolved_at")).isNull());
        QVERIFY(c.value(QStringLiteral("resolved_by")).isNull());
        QVERIFY(c.value(QStringLiteral("upstream")).isNull()); // a test sale's: the sandbox's, never an upstream's
        QCOMPARE(c.value(QStringLiteral("past_deadline")).toBool(), false);
        // The deadline: the shop's 48 hours by default.
        const QDateTime raisedAt = IstTime::parse(c.value(QStringLiteral("raised_at")).toString());
        const QDateTime deadline = IstTime::parse(c.value(QStringLiteral("deadline_at")).toString());
        QCOMPARE(raisedAt.secsTo(deadline), 48 * 3600);
        // Read back, alone and in the list; one event.complaint queued for the shop's clients.
        const qint64 id = c.value(QStringLiteral("id")).toInteger();
        QCOMPARE(m_complaints->complaint(id, m_server->pos()).value(QStringLiteral("reason")).toString(), reason);
        const QJsonArray items = m_complaints->list(QStringLiteral("transaction_id=%1").arg(saleId), m_server->pos())
                                     .data()
                                     .value(QStringLiteral("items"))
                                     .toArray();
        QCOMPARE(items.size(), 1);
        QCOMPARE(items.first().toObject().value(QStringLiteral("id")).toInteger(), id);
        QCOMPARE(complaintEvents(saleId), QStringList{QStringLiteral("open")});
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'complaint.raise'")), 1);
    }

    // The sandbox decides by reason once the shop's settle delay has passed (0 here: at once); `other` is left to the
    // admin. Ends each state the sandbox reaches.
    void sandboxDecidesByReason()
    {
        setSettleDelay(0);
        QHash<QString, qint64> sales;
        for (const QString &reason : kReasons)
            sales.insert(reason, soldId(QStringLiteral("98765432%1").arg(sales.size() + 10)));
        const qint64 before = balance();
        const Paise paid = paidOf(record(sales.value(QStringLiteral("not_received"))));
        QHash<QString, qint64> complaints;
        for (const QString &reason : kReasons)
            complaints.insert(reason, raised(sales.value(reason), reason));
        // not_received: credited, the sale reversed and refunded once.
        const qint64 credited = complaints.value(QStringLiteral("not_received"));
        QTRY_COMPARE(m_complaints->state(credited, m_server->pos()), QStringLiteral("credited"));
        const QJsonObject c = m_complaints->complaint(credited, m_server->pos());
        QCOMPARE(c.value(QStringLiteral("resolved_by")).toString(), QStringLiteral("sandbox"));
        QCOMPARE(c.value(QStringLiteral("operator_reference")).toString(),
                 QStringLiteral("SBX-%1").arg(sales.value(QStringLiteral("not_received"))));
        QCOMPARE(c.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        const QJsonObject reversed = record(sales.value(QStringLiteral("not_received")));
        QCOMPARE(reversed.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        QCOMPARE(reversed.value(QStringLiteral("failed_after_pending")).toBool(), true);
        QCOMPARE(refunds(sales.value(QStringLiteral("not_received"))), 1);
        QCOMPARE(balance(), before + paid);
        // The wrong_* reasons: rejected with the operator's words and reference; nothing refunded.
        for (const QString &reason :
             {QStringLiteral("wrong_number"), QStringLiteral("wrong_operator"), QStringLiteral("wrong_amount")}) {
            QTRY_COMPARE(m_complaints->state(complaints.value(reason), m_server->pos()), QStringLiteral("rejected"));
            const QJsonObject r = m_complaints->complaint(complaints.value(reason), m_server->pos());
            QVERIFY(!r.value(QStringLiteral("resolution")).toString().isEmpty());
            QCOMPARE(r.value(QStringLiteral("operator_reference")).toString(),
                     QStringLiteral("SBX-%1").arg(sales.value(reason)));
            QCOMPARE(record(sales.value(reason)).value(QStringLiteral("transaction_status")).toString(),
                     QStringLiteral("SUCCESS"));
            QCOMPARE(refunds(sales.value(reason)), 0);
        }
        // other: due with the others, decided by nobody: still open, nothing more due.
        const qint64 other = complaints.value(QStringLiteral("other"));
        QCOMPARE(m_complaints->state(other, m_server->pos()), QStringLiteral("open"));
        QCOMPARE(scalar(QStringLiteral("SELECT next_step_at FROM complaints WHERE id = ?"), {other}), 0);
        QCOMPARE(balance(), before + paid);
        // Each credited or rejected one told the shop's clients twice: raised (open), then resolved.
        QCOMPARE(complaintEvents(sales.value(QStringLiteral("not_received"))),
                 (QStringList{QStringLiteral("open"), QStringLiteral("credited")}));
        QCOMPARE(complaintEvents(sales.value(QStringLiteral("other"))), QStringList{QStringLiteral("open")});
    }

    // The sandbox's decision is a row: a server restarted before it was due decides it after the restart.
    void sandboxDecidesAfterARestart()
    {
        setSettleDelay(1500);
        const qint64 saleId = soldId();
        const qint64 id = raised(saleId, QStringLiteral("not_received"));
        QCOMPARE(m_complaints->state(id, m_server->pos()), QStringLiteral("open"));
        m_server->restart();
        QTRY_COMPARE_WITH_TIMEOUT(m_complaints->state(id, m_server->pos()), QStringLiteral("credited"), 10'000);
        QCOMPARE(refunds(saleId), 1);
    }

    void oneUnresolvedComplaintPerSale()
    {
        setSettleDelay(600'000);
        const qint64 saleId = soldId();
        const qint64 first = raised(saleId, QStringLiteral("wrong_amount"));
        QVERIFY(first > 0);
        const HttpResult again = m_complaints->raise(saleId, QStringLiteral("not_received"), {}, m_server->pos());
        QCOMPARE(again.status, 409);
        QCOMPARE(reasonOf(again), QStringLiteral("complaint_open"));
        QVERIFY(again.error().value(QStringLiteral("description")).toString().contains(QString::number(first)));
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM complaints")), 1);
        // Rejected, the sale takes a new complaint.
        const HttpResult rejected =
            m_complaints->resolve(first, QStringLiteral("rejected"), QStringLiteral("Operator shows it delivered"),
                                  QStringLiteral("JIO-88123"), m_server->admin());
        QVERIFY2(rejected.status == 200, qPrintable(describe(rejected)));
        QVERIFY(raised(saleId, QStringLiteral("not_received")) > first);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM complaints")), 2);
    }

    // Credited: the sale is reversed as an upstream's reversal (FAILED, failed_after_pending, refunded once, its
    // webhook again); a second resolve is refused and moves no money; the status check, answered from the server's
    // cache of finished sales before, answers FAILED.
    void creditedReversesTheSaleOnce()
    {
        setSettleDelay(600'000);
        const qint64 saleId = soldId();
        QCOMPARE(record(saleId).value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        const qint64 before = balance();
        const Paise paid = paidOf(record(saleId));
        const qint64 id = raised(saleId, QStringLiteral("other"), QStringLiteral("Customer got a different pack"));
        const HttpResult r =
            m_complaints->resolve(id, QStringLiteral("credited"), QStringLiteral("Refunded at counter"),
                                  QStringLiteral("RJ-7781"), m_server->admin());
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject c = r.data();
        QCOMPARE(c.value(QStringLiteral("state")).toString(), QStringLiteral("credited"));
        QCOMPARE(c.value(QStringLiteral("resolution")).toString(), QStringLiteral("Refunded at counter"));
        QCOMPARE(c.value(QStringLiteral("operator_reference")).toString(), QStringLiteral("RJ-7781"));
        QVERIFY(c.value(QStringLiteral("resolved_by")).toString().startsWith(QStringLiteral("key:test_")));
        QVERIFY(!c.value(QStringLiteral("resolved_at")).isNull());
        QCOMPARE(c.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        const QJsonObject sale = record(saleId);
        QCOMPARE(sale.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        QCOMPARE(sale.value(QStringLiteral("failed_after_pending")).toBool(), true);
        QCOMPARE(balance(), before + paid);
        QCOMPARE(refunds(saleId), 1);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM webhook_events WHERE transaction_id = ? AND"
                                       " event_type = 'event.mobile_recharge'"),
                        {saleId}),
                 1); // a SUCCESS at once sends none; the reversal sends the FAILED record
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'complaint.resolve'")), 1);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'transaction.reversal'")), 1);

        for (const QString &outcome : {QStringLiteral("credited"), QStringLiteral("rejected")}) {
            const HttpResult again = m_complaints->resolve(id, outcome, QStringLiteral("again"), {}, m_server->admin());
            QCOMPARE(again.status, 409);
            QCOMPARE(reasonOf(again), QStringLiteral("complaint_resolved"));
        }
        QCOMPARE(balance(), before + paid);
        QCOMPARE(refunds(saleId), 1);
        QCOMPARE(complaintEvents(saleId), (QStringList{QStringLiteral("open"), QStringLiteral("credited")}));
        // Its money given back, the sale takes no new complaint.
        const HttpResult newOne = m_complaints->raise(saleId, QStringLiteral("not_received"), {}, m_server->pos());
        QCOMPARE(newOne.status, 409);
        QCOMPARE(reasonOf(newOne), QStringLiteral("not_complainable"));
    }

    // A PENDING sale takes a complaint; credited, it ends FAILED (failed_after_pending), refunded once, and its
    // settlement timer later changes nothing.
    void creditedPendingSaleFailsOnce()
    {
        setSettleDelay(2000);
        const QJsonObject sale = sell(QStringLiteral("9876541111")); // sandbox: PENDING, then SUCCESS
        QCOMPARE(sale.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        const qint64 saleId = sale.value(QStringLiteral("transaction_id")).toInteger();
        const qint64 before = balance();
        const Paise paid = paidOf(sale);
        const qint64 id = raised(saleId, QStringLiteral("other"));
        QCOMPARE(m_complaints->complaint(id, m_server->pos()).value(QStringLiteral("transaction_status")).toString(),
                 QStringLiteral("PENDING"));
        QCOMPARE(m_complaints->resolve(id, QStringLiteral("credited"), {}, {}, m_server->admin()).status, 200);
        QCOMPARE(record(saleId).value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        QCOMPARE(record(saleId).value(QStringLiteral("failed_after_pending")).toBool(), true);
        QCOMPARE(balance(), before + paid);
        // The sale's settlement timer comes due and finds it ended.
        QTRY_COMPARE_WITH_TIMEOUT(
            scalar(QStringLiteral("SELECT COUNT(*) FROM settlements WHERE transaction_id = ?"), {saleId}), 0, 10'000);
        QCOMPARE(record(saleId).value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        QCOMPARE(refunds(saleId), 1);
        QCOMPARE(balance(), before + paid);
    }

    void failedOrUnknownSalesAreRefused()
    {
        const QJsonObject failed = sell(QStringLiteral("9876540000")); // sandbox: FAILED at once
        QCOMPARE(failed.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        HttpResult r = m_complaints->raise(failed.value(QStringLiteral("transaction_id")).toInteger(),
                                           QStringLiteral("not_received"), {}, m_server->pos());
        QCOMPARE(r.status, 409);
        QCOMPARE(reasonOf(r), QStringLiteral("not_complainable"));
        r = m_complaints->raise(999'999, QStringLiteral("not_received"), {}, m_server->pos());
        QCOMPARE(r.status, 404);
        QCOMPARE(reasonOf(r), QStringLiteral("transaction_not_found"));
        // Another account's sale, and a sale of the other mode, are not the caller's.
        const qint64 saleId = soldId();
        r = m_complaints->raise(saleId, QStringLiteral("not_received"), {},
                                m_server->createKey(Mode::Test, Scope::Pos, QStringLiteral("other-shop")));
        QCOMPARE(r.status, 404);
        r = m_complaints->raise(saleId, QStringLiteral("not_received"), {},
                                m_server->createKey(Mode::Live, Scope::Pos));
        QCOMPARE(r.status, 404);
        QCOMPARE(m_complaints->send("GET", QStringLiteral("/api/v1/complaints/999999"), m_server->pos()).status, 404);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM complaints")), 0);
    }

    void badInputIsRefusedAndNothingChanges_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no reason") << QJsonObject{{QStringLiteral("note"), QStringLiteral("x")}} << 400 << "reason"
                                   << "missing_field";
        QTest::newRow("unknown reason") << QJsonObject{{QStringLiteral("reason"), QStringLiteral("late")}} << 400
                                        << "reason"
                                        << "invalid_reason";
        QTest::newRow("reason not text") << QJsonObject{{QStringLiteral("reason"), 3}} << 400 << "reason"
                                         << "invalid_type";
        QTest::newRow("other without a note")
            << QJsonObject{{QStringLiteral("reason"), QStringLiteral("other")}} << 400 << "note"
            << "note_required";
        QTest::newRow("other with a blank note") << QJsonObject{{QStringLiteral("reason"), QStringLiteral("other")},
                                                                {QStringLiteral("note"), QStringLiteral("   ")}}
                                                 << 400 << "note"
                                                 << "note_required";
        QTest::newRow("note too long") << QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_received")},
                                                      {QStringLiteral("note"), QString(301, QLatin1Char('a'))}}
                                       << 400 << "note"
                                       << "invalid_note";
        QTest::newRow("note with a control character")
            << QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_received")},
                           {QStringLiteral("note"), QStringLiteral("bell\u0007")}}
            << 400 << "note"
            << "invalid_note";
        QTest::newRow("note not text") << QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_received")},
                                                      {QStringLiteral("note"), 12}}
                                       << 400 << "note"
                                       << "invalid_type";
    }

    void badInputIsRefusedAndNothingChanges()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        const qint64 saleId = soldId();
        const qint64 events = scalar(QStringLiteral("SELECT COUNT(*) FROM webhook_events"));
        const HttpResult r = m_complaints->send(
            "POST", QStringLiteral("/api/v1/transactions/%1/complaints").arg(saleId), m_server->pos(), body);
        QVERIFY2(r.status == status, qPrintable(describe(r)));
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(reasonOf(r), reason);
        QVERIFY(!r.error().value(QStringLiteral("description")).toString().isEmpty());
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM complaints")), 0);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action LIKE 'complaint.%'")), 0);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM webhook_events")), events);
    }

    void badResolutionsAreRefusedAndNothingChanges_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no outcome") << QJsonObject{} << "outcome"
                                    << "missing_field";
        QTest::newRow("unknown outcome") << QJsonObject{{QStringLiteral("outcome"), QStringLiteral("refunded")}}
                                         << "outcome"
                                         << "invalid_outcome";
        QTest::newRow("rejected without words")
            << QJsonObject{{QStringLiteral("outcome"), QStringLiteral("rejected")}} << "words"
            << "words_required";
        QTest::newRow("words too long") << QJsonObject{{QStringLiteral("outcome"), QStringLiteral("rejected")},
                                                       {QStringLiteral("words"), QString(301, QLatin1Char('w'))}}
                                        << "words"
                                        << "invalid_words";
        QTest::newRow("reference on two lines")
            << QJsonObject{{QStringLiteral("outcome"), QStringLiteral("credited")},
                           {QStringLiteral("operator_reference"), QStringLiteral("A\nB")}}
            << "operator_reference"
            << "invalid_operator_reference";
        QTest::newRow("reference too long")
            << QJsonObject{{QStringLiteral("outcome"), QStringLiteral("credited")},
                           {QStringLiteral("operator_reference"), QString(65, QLatin1Char('R'))}}
            << "operator_reference"
            << "invalid_operator_reference";
    }

    void badResolutionsAreRefusedAndNothingChanges()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        setSettleDelay(600'000);
        const qint64 saleId = soldId();
        const qint64 id = raised(saleId, QStringLiteral("other"));
        const qint64 before = balance();
        const HttpResult r = m_complaints->send("POST", QStringLiteral("/api/v1/complaints/%1/resolve").arg(id),
                                                m_server->admin(), body);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(reasonOf(r), reason);
        QCOMPARE(m_complaints->state(id, m_server->pos()), QStringLiteral("open"));
        QCOMPARE(record(saleId).value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(balance(), before);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'complaint.resolve'")), 0);
    }

    // A clerk raises (their name as raised_by) but may not resolve; an admin's session resolves (their name as
    // resolved_by); a pos key without a session may not resolve either.
    void clerksRaiseAdminsResolve()
    {
        setSettleDelay(600'000);
        addUser(QStringLiteral("Meera"), QStringLiteral("admin"), kAdminPin);
        addUser(QStringLiteral("Asha"), QStringLiteral("clerk"), kClerkPin);
        const QByteArray admin = signIn(QStringLiteral("Meera"), kAdminPin);
        const QByteArray clerk = signIn(QStringLiteral("Asha"), kClerkPin);
        QVERIFY(!admin.isEmpty() && !clerk.isEmpty());
        const qint64 saleId = soldId();
        const HttpResult r = m_complaints->raise(saleId, QStringLiteral("wrong_number"),
                                                 QStringLiteral("Typed 98 instead of 89"), m_server->pos(), clerk);
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("raised_by")).toString(), QStringLiteral("Asha"));
        const qint64 id = r.data().value(QStringLiteral("id")).toInteger();
        // The clerk reads it and the list; resolving is refused to the clerk and to a pos key alone.
        QCOMPARE(m_complaints->list(QStringLiteral("state=open"), m_server->pos())
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 1);
        HttpResult refused = m_complaints->resolve(id, QStringLiteral("credited"), {}, {}, m_server->pos(), clerk);
        QCOMPARE(refused.status, 403);
        QCOMPARE(reasonOf(refused), QStringLiteral("admin_role_required"));
        refused = m_complaints->resolve(id, QStringLiteral("credited"), {}, {}, m_server->pos());
        QCOMPARE(refused.status, 403);
        QCOMPARE(reasonOf(refused), QStringLiteral("admin_scope_required"));
        QCOMPARE(m_complaints->state(id, m_server->pos()), QStringLiteral("open"));
        const HttpResult resolved =
            m_complaints->resolve(id, QStringLiteral("rejected"), QStringLiteral("Number was recharged as typed"), {},
                                  m_server->pos(), admin);
        QVERIFY2(resolved.status == 200, qPrintable(describe(resolved)));
        QCOMPARE(resolved.data().value(QStringLiteral("resolved_by")).toString(), QStringLiteral("Meera"));
        QCOMPARE(resolved.data().value(QStringLiteral("state")).toString(), QStringLiteral("rejected"));
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'complaint.resolve' AND"
                                       " actor = 'user:Meera'")),
                 1);
    }

    // The list: the unresolved first, then the resolved, each newest first; filters by state and sale; pages of
    // one walk every complaint once.
    void listsUnresolvedFirstThenNewest()
    {
        setSettleDelay(600'000);
        QList<qint64> ids;
        for (int i = 0; i < 5; ++i)
            ids.append(
                raised(soldId(QStringLiteral("98765433%1").arg(i, 2, 10, QLatin1Char('0'))), QStringLiteral("other")));
        // The oldest and the third are resolved.
        QCOMPARE(m_complaints->resolve(ids.at(0), QStringLiteral("credited"), {}, {}, m_server->admin()).status, 200);
        QCOMPARE(
            m_complaints->resolve(ids.at(2), QStringLiteral("rejected"), QStringLiteral("no"), {}, m_server->admin())
                .status,
            200);
        const QList<qint64> expected{ids.at(4), ids.at(3), ids.at(1), ids.at(2), ids.at(0)};
        const auto idsOf = [](const HttpResult &r) {
            QList<qint64> listed;
            for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
                listed.append(item.toObject().value(QStringLiteral("id")).toInteger());
            return listed;
        };
        QCOMPARE(idsOf(m_complaints->list({}, m_server->pos())), expected);
        QCOMPARE(idsOf(m_complaints->list(QStringLiteral("state=unresolved"), m_server->pos())),
                 (QList<qint64>{ids.at(4), ids.at(3), ids.at(1)}));
        QCOMPARE(idsOf(m_complaints->list(QStringLiteral("state=credited"), m_server->pos())),
                 QList<qint64>{ids.at(0)});
        QCOMPARE(idsOf(m_complaints->list(QStringLiteral("state=rejected"), m_server->pos())),
                 QList<qint64>{ids.at(2)});
        QVERIFY(idsOf(m_complaints->list(QStringLiteral("state=with_upstream"), m_server->pos())).isEmpty());
        // One page at a time.
        QList<qint64> walked;
        QString cursor;
        for (int page = 0; page < 10; ++page) {
            const HttpResult r = m_complaints->list(
                QStringLiteral("limit=2") + (cursor.isEmpty() ? QString() : QStringLiteral("&cursor=") + cursor),
                m_server->pos());
            QCOMPARE(r.status, 200);
            walked += idsOf(r);
            const QJsonValue next = r.data().value(QStringLiteral("next_cursor"));
            if (next.isNull())
                break;
            cursor = next.toString();
        }
        QCOMPARE(walked, expected);
        // Bad filters.
        for (const QString &query : {QStringLiteral("state=lost"), QStringLiteral("transaction_id=x"),
                                     QStringLiteral("cursor=bogus"), QStringLiteral("limit=0")}) {
            const HttpResult r = m_complaints->list(query, m_server->pos());
            QVERIFY2(r.status == 400, qPrintable(query + QLatin1Char(' ') + describe(r)));
        }
    }

    // The deadline is the shop's setting (1-720 hours) when the complaint is raised; past it, the complaint says so.
    void deadlineComesFromTheShop()
    {
        m_clock = std::make_unique<ManualClock>(QDateTime::currentDateTimeUtc());
        ManualClock &clock = *m_clock;
        m_complaints.reset();
        m_server.reset();
        startServer(&clock);
        QCOMPARE(m_complaints->send("GET", QStringLiteral("/api/v1/shop"), m_server->pos())
                     .data()
                     .value(QStringLiteral("complaint_deadline_hours"))
                     .toInt(),
                 48);
        for (const int hours : {0, 721}) {
            const HttpResult r = m_complaints->send("PUT", QStringLiteral("/api/v1/shop"), m_server->admin(),
                                                    QJsonObject{{QStringLiteral("complaint_deadline_hours"), hours}});
            QCOMPARE(r.status, 400);
            QCOMPARE(r.error().value(QStringLiteral("field")).toString(), QStringLiteral("complaint_deadline_hours"));
        }
        const HttpResult set = m_complaints->send("PUT", QStringLiteral("/api/v1/shop"), m_server->admin(),
                                                  QJsonObject{{QStringLiteral("complaint_deadline_hours"), 2}});
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
        QCOMPARE(set.data().value(QStringLiteral("complaint_deadline_hours")).toInt(), 2);
        const qint64 id = raised(soldId(), QStringLiteral("other"));
        QJsonObject c = m_complaints->complaint(id, m_server->pos());
        QCOMPARE(IstTime::parse(c.value(QStringLiteral("raised_at")).toString())
                     .secsTo(IstTime::parse(c.value(QStringLiteral("deadline_at")).toString())),
                 2 * 3600);
        QCOMPARE(c.value(QStringLiteral("past_deadline")).toBool(), false);
        clock.advanceMs(90 * 60 * 1000);
        c = m_complaints->complaint(id, m_server->pos());
        QCOMPARE(c.value(QStringLiteral("age_seconds")).toInteger(), 90 * 60);
        QCOMPARE(c.value(QStringLiteral("past_deadline")).toBool(), false);
        clock.advanceMs(60 * 60 * 1000);
        c = m_complaints->complaint(id, m_server->pos());
        QCOMPARE(c.value(QStringLiteral("past_deadline")).toBool(), true);
        QCOMPARE(c.value(QStringLiteral("age_seconds")).toInteger(), 150 * 60);
        // Resolved late, it stays past its deadline and stops ageing.
        QCOMPARE(m_complaints->resolve(id, QStringLiteral("credited"), {}, {}, m_server->admin()).status, 200);
        clock.advanceMs(60 * 60 * 1000);
        c = m_complaints->complaint(id, m_server->pos());
        QCOMPARE(c.value(QStringLiteral("past_deadline")).toBool(), true);
        QCOMPARE(c.value(QStringLiteral("age_seconds")).toInteger(), 150 * 60);
    }

    void dayEndReportCountsComplaints()
    {
        setSettleDelay(600'000);
        const qint64 credited = raised(soldId(QStringLiteral("9876543001")), QStringLiteral("other"));
        const qint64 rejected = raised(soldId(QStringLiteral("9876543002")), QStringLiteral("other"));
        raised(soldId(QStringLiteral("9876543003")), QStringLiteral("not_received"));
        QCOMPARE(m_complaints->resolve(credited, QStringLiteral("credited"), {}, {}, m_server->admin()).status, 200);
        QCOMPARE(m_complaints
                     ->resolve(rejected, QStringLiteral("rejected"), QStringLiteral("delivered"), {}, m_server->admin())
                     .status,
                 200);
        const HttpResult report =
            m_complaints->send("GET", QStringLiteral("/api/v1/reports/day-end"), m_server->admin());
        QVERIFY2(report.status == 200, qPrintable(describe(report)));
        const QJsonObject counts = report.data().value(QStringLiteral("complaints")).toObject();
        QCOMPARE(counts.value(QStringLiteral("raised")).toInt(), 3);
        QCOMPARE(counts.value(QStringLiteral("open")).toInt(), 1);
        QCOMPARE(counts.value(QStringLiteral("credited")).toInt(), 1);
        QCOMPARE(counts.value(QStringLiteral("rejected")).toInt(), 1);
        // Yesterday had none.
        const QString yesterday = IstTime::dateOf(QDateTime::currentDateTimeUtc()).addDays(-1).toString(Qt::ISODate);
        const QJsonObject before =
            m_complaints->send("GET", QStringLiteral("/api/v1/reports/day-end?date=") + yesterday, m_server->admin())
                .data()
                .value(QStringLiteral("complaints"))
                .toObject();
        QCOMPARE(before.value(QStringLiteral("raised")).toInt(), 0);
        QCOMPARE(before.value(QStringLiteral("open")).toInt(), 0);
    }

    // The shop's own clients hear of complaints through the outbox, as of sales: delivered to its endpoint (the
    // built-in inbox here) as event.complaint with the complaint as payload.
    void complaintWebhooksReachTheEndpoint()
    {
        setSettleDelay(0);
        const HttpResult endpoint = m_complaints->send(
            "PUT", QStringLiteral("/api/v1/webhook-endpoint"), m_server->admin(),
            QJsonObject{{QStringLiteral("url"), m_server->url(QStringLiteral("/hooks/inbox")).toString()},
                        {QStringLiteral("webhook_password"), QStringLiteral("inbox-password")}});
        QVERIFY2(endpoint.status == 200 || endpoint.status == 201, qPrintable(describe(endpoint)));
        const qint64 saleId = soldId();
        const qint64 id = raised(saleId, QStringLiteral("not_received"));
        QTRY_COMPARE(m_complaints->state(id, m_server->pos()), QStringLiteral("credited"));
        const auto complaintStates = [this] {
            QStringList states;
            const HttpResult inbox =
                m_complaints->send("GET", QStringLiteral("/api/v1/webhook-inbox?limit=50"), m_server->admin());
            for (const QJsonValue &item : inbox.data().value(QStringLiteral("items")).toArray()) {
                const QJsonObject message = item.toObject();
                if (message.value(QStringLiteral("webhook_event")).toString() != QLatin1String("event.complaint"))
                    continue;
                states.prepend(message.value(QStringLiteral("body"))
                                   .toObject()
                                   .value(QStringLiteral("data"))
                                   .toObject()
                                   .value(QStringLiteral("payload"))
                                   .toObject()
                                   .value(QStringLiteral("state"))
                                   .toString());
            }
            return states;
        };
        QTRY_COMPARE_WITH_TIMEOUT(complaintStates(), (QStringList{QStringLiteral("open"), QStringLiteral("credited")}),
                                  10'000);
    }
};

QTEST_GUILESS_MAIN(TestComplaintsApi)
#include "tst_complaintsapi.moc"
