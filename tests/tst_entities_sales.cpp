// The sales / money entities of core/ (issue 14): each codec round-trips through JSON text as a
// client sees it, and a missing or mistyped field is an error naming it, never a zero.
#include "entities/dayendreportdata.h"
#include "entities/ledgerentry.h"
#include "entities/page.h"
#include "entities/plancataloguesummary.h"
#include "entities/servertls.h"
#include "entities/shift.h"
#include "entities/shopinfo.h"
#include "entities/transactionquery.h"
#include "entities/transactionrecord.h"
#include "entities/transactionsummary.h"
#include "entities/upstreaminfo.h"
#include "entities/walletbalance.h"

#include <QJsonDocument>
#include <QTest>

namespace {

/// `json` written as text and read back, as a client receives it.
QJsonObject throughText(const QJsonObject &json)
{
    return QJsonDocument::fromJson(QJsonDocument(json).toJson(QJsonDocument::Compact)).object();
}

/// Decodes `json` with T's codec and encodes it again; the JSON must come back unchanged.
template <class T> void checkRoundTrip(const QJsonObject &json)
{
    QString error;
    const std::optional<T> value = T::fromJson(throughText(json), &error);
    QVERIFY2(value, qPrintable(error));
    QVERIFY(error.isEmpty());
    QCOMPARE(value->toJson(), json);
}

/// `json` with `field` (a path "wallet.closing" one level deep) removed or replaced by `value`.
QJsonObject altered(QJsonObject json, const QString &field, const QJsonValue &value)
{
    const QStringList path = field.split(QLatin1Char('.'));
    if (path.size() == 2) {
        QJsonObject inner = json.value(path.first()).toObject();
        if (value.isUndefined())
            inner.remove(path.last());
        else
            inner.insert(path.last(), value);
        json.insert(path.first(), inner);
        return json;
    }
    if (value.isUndefined())
        json.remove(field);
    else
        json.insert(field, value);
    return json;
}

DayEndReportData sampleReport()
{
    DayEndReportData report;
    report.date = QDate(2026, 11, 24);
    report.mode = QStringLiteral("live");
    report.lines = {{QStringLiteral("MOBILE"), QStringLiteral("AT"), 3, 1, 2, 60000, 1250, 58750},
                    {QStringLiteral("VOUCHER"), QStringLiteral("GP"), 1, 0, 0, 50000, 500, 49500}};
    report.totals = {QString(), QString(), 4, 1, 2, 110000, 1750, 108250};
    report.commission = 1750;
    report.clerks = {{QString(), 1, 50000, 500}, {QStringLiteral("Asha"), 3, 60000, 1250}};
    for (int hour = 0; hour < 24; ++hour)
        report.hours.append({hour, hour == 19 ? 4 : 0, hour == 19 ? 110000 : 0});
    report.walletOpening = 500000;
    report.walletClosing = 391750;
    report.topups = 0;
    report.debits = -113750;
    report.refunds = 5500;
    report.unknownAtUpstream = 1;
    report.unknownAtUpstreamPaid = 19353;
    report.tenders = {{2, 50000}, {1, 10000}, {1, 50000}};
    DayEndReportData::ShiftLine closed{7,
                                       QStringLiteral("Counter 1"),
                                       QStringLiteral("Asha"),
                                       QStringLiteral("closed"),
                                       QDateTime::fromMSecsSinceEpoch(1'764'000'000'000),
                                       QDateTime::fromMSecsSinceEpoch(1'764'030'000'000),
                                       200000,
                                       245000,
                                       244800,
                                       -200};
    DayEndReportData::ShiftLine open{8,
                                     QStringLiteral("Counter 2"),
                                     QStringLiteral("Ravi"),
                                     QStringLiteral("open"),
                                     QDateTime::fromMSecsSinceEpoch(1'764'031'000'000),
                                     {},
                                     100000,
                                     100000,
                                     std::nullopt,
                                     std::nullopt};
    report.shifts = {closed, open};
    return report;
}

TransactionRecord sampleRecord(TransactionType type)
{
    TransactionRecord record;
    record.transactionId = 40231;
    record.type = type;
    record.operatorName = type == TransactionType::Voucher ? QStringLiteral("Google Play") : QStringLiteral("Airtel");
    record.number = type == TransactionType::Voucher ? QString() : QStringLiteral("9876543210");
    record.customerEmail = type == TransactionType::Voucher ? QStringLiteral("a@example.com") : QString();
    record.redeemCode = type == TransactionType::Voucher ? QStringLiteral("ABCD-EFGH") : QString();
    record.billAmount = 24900;
    record.discount = 374;
    record.paid = 24526;
    record.status = TransactionStatus::Success;
    record.referenceId = QStringLiteral("BILL-1");
    record.createdAtMs = 1'764'000'000'000;
    return record;
}

ShopInfo sampleShop()
{
    ShopInfo shop;
    shop.name = QStringLiteral("Sharma Mobile Point");
    shop.address = QStringLiteral("12 MG Road\nPune");
    shop.lowBalanceThreshold = 75000;
    shop.idleLockSeconds = 300;
    shop.discountRates = {{QStringLiteral("AT"), 250, 300}, {QStringLiteral("JO"), 300, 300}};
    shop.sandboxSettleDelayMs = 50;
    shop.circleCode = QStringLiteral("MH");
    shop.shiftsEnabled = true;
    shop.blindCount = true;
    shop.upiVpa = QStringLiteral("sharmamobile@okaxis");
    shop.upiPayeeName = QStringLiteral("Sharma Mobile Point");
    return shop;
}

/// A shift as an admin sees it: closed, with a count, cash moves, a cash refund and a UPI sale to return.
Shift sampleClosedShift()
{
    Shift shift;
    shift.id = 12;
    shift.terminal = QStringLiteral("Counter 1");
    shift.clerk = QStringLiteral("Asha");
    shift.mode = QStringLiteral("live");
    shift.state = QStringLiteral("closed");
    shift.openedAt = QDateTime::fromMSecsSinceEpoch(1'764'000'000'000);
    shift.closedAt = QDateTime::fromMSecsSinceEpoch(1'764'030'000'000);
    shift.openingCash = 200000;
    shift.sales = {{2, 50000}, {1, 29900}, {1, 1000}};
    shift.cashIn = 50000;
    shift.cashOut = 10000;
    shift.cashRefunds = {1, 20000};
    shift.upiToReturn = {{40231, QStringLiteral("9876542222"), 29900}};
    shift.blind = true;
    shift.expectedCash = 270000; // 2000 + 500 - 200 + 500 - 100 rupees
    shift.countedCash = 282000;  // the counts below and ₹50 of coins
    shift.difference = 12000;
    shift.counts = {{500, 4}, {200, 2}, {100, 2}, {50, 1}, {20, 5}, {10, 2}};
    shift.coins = 5000;
    shift.closedBy = QStringLiteral("Meera (admin)");
    shift.closeNote = QStringLiteral("Counted with Asha");
    shift.cashMoves = {{1, QStringLiteral("in"), 50000, QStringLiteral("Float added"),
                        QDateTime::fromMSecsSinceEpoch(1'764'001'000'000), QStringLiteral("Asha")},
                       {2, QStringLiteral("out"), 10000, QStringLiteral("Paid the tea stall"),
                        QDateTime::fromMSecsSinceEpoch(1'764'002'000'000), QStringLiteral("Asha")}};
    return shift;
}

/// The same shift while open and blind for its clerk: nothing counted, expected hidden.
Shift sampleOpenBlindShift()
{
    Shift shift = sampleClosedShift();
    shift.state = QStringLiteral("open");
    shift.closedAt = QDateTime();
    shift.expectedCash.reset();
    shift.countedCash.reset();
    shift.difference.reset();
    shift.counts.clear();
    shift.coins.reset();
    shift.closedBy.clear();
    shift.closeNote.clear();
    shift.upiToReturn.clear();
    shift.cashMoves.clear();
    return shift;
}

LedgerEntry sampleLedgerEntry(qint64 transactionId)
{
    LedgerEntry entry;
    entry.id = 7;
    entry.amount = -24526;
    entry.kind = LedgerKind::Debit;
    entry.transactionId = transactionId;
    entry.note = QStringLiteral("sale");
    entry.actor = QStringLiteral("Asha");
    entry.createdAtMs = 1'764'000'000'000;
    return entry;
}

} // namespace

