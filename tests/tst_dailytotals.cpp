// The per-IST-day rollups behind the history's totals line and amount sort (issue 6): sales through
// the real API over several IST days (right after and right before midnight), immediate successes
// and failures, PENDING sales that later succeed or fail (some settling on a later day, some left
// PENDING), then the rollup-based totals compared with a raw recomputation for every combination of
// filters, the rollup table compared with a GROUP BY of the rows, the migration's backfill, and
// the amount order's pages compared with a plain sort.
#include "httpclient.h"
#include "services/settlementservice.h"
#include "store/database.h"
#include "store/transactionrepository.h"
#include "testserver.h"

#include <QJsonArray>
#include <QTest>
#include <QTimeZone>
#include <QUrlQuery>

#include <memory>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
const QString kVoucher = QStringLiteral("/api/v1/voucher/appstore/initiate-transaction");
const QString kDth = QStringLiteral("/api/v1/recharge/dth/initiate-transaction");

QDateTime ist(int year, int month, int day, int hour, int minute)
{
    return QDateTime(QDate(year, month, day), QTime(hour, minute), QTimeZone(IstTime::kOffsetSeconds)).toUTC();
}

qint64 istMs(int day, int hour = 0, int minute = 0)
{
    return ist(2026, 3, day, hour, minute).toMSecsSinceEpoch();
}

QString describe(const TransactionFilter &f)
{
    return QStringLiteral("from=%1 to=%2 type=%3 status=%4 operator=%5 q=%6")
        .arg(f.fromMs > 0 ? IstTime::formatMs(f.fromMs) : QStringLiteral("-"),
             f.toMs > 0 ? IstTime::formatMs(f.toMs) : QStringLiteral("-"),
             f.type ? TransactionNames::type(*f.type) : QStringLiteral("-"),
             f.status ? TransactionNames::status(*f.status) : QStringLiteral("-"), f.operatorCode, f.search);
}

QString describe(const TransactionTotals &t)
{
    return QStringLiteral("count %1 (S %2 P %3 F %4) bill %5 discount %6 paid %7")
        .arg(t.count)
        .arg(t.success)
        .arg(t.pending)
        .arg(t.failed)
        .arg(t.billAmount)
        .arg(t.discount)
        .arg(t.paid);
}

bool operator==(const TransactionTotals &a, const TransactionTotals &b)
{
    return a.count == b.count && a.success == b.success && a.pending == b.pending && a.failed == b.failed &&
           a.billAmount == b.billAmount && a.discount == b.discount && a.paid == b.paid;
}

} // namespace

class TestDailyTotals final : public QObject
{
    Q_OBJECT

    std::unique_ptr<ManualClock> m_clock; ///< outlives m_server
    std::unique_ptr<TestServer> m_server;
    qint64 m_accountId = 0;
    QList<qint64> m_pendingIds;

    qint64 scalar(const QString &sql, const QVariantList &values = {})
    {
        QSqlQuery &q = m_server->db().run(sql, values);
        const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return value;
    }

    void sell(const QString &path, const QJsonObject &body)
    {
        const HttpResult r = m_server->http().postJson(m_server->url(path), body, m_server->pos());
        QVERIFY2(r.status == 200, r.body.constData());
        if (r.data().value(QStringLiteral("transaction_status")).toString() == QLatin1String("PENDING"))
            m_pendingIds.append(r.data().value(QStringLiteral("transaction_id")).toInteger());
    }

    /// One round of every kind of sale at the clock's current time.
    void sellMix(int round)
    {
        const QString n = QString::number(round % 10);
        const auto mobile = [](const QString &phone, int amount, const QString &op) {
            return QJsonObject{{QStringLiteral("phone_number"), phone},
                               {QStringLiteral("amount"), amount},
                               {QStringLiteral("operator_code"), op}};
        };
        const auto dth = [](const QString &number, int amount, const QString &op) {
            return QJsonObject{{QStringLiteral("number"), number},
                               {QStringLiteral("amount"), amount},
                               {QStringLiteral("operator_code"), op}};
        };
        const auto voucher = [](int amount, const QString &email) {
            return QJsonObject{{QStringLiteral("amount"), amount}, {QStringLiteral("customer_email"), email}};
        };
        sell(kMobile, mobile(QStringLiteral("98765432") + n + n, 249 + round, QStringLiteral("RJ"))); // SUCCESS
        sell(kMobile,
             mobile(QStringLiteral("98765") + n + QStringLiteral("0000"), 199, QStringLiteral("AT"))); // FAILED
        sell(kMobile,
             mobile(QStringLiteral("91234") + n + QStringLiteral("1111"), 299 + 10 * round, QStringLiteral("VI")));
        sell(kMobile, mobile(QStringLiteral("81234") + n + QStringLiteral("2222"), 399, QStringLiteral("BS")));
        sell(kMobile, mobile(QStringLiteral("70000") + n + QStringLiteral("1111"), 155, QStringLiteral("RJ")));
        sell(kDth, dth(QStringLiteral("4123456789") + n, 300 + round, QStringLiteral("SD")));
        sell(kDth, dth(QStringLiteral("12345678") + QStringLiteral("1111"), 350, QStringLiteral("VC")));
        sell(kDth, dth(QStringLiteral("12345678") + QStringLiteral("0000"), 400, QStringLiteral("BT")));
        sell(kVoucher, voucher(100, QStringLiteral("a@example.com")));
        sell(kVoucher, voucher(250 + round, QStringLiteral("b+pending@example.com")));
        sell(kVoucher, voucher(500, QStringLiteral("c+pendingfail@example.com")));
        sell(kVoucher, voucher(150, QStringLiteral("d+failed@example.com")));
    }