class TestEntitiesSales final : public QObject
{
    Q_OBJECT

private slots:
    void roundTrips()
    {
        checkRoundTrip<DayEndReportData>(sampleReport().toJson());
        checkRoundTrip<TransactionSummary>(TransactionSummary{12, 9, 1, 2, 224100, 3366, 220734}.toJson());
        checkRoundTrip<WalletBalance>(WalletBalance{QStringLiteral("test"), -150}.toJson());
        checkRoundTrip<ShopInfo>(sampleShop().toJson());
        checkRoundTrip<LedgerEntry>(sampleLedgerEntry(40231).toJson());
        checkRoundTrip<LedgerEntry>(sampleLedgerEntry(0).toJson()); // transaction_id null
        const Page<TransactionRecord> page{
            {sampleRecord(TransactionType::Mobile), sampleRecord(TransactionType::Voucher)},
            QStringLiteral("MTIz"),
            true};
        checkRoundTrip<Page<TransactionRecord>>(page.toJson());
        checkRoundTrip<Page<TransactionRecord>>(Page<TransactionRecord>{{}, {}, true}.toJson()); // last page
        checkRoundTrip<Page<LedgerEntry>>(Page<LedgerEntry>{{sampleLedgerEntry(1)}, {}, false}.toJson());
        checkRoundTrip<ServerTls>(ServerTls{true, QStringLiteral("AB:CD")}.toJson());
        checkRoundTrip<ServerTls>(ServerTls{false, {}}.toJson()); // fingerprint null
        checkRoundTrip<PlanCatalogueSummary>(
            PlanCatalogueSummary{QStringLiteral("2025.1"), 3955, 220, QStringLiteral("upstream dist.example.in"),
                                 QStringLiteral("dist.example.in"), QDateTime::fromMSecsSinceEpoch(1'764'000'000'000)}
                .toJson());
        checkRoundTrip<PlanCatalogueSummary>(
            PlanCatalogueSummary{QStringLiteral("2025.1"), 1, 1, QStringLiteral("imported"), {}, {}}.toJson());
    }

    void shiftRoundTrips()
    {
        checkRoundTrip<Shift>(sampleClosedShift().toJson());
        checkRoundTrip<Shift>(sampleOpenBlindShift().toJson());
        const QJsonObject open = sampleOpenBlindShift().toJson();
        for (const char *field :
             {"closed_at", "expected_cash", "counted_cash", "difference", "counts", "coins", "closed_by", "close_note"})
            QVERIFY2(open.value(QLatin1String(field)).isNull(), field);

        QString error;
        const std::optional<Shift> closed = Shift::fromJson(throughText(sampleClosedShift().toJson()), &error);
        QVERIFY2(closed, qPrintable(error));
        QCOMPARE(closed->counts.value(500), 4);
        QCOMPARE(closed->counts.value(10), 2);
        QCOMPARE(closed->difference, std::optional<Paise>(12000));
        QCOMPARE(closed->cashMoves.size(), 2);
        QCOMPARE(closed->cashMoves.at(1).reason, QStringLiteral("Paid the tea stall"));
        QCOMPARE(closed->upiToReturn.first().transactionId, 40231);
        QCOMPARE(closed->sales.upi, (Shift::TenderTotal{1, 29900}));
        QVERIFY(!closed->isOpen());
        QCOMPARE(Shift::countedTotal(closed->counts, *closed->coins), *closed->countedCash);
    }