    /// Moves the clock and waits until every sale due by then has settled.
    void advanceAndSettle(qint64 ms)
    {
        m_clock->advanceMs(ms);
        QTRY_COMPARE_WITH_TIMEOUT(
            scalar(QStringLiteral("SELECT COUNT(*) FROM settlements WHERE due_at <= ?"), {m_clock->nowMs()}), 0,
            15'000);
    }

    QList<TransactionFilter> filters()
    {
        const QList<std::pair<qint64, qint64>> ranges{
            {0, 0},                               // everything
            {istMs(10), istMs(13)},               // whole days
            {istMs(10), 0},                       // from a midnight, open end
            {0, istMs(12)},                       // open start, to a midnight
            {istMs(11), istMs(12)},               // one whole day
            {istMs(10, 12), istMs(12, 23, 55)},   // partial days at both ends
            {istMs(10, 0, 3), istMs(11, 23, 58)}, // minutes after / before midnight
            {istMs(11, 6), istMs(11, 20)},        // inside one day
            {istMs(10, 23, 59), istMs(11, 0, 1)}, // across one midnight, no whole day
            {istMs(11), istMs(11, 0, 0) + 1},     // one millisecond
            {istMs(12), istMs(11)},               // from after to
            {istMs(1), istMs(20)},                // days with no sales around the data
            {istMs(10, 9, 30), 0},                // partial start, open end
            {0, istMs(12, 18, 45)},               // open start, partial end
        };
        QList<TransactionFilter> out;
        const QList<std::optional<TransactionType>> types{std::nullopt, TransactionType::Mobile,
                                                          TransactionType::Voucher, TransactionType::Dth};
        const QList<std::optional<TransactionStatus>> statuses{std::nullopt, TransactionStatus::Success,
                                                               TransactionStatus::Pending, TransactionStatus::Failed};
        const QStringList operators{QString(), QStringLiteral("RJ"), QStringLiteral("VC"), QStringLiteral("ZZ")};
        const QStringList searches{QString(), QStringLiteral("98"), QStringLiteral("4123")};
        for (const auto &[from, to] : ranges) {
            for (const auto &type : types) {
                for (const auto &status : statuses) {
                    for (const QString &op : operators) {
                        for (const QString &search : searches) {
                            // Text filters take the raw path anyway: a few of them are enough.
                            if (!search.isEmpty() && (type || !op.isEmpty()))
                                continue;
                            TransactionFilter f;
                            f.fromMs = from;
                            f.toMs = to;
                            f.type = type;
                            f.status = status;
                            f.operatorCode = op;
                            f.search = search;
                            out.append(f);
                        }
                    }
                }
            }
        }
        return out;
    }

    /// Every rollup row equals a GROUP BY of the rows (no stale, missing or extra figures).
    void verifyRollupTable()
    {
        const QString grouped = QStringLiteral(
            "SELECT account_id, mode, (created_at + 19800000) / 86400000 AS ist_day, type, operator_code, status,"
            " COUNT(*) AS tx_count, SUM(bill_amount) AS bill_amount, SUM(discount) AS discount, SUM(paid) AS paid"
            " FROM transactions GROUP BY 1, 2, 3, 4, 5, 6");
        const QString rollups = QStringLiteral(
            "SELECT account_id, mode, ist_day, type, operator_code, status, tx_count, bill_amount, discount, paid"
            " FROM daily_totals WHERE tx_count <> 0 OR bill_amount <> 0 OR discount <> 0 OR paid <> 0");
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM (") + grouped + QStringLiteral(" EXCEPT ") + rollups +
                        QStringLiteral(") AS missing")),
                 0);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM (") + rollups + QStringLiteral(" EXCEPT ") + grouped +
                        QStringLiteral(") AS extra")),
                 0);
    }

    void verifyEveryFilter()
    {
        TransactionRepository repository(m_server->db());
        const QList<TransactionFilter> all = filters();
        int nonEmpty = 0;
        for (const TransactionFilter &f : all) {
            const TransactionTotals rollup = repository.totals(m_accountId, Mode::Test, f);
            const TransactionTotals raw = repository.rawTotals(m_accountId, Mode::Test, f);
            QVERIFY2(rollup == raw, qPrintable(describe(f) + QStringLiteral(": rollups ") + describe(rollup) +
                                               QStringLiteral(", rows ") + describe(raw)));
            nonEmpty += raw.count > 0 ? 1 : 0;
        }
        QVERIFY2(nonEmpty > all.size() / 4, "the filters should mostly select something");
    }

private slots:
    void init()
    {
        // Day 10 of March 2026 just after midnight IST; sales on the 10th, 11th and 12th.
        m_clock = std::make_unique<ManualClock>(ist(2026, 3, 10, 0, 2));
        m_server = std::make_unique<TestServer>(TestServer::defaultOptions(), m_clock.get());
        m_pendingIds.clear();
        const HttpResult topup = m_server->http().postJson(
            m_server->url(QStringLiteral("/api/v1/wallet/topups")),
            QJsonObject{{QStringLiteral("amount"), 100'000}, {QStringLiteral("note"), QStringLiteral("tests")}},
            m_server->admin());
        QCOMPARE(topup.status, 201);
        m_accountId = scalar(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        QVERIFY(m_accountId > 0);

        sellMix(0);               // 10th 00:02
        advanceAndSettle(60'000); // settle the same day
        m_clock->set(ist(2026, 3, 10, 9, 15));
        sellMix(1);
        advanceAndSettle(3600'000);
        m_clock->set(ist(2026, 3, 10, 23, 59));
        sellMix(2); // PENDING at 23:59 of the 10th...
        m_clock->set(ist(2026, 3, 11, 0, 0).addSecs(30));
        advanceAndSettle(0); // ...settles on the 11th: stays in the 10th's rollup
        m_clock->set(ist(2026, 3, 11, 12, 0));
        sellMix(3);
        advanceAndSettle(1000);
        m_clock->set(ist(2026, 3, 12, 18, 45));
        sellMix(4);
        advanceAndSettle(1000);
        m_clock->set(ist(2026, 3, 12, 23, 59).addSecs(59));
        sellMix(5); // left PENDING (the clock is not moved past the delay)...
        // ...even when the settlement timer runs its round (as it will during the tests).
        QCOMPARE(m_server->server().settlements().settleDue(), 0);
    }

    void cleanup()
    {
        m_server.reset();
        m_clock.reset();
    }

    void rollupsMatchRowsForEveryFilter()
    {
        QVERIFY(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'PENDING'")) > 0);
        QVERIFY(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'FAILED'"
                                      " AND updated_at > created_at")) > 0); // failed after PENDING
        QVERIFY(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'SUCCESS'"
                                      " AND updated_at > created_at")) > 0);
        // A PENDING of the 10th that settled on the 11th.
        QVERIFY(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE created_at < ? AND updated_at >= ?"),
                       {istMs(11), istMs(11)}) > 0);
        verifyRollupTable();
        verifyEveryFilter();

        // Everything left PENDING settles now (on the 13th): still exact.
        advanceAndSettle(24 * 3600'000LL);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'PENDING'")), 0);
        verifyRollupTable();
        verifyEveryFilter();
    }

    /// The endpoint the totals line calls answers from the same figures.
    void summaryEndpointUsesTheRollups()
    {
        QUrl url = m_server->url(QStringLiteral("/api/v1/transactions/summary"));
        url.setQuery(QUrlQuery{{QStringLiteral("from"), QStringLiteral("2026-03-10")},
                               {QStringLiteral("to"), QStringLiteral("2026-03-11")},
                               {QStringLiteral("status"), QStringLiteral("SUCCESS")}});
        const HttpResult r = m_server->http().get(url, m_server->pos());
        QCOMPARE(r.status, 200);
        TransactionFilter f;
        f.fromMs = istMs(10);
        f.toMs = istMs(12); // a bare `to` date includes that day
        f.status = TransactionStatus::Success;
        const TransactionTotals raw = TransactionRepository(m_server->db()).rawTotals(m_accountId, Mode::Test, f);
        QVERIFY(raw.count > 0);
        QCOMPARE(r.data().value(QStringLiteral("count")).toInteger(), raw.count);
        QCOMPARE(r.data().value(QStringLiteral("bill_amount")).toString(), Money::format(raw.billAmount));
        QCOMPARE(r.data().value(QStringLiteral("discount")).toString(), Money::format(raw.discount));
        QCOMPARE(r.data().value(QStringLiteral("paid")).toString(), Money::format(raw.paid));
    }

    /// Migration 6 backfills the rollups of a database that had transactions before it.
    void migrationBackfillsExistingRows()
    {
        Database &db = m_server->db();
        db.execute(QStringLiteral("DROP TABLE daily_totals"));
        db.execute(QStringLiteral("DROP INDEX transactions_amount"));
        db.execute(QStringLiteral("DELETE FROM schema_migrations WHERE version = 6"));
        const QString path = m_server->store().location(); // SQLite file or PostgreSQL URL
        m_server->stop();
        QString error;
        std::unique_ptr<Database> reopened = Database::open(path, &error);
        QVERIFY2(reopened, qPrintable(error));
        QSqlQuery &reapplied =
            reopened->run(QStringLiteral("SELECT COUNT(*) FROM schema_migrations WHERE version = 6"));
        QVERIFY(reapplied.next());
        QCOMPARE(reapplied.value(0).toInt(), 1); // migration 6 ran again (later ones stay applied)
        reapplied.finish();
        TransactionRepository repository(*reopened);
        for (const TransactionFilter &f : filters()) {
            const TransactionTotals rollup = repository.totals(m_accountId, Mode::Test, f);
            const TransactionTotals raw = repository.rawTotals(m_accountId, Mode::Test, f);
            QVERIFY2(rollup == raw, qPrintable(describe(f) + QStringLiteral(": rollups ") + describe(rollup) +
                                               QStringLiteral(", rows ") + describe(raw)));
        }
    }

    /// Amount orders page through exactly the plainly sorted rows, whichever plan list() picks
    /// (walking the amount index or sorting the range), with any page size.
    void amountOrderPagesMatchASort()
    {
        TransactionRepository repository(m_server->db());
        for (const TransactionFilter &base : filters()) {
            if (!base.operatorCode.isEmpty() && base.operatorCode != QLatin1String("RJ"))
                continue; // enough combinations, and the suite stays quick
            for (const auto order :
                 {TransactionFilter::Order::AmountHighFirst, TransactionFilter::Order::AmountLowFirst}) {
                for (const int limit : {2, 200}) {
                    TransactionFilter f = base;
                    f.order = order;
                    f.limit = limit;
                    QVariantList values{m_accountId};
                    const bool high = order == TransactionFilter::Order::AmountHighFirst;
                    QSqlQuery &q = m_server->db().run(
                        QStringLiteral("SELECT id FROM transactions WHERE account_id = ? AND mode = 'test'") +
                            [&f, &values] {
                                QString sql;
                                if (f.type) {
                                    sql += QStringLiteral(" AND type = ?");
                                    values << TransactionNames::type(*f.type);
                                }
                                if (f.status) {
                                    sql += QStringLiteral(" AND status = ?");
                                    values << TransactionNames::status(*f.status);
                                }
                                if (!f.operatorCode.isEmpty()) {
                                    sql += QStringLiteral(" AND operator_code = ?");
                                    values << f.operatorCode;
                                }
                                if (f.fromMs > 0) {
                                    sql += QStringLiteral(" AND created_at >= ?");
                                    values << f.fromMs;
                                }
                                if (f.toMs > 0) {
                                    sql += QStringLiteral(" AND created_at < ?");
                                    values << f.toMs;
                                }
                                if (!f.search.isEmpty()) {
                                    sql += QStringLiteral(" AND (id = ? OR number LIKE ? OR reference_id LIKE ?)");
                                    const QString prefix = f.search + QLatin1Char('%');
                                    values << f.search.toLongLong() << prefix << prefix;
                                }
                                return sql;
                            }() +
                            (high ? QStringLiteral(" ORDER BY bill_amount DESC, id DESC")
                                  : QStringLiteral(" ORDER BY bill_amount ASC, id ASC")),
                        values);
                    QList<qint64> expected;
                    while (q.next())
                        expected.append(q.value(0).toLongLong());
                    q.finish();
                    QList<qint64> paged;
                    for (int page = 0; page < 1000; ++page) {
                        const QList<StoredTransaction> rows = repository.list(m_accountId, Mode::Test, f);
                        for (const StoredTransaction &row : rows)
                            paged.append(row.record.transactionId);
                        if (rows.size() < limit)
                            break;
                        f.afterId = rows.last().record.transactionId;
                        f.afterAmount = rows.last().record.billAmount;
                    }
                    QVERIFY2(paged == expected,
                             qPrintable(describe(f) + QStringLiteral(" limit %1 %2").arg(limit).arg(high)));
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestDailyTotals)
#include "tst_dailytotals.moc"