    void shiftMistakesAreErrors_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value"); // undefined removes the field
        QTest::addColumn<QString>("named");
        const QJsonValue gone(QJsonValue::Undefined);
        QTest::newRow("no opening cash") << QStringLiteral("opening_cash") << gone << QStringLiteral("opening_cash");
        QTest::newRow("no cash sales") << QStringLiteral("sales.cash") << gone << QStringLiteral("cash");
        QTest::newRow("count as text") << QStringLiteral("cash_refunds.count") << QJsonValue(QStringLiteral("1"))
                                       << QStringLiteral("count");
        QTest::newRow("unknown state") << QStringLiteral("state") << QJsonValue(QStringLiteral("paused"))
                                       << QStringLiteral("state");
        QTest::newRow("unknown mode") << QStringLiteral("mode") << QJsonValue(QStringLiteral("demo"))
                                      << QStringLiteral("mode");
        QTest::newRow("other entity") << QStringLiteral("entity") << QJsonValue(QStringLiteral("user"))
                                      << QStringLiteral("entity");
        QTest::newRow("blind as text") << QStringLiteral("blind") << QJsonValue(QStringLiteral("yes"))
                                       << QStringLiteral("blind");
        QTest::newRow("no cash moves") << QStringLiteral("cash_moves") << gone << QStringLiteral("cash_moves");
        QTest::newRow("count of ₹2000") << QStringLiteral("counts.2000") << QJsonValue(1) << QStringLiteral("counts");
        QTest::newRow("negative count") << QStringLiteral("counts.500") << QJsonValue(-1) << QStringLiteral("counts");
        QTest::newRow("money as number") << QStringLiteral("expected_cash") << QJsonValue(2700.0)
                                         << QStringLiteral("expected_cash");
        QJsonArray moves;
        moves.append(QJsonObject{{QStringLiteral("id"), 1},
                                 {QStringLiteral("direction"), QStringLiteral("sideways")},
                                 {QStringLiteral("amount"), QStringLiteral("₹1.00")},
                                 {QStringLiteral("reason"), QStringLiteral("x")},
                                 {QStringLiteral("at"), QStringLiteral("2025-11-24 21:30:00")},
                                 {QStringLiteral("by"), QStringLiteral("Asha")}});
        QTest::newRow("bad direction") << QStringLiteral("cash_moves") << QJsonValue(moves)
                                       << QStringLiteral("direction");
    }
    void shiftMistakesAreErrors()
    {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QFETCH(QString, named);
        QString error;
        QVERIFY(!Shift::fromJson(altered(sampleClosedShift().toJson(), field, value), &error));
        QVERIFY2(error.contains(QStringLiteral("`%1`").arg(named)), qPrintable(error));
    }

    // Issue 28: tender and shift_id are written only when set (a record without them keeps the spec's fields).
    void recordTenderAndShift()
    {
        TransactionRecord record = sampleRecord(TransactionType::Mobile);
        QVERIFY(!record.toJson().contains(QStringLiteral("tender")));
        QVERIFY(!record.toJson().contains(QStringLiteral("shift_id")));
        record.tender = QStringLiteral("upi");
        record.shiftId = 12;
        checkRoundTrip<TransactionRecord>(record.toJson());
        QString error;
        const std::optional<TransactionRecord> read = TransactionRecord::fromJson(throughText(record.toJson()), &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->tender, QStringLiteral("upi"));
        QCOMPARE(read->shiftId, 12);
        QJsonObject nulls = sampleRecord(TransactionType::Dth).toJson();
        nulls.insert(QStringLiteral("tender"), QJsonValue::Null);
        nulls.insert(QStringLiteral("shift_id"), QJsonValue::Null);
        const std::optional<TransactionRecord> none = TransactionRecord::fromJson(nulls, &error);
        QVERIFY2(none, qPrintable(error));
        QVERIFY(none->tender.isEmpty());
        QCOMPARE(none->shiftId, 0);
        QVERIFY(!TransactionRecord::fromJson(altered(record.toJson(), QStringLiteral("tender"), QStringLiteral("card")),
                                             &error));
        QVERIFY2(error.contains(QStringLiteral("`tender`")), qPrintable(error));
        QVERIFY(!TransactionRecord::fromJson(altered(record.toJson(), QStringLiteral("shift_id"), 0), &error));
        QVERIFY2(error.contains(QStringLiteral("`shift_id`")), qPrintable(error));
    }

    void upstreamRoundTrips()
    {
        UpstreamInfo none;
        none.state = QStringLiteral("not_configured");
        none.webhookPath = QStringLiteral("/hooks/upstream");
        checkRoundTrip<UpstreamInfo>(none.toJson()); // base_url, key_id, since... null
        UpstreamInfo live = none;
        live.configured = true;
        live.baseUrl = QStringLiteral("https://dist.example.in/api/v1");
        live.keyId = QStringLiteral("live_abc");
        live.state = QStringLiteral("unreachable");
        live.sinceMs = 1'764'000'000'000;
        live.lastContactMs = 1'763'999'000'000;
        live.lastError = QStringLiteral("connection refused");
        live.unknownSales = 2;
        checkRoundTrip<UpstreamInfo>(live.toJson());
        checkRoundTrip<UpstreamCheck>(UpstreamCheck{true, 200, 35, QStringLiteral("The upstream answered.")}.toJson());
        checkRoundTrip<UpstreamCheck>(UpstreamCheck{false, 0, 5000, QStringLiteral("No answer.")}.toJson());
        UpstreamCall call{
            0,  1'764'000'000'000,         QStringLiteral("POST"),   QStringLiteral("/recharge/mobile/x"), 0,
            12, QStringLiteral("timeout"), QStringLiteral("unknown")};
        UpstreamCall answered = call;
        answered.httpStatus = 201;
        answered.error.clear();
        answered.outcome = QStringLiteral("SUCCESS");
        checkRoundTrip<UpstreamCallList>(UpstreamCallList{{call, answered}}.toJson());

        QString error;
        QJsonObject bad = live.toJson();
        bad.remove(QStringLiteral("unknown_sales"));
        QVERIFY(!UpstreamInfo::fromJson(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("`unknown_sales` is missing")), qPrintable(error));
        bad = live.toJson();
        bad.insert(QStringLiteral("since"), QStringLiteral("yesterday"));
        QVERIFY(!UpstreamInfo::fromJson(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("`since`")), qPrintable(error));
    }

    void dayEndValues()
    {
        QString error;
        const std::optional<DayEndReportData> report =
            DayEndReportData::fromJson(throughText(sampleReport().toJson()), &error);
        QVERIFY2(report, qPrintable(error));
        QCOMPARE(report->date, QDate(2026, 11, 24));
        QCOMPARE(report->totals.success, 4);
        QCOMPARE(report->commission, 1750);
        QCOMPARE(report->hours.size(), 24);
        QCOMPARE(report->hours.at(19).billAmount, 110000);
        QCOMPARE(report->walletClosing, 391750);
        QCOMPARE(report->debits, -113750);
        QCOMPARE(report->unknownAtUpstream, 1);
        QCOMPARE(report->tenders.cash, (Shift::TenderTotal{2, 50000}));
        QCOMPARE(report->shifts.size(), 2);
        QCOMPARE(report->shifts.first().difference, std::optional<Paise>(-200));
        QVERIFY(!report->shifts.last().closedAt.isValid());
    }

    void pageReadsCursor()
    {
        QString error;
        const auto last = Page<TransactionRecord>::fromJson(
            throughText(Page<TransactionRecord>{{sampleRecord(TransactionType::Dth)}, {}, true}.toJson()), &error);
        QVERIFY2(last, qPrintable(error));
        QVERIFY(last->isLast());
        QCOMPARE(last->items.size(), 1);
        QCOMPARE(last->items.first().type, TransactionType::Dth);
        const auto more = Page<TransactionRecord>::fromJson(
            throughText(Page<TransactionRecord>{{}, QStringLiteral("abc"), true}.toJson()), &error);
        QVERIFY(more && !more->isLast());
        QCOMPARE(more->nextCursor, QStringLiteral("abc"));
    }

    // The day-end report used to read every missing field as zero (issue 14): an answer without
    // the closing balance printed ₹0.00. Each field now is an error naming it.
    void dayEndMissingOrMistypedIsAnError_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value"); // undefined removes the field
        QTest::addColumn<QString>("named");
        const QJsonValue gone(QJsonValue::Undefined);
        QTest::newRow("no closing balance") << QStringLiteral("wallet.closing") << gone << QStringLiteral("closing");
        QTest::newRow("no wallet") << QStringLiteral("wallet") << gone << QStringLiteral("wallet");
        QTest::newRow("no commission") << QStringLiteral("commission_earned") << gone
                                       << QStringLiteral("commission_earned");
        QTest::newRow("success as text") << QStringLiteral("totals.success") << QJsonValue(QStringLiteral("3"))
                                         << QStringLiteral("success");
        QTest::newRow("no unknown count")
            << QStringLiteral("unknown_at_upstream.count") << gone << QStringLiteral("count");
        QTest::newRow("money as number") << QStringLiteral("wallet.opening") << QJsonValue(5000.0)
                                         << QStringLiteral("opening");
        QTest::newRow("no lines") << QStringLiteral("lines") << gone << QStringLiteral("lines");
        QTest::newRow("bad date") << QStringLiteral("date") << QJsonValue(QStringLiteral("24/11/2026"))
                                  << QStringLiteral("date");
        QJsonArray hours;
        hours.append(DayEndReportData::Hour{24, 1, 100}.toJson());
        QTest::newRow("hour 24") << QStringLiteral("hours") << QJsonValue(hours) << QStringLiteral("hour");
    }
    void dayEndMissingOrMistypedIsAnError()
    {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QFETCH(QString, named);
        QString error;
        QVERIFY(!DayEndReportData::fromJson(altered(sampleReport().toJson(), field, value), &error));
        QVERIFY2(error.contains(QStringLiteral("`%1`").arg(named)), qPrintable(error));
    }

    void otherEntitiesRejectMissingFields_data()
    {
        QTest::addColumn<QString>("entity");
        QTest::addColumn<QString>("field");
        for (const char *field : {"count", "success", "pending", "failed", "bill_amount", "discount", "paid"})
            QTest::addRow("summary %s", field) << QStringLiteral("summary") << QString::fromLatin1(field);
        for (const char *field : {"mode", "balance", "balance_paise"})
            QTest::addRow("wallet %s", field) << QStringLiteral("wallet") << QString::fromLatin1(field);
        for (const char *field : {"name", "address", "low_balance_threshold", "idle_lock_seconds", "discount_rates",
                                  "sandbox_settle_delay_ms", "circle_code", "shifts_enabled", "blind_count", "upi_vpa",
                                  "upi_payee_name", "complaint_deadline_hours"})
            QTest::addRow("shop %s", field) << QStringLiteral("shop") << QString::fromLatin1(field);
        for (const char *field : {"id", "kind", "amount", "amount_paise", "note", "actor", "datetime"})
            QTest::addRow("ledger %s", field) << QStringLiteral("ledger") << QString::fromLatin1(field);
        for (const char *field : {"count", "items"})
            QTest::addRow("page %s", field) << QStringLiteral("page") << QString::fromLatin1(field);
        for (const char *field : {"operator", "reference_id", "number", "paid"})
            QTest::addRow("record %s", field) << QStringLiteral("record") << QString::fromLatin1(field);
    }
    void otherEntitiesRejectMissingFields()
    {
        QFETCH(QString, entity);
        QFETCH(QString, field);
        const QJsonValue gone(QJsonValue::Undefined);
        QString error;
        bool decoded = true;
        if (entity == QLatin1String("summary"))
            decoded = bool(TransactionSummary::fromJson(altered(TransactionSummary{}.toJson(), field, gone), &error));
        else if (entity == QLatin1String("wallet"))
            decoded = bool(WalletBalance::fromJson(altered(WalletBalance{}.toJson(), field, gone), &error));
        else if (entity == QLatin1String("shop"))
            decoded = bool(ShopInfo::fromJson(altered(sampleShop().toJson(), field, gone), &error));
        else if (entity == QLatin1String("ledger"))
            decoded = bool(LedgerEntry::fromJson(altered(sampleLedgerEntry(3).toJson(), field, gone), &error));
        else if (entity == QLatin1String("page"))
            decoded = bool(Page<LedgerEntry>::fromJson(
                altered(Page<LedgerEntry>{{sampleLedgerEntry(3)}, {}, true}.toJson(), field, gone), &error));
        else
            decoded = bool(TransactionRecord::fromJson(
                altered(sampleRecord(TransactionType::Mobile).toJson(), field, gone), &error));
        QVERIFY(!decoded);
        QVERIFY2(error.contains(QStringLiteral("`%1` is missing").arg(field)), qPrintable(error));
    }

    void mismatchesAreErrors()
    {
        QString error;
        QJsonObject wallet = WalletBalance{QStringLiteral("test"), 100}.toJson();
        wallet.insert(QStringLiteral("balance"), QStringLiteral("₹2.00"));
        QVERIFY(!WalletBalance::fromJson(wallet, &error));
        QVERIFY2(error.contains(QStringLiteral("`balance`")), qPrintable(error));

        QJsonObject page = Page<LedgerEntry>{{sampleLedgerEntry(3)}, {}, true}.toJson();
        page.insert(QStringLiteral("count"), 2);
        QVERIFY(!Page<LedgerEntry>::fromJson(page, &error));
        QVERIFY2(error.contains(QStringLiteral("`count`")), qPrintable(error));

        QJsonObject entry = sampleLedgerEntry(3).toJson();
        entry.insert(QStringLiteral("kind"), QStringLiteral("gift"));
        QVERIFY(!LedgerEntry::fromJson(entry, &error));
        QVERIFY2(error.contains(QStringLiteral("`kind`")), qPrintable(error));

        QJsonObject items = Page<LedgerEntry>{{sampleLedgerEntry(3)}, {}, true}.toJson();
        items.insert(QStringLiteral("items"), QJsonArray{QJsonObject{{QStringLiteral("id"), 1}}});
        QVERIFY(!Page<LedgerEntry>::fromJson(items, &error));
        QVERIFY2(error.contains(QStringLiteral("element 0")), qPrintable(error));
    }

    void queryString()
    {
        TransactionQuery query;
        query.from = QDate(2026, 11, 1);
        query.to = QDate(2026, 11, 24);
        query.type = QStringLiteral("MOBILE");
        query.status = QStringLiteral("FAILED");
        query.text = QStringLiteral(" 98 ");
        query.sort = TransactionQuery::Sort::AmountHigh;
        query.limit = 200;
        query.cursor = QStringLiteral("MTIz");
        const QUrlQuery url = query.toQuery();
        QCOMPARE(url.queryItemValue(QStringLiteral("from")), QStringLiteral("2026-11-01"));
        QCOMPARE(url.queryItemValue(QStringLiteral("to")), QStringLiteral("2026-11-24"));
        QCOMPARE(url.queryItemValue(QStringLiteral("type")), QStringLiteral("MOBILE"));
        QCOMPARE(url.queryItemValue(QStringLiteral("status")), QStringLiteral("FAILED"));
        QCOMPARE(url.queryItemValue(QStringLiteral("q")), QStringLiteral("98"));
        QCOMPARE(url.queryItemValue(QStringLiteral("sort")), QStringLiteral("amount_desc"));
        QCOMPARE(url.queryItemValue(QStringLiteral("limit")), QStringLiteral("200"));
        QCOMPARE(url.queryItemValue(QStringLiteral("cursor")), QStringLiteral("MTIz"));
        QVERIFY(!url.hasQueryItem(QStringLiteral("operator")));

        TransactionQuery since;
        since.sinceMs = 1'764'000'000'000;
        QCOMPARE(since.toQuery().queryItemValue(QStringLiteral("from")), QStringLiteral("2025-11-24 21:30:00"));
        QVERIFY(!since.toQuery().hasQueryItem(QStringLiteral("limit")));
    }
};

QTEST_GUILESS_MAIN(TestEntitiesSales)
#include "tst_entities_sales.moc"
