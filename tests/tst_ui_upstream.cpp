#include "apiclient.h"
#include "backoffice/dayendpage.h"
#include "backoffice/historydetailpane.h"
#include "backoffice/historymodel.h"
#include "backoffice/historypage.h"
#include "backoffice/settingspage.h"
#include "backoffice/upstreamcallsview.h"
#include "backoffice/upstreamdialog.h"
#include "backoffice/upstreamspage.h"
#include "cannedapiserver.h"
#include "clock.h"
#include "entities/dayendreportdata.h"
#include "entities/transactionsummary.h"
#include "operatorcatalog.h"
#include "receipts/dayendprint.h"
#include "recordjson.h"
#include "services/walletservice.h"
#include "statuspanel.h"
#include "terminal/saleresultpanel.h"
#include "terminal/statuspoller.h"
#include "terminal/upstreamnotice.h"
#include "terminalcontext.h"
#include "terminalfixture.h"
#include "upstreamsaleinfo.h"
#include "widgets/statusbadge.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QDateEdit>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

namespace {

constexpr int kTimeoutMs = 10'000;

/// A server answering the upstream contract's shapes (issue 11) for the screens, on port 0:
/// GET/PUT/DELETE /api/v1/upstream, POST /api/v1/upstream/check, the transactions list (with
/// upstream_state), one record, its upstream calls and upstream-recheck, and the day-end report.
/// Every request is recorded. Anything else answers 200 with an empty object.
class FakeUpstreamServer final : public CannedApiServer
{
public:
    QJsonObject upstream{{QStringLiteral("configured"), false},
                         {QStringLiteral("base_url"), QJsonValue::Null},
                         {QStringLiteral("key_id"), QJsonValue::Null},
                         {QStringLiteral("state"), QStringLiteral("not_configured")},
                         {QStringLiteral("since"), QJsonValue::Null},
                         {QStringLiteral("last_contact"), QJsonValue::Null},
                         {QStringLiteral("last_error"), QJsonValue::Null},
                         {QStringLiteral("webhook_path"), QStringLiteral("/hooks/upstream")},
                         {QStringLiteral("unknown_sales"), 0},
                         {QStringLiteral("kind"), QJsonValue::Null},
                         {QStringLiteral("credential"), QJsonValue::Null},
                         {QStringLiteral("offers"), QJsonObject{{QStringLiteral("idempotent_reference_id"), false},
                                                                {QStringLiteral("status_check"), false},
                                                                {QStringLiteral("balance"), false}}},
                         {QStringLiteral("attention_sales"), 0},
                         {QStringLiteral("attention_after_s"), 1800}};
    QList<QJsonObject> records;
    QHash<qint64, QJsonArray> calls;
    QJsonObject dayEnd;

private:
    /// An error envelope with reason `invalid`.
    static void refuse(QHttpServerResponder &responder, QHttpServerResponder::StatusCode status, const QString &code,
                       const QString &field, const QString &description)
    {
        fail(responder, {status, code, QStringLiteral("invalid"), field, description});
    }

    int recordIndex(qint64 id) const
    {
        for (int i = 0; i < records.size(); ++i) {
            if (records.at(i).value(QStringLiteral("transaction_id")).toInteger() == id)
                return i;
        }
        return -1;
    }

    void handle(const Request &seen, QHttpServerResponder &responder) override
    {
        const QString &path = seen.path;
        const QString &method = seen.method;
        if (path == QLatin1String("/api/v1/upstream")) {
            if (method == QLatin1String("PUT")) {
                const QString url = seen.body.value(QStringLiteral("base_url")).toString();
                if (!(url.startsWith(QLatin1String("http://")) || url.startsWith(QLatin1String("https://"))) ||
                    !url.endsWith(QLatin1String("/api/v1")))
                    return refuse(responder, QHttpServerResponder::StatusCode::BadRequest,
                                  QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("base_url"),
                                  QStringLiteral("base_url must be an http or https URL ending in /api/v1"));
                upstream.insert(QStringLiteral("configured"), true);
                upstream.insert(QStringLiteral("base_url"), url);
                upstream.insert(QStringLiteral("key_id"), seen.body.value(QStringLiteral("key_id")));
                upstream.insert(QStringLiteral("state"), QStringLiteral("unknown"));
            } else if (method == QLatin1String("DELETE")) {
                upstream.insert(QStringLiteral("configured"), false);
                upstream.insert(QStringLiteral("base_url"), QJsonValue::Null);
                upstream.insert(QStringLiteral("key_id"), QJsonValue::Null);
                upstream.insert(QStringLiteral("state"), QStringLiteral("not_configured"));
            }
            return answer(responder, upstream);
        }
        if (path == QLatin1String("/api/v1/upstream/check")) {
            upstream.insert(QStringLiteral("state"), QStringLiteral("online"));
            upstream.insert(QStringLiteral("last_contact"), QStringLiteral("2026-11-23T14:05:00+05:30"));
            return answer(responder,
                          {{QStringLiteral("ok"), true},
                           {QStringLiteral("http_status"), 200},
                           {QStringLiteral("latency_ms"), 35},
                           {QStringLiteral("message"),
                            QStringLiteral("The upstream answered: key accepted (plans lookup 200 in 35 ms).")}});
        }
        if (path == QLatin1String("/api/v1/transactions") || path == QLatin1String("/api/v1/transactions/summary")) {
            const QString upstreamState = seen.query.queryItemValue(QStringLiteral("upstream_state"));
            if (!upstreamState.isEmpty() && upstreamState != QLatin1String("unknown"))
                return refuse(responder, QHttpServerResponder::StatusCode::BadRequest,
                              QStringLiteral("BAD_REQUEST_ERROR"), QStringLiteral("upstream_state"),
                              QStringLiteral("upstream_state must be unknown"));
            QJsonArray items;
            for (const QJsonObject &record : records) {
                if (upstreamState.isEmpty() || UpstreamSaleInfo::fromRecord(decodedRecord(record)).isUnknown())
                    items.append(record);
            }
            if (path.endsWith(QLatin1String("summary"))) {
                TransactionSummary summary; // a whole answer: the screens read it strictly (issue 14)
                summary.count = items.size();
                return answer(responder, summary.toJson());
            }
            return answer(responder, {{QStringLiteral("items"), items},
                                      {QStringLiteral("count"), items.size()},
                                      {QStringLiteral("next_cursor"), QJsonValue::Null}});
        }
        if (path == QLatin1String("/api/v1/reports/day-end"))
            return answer(responder, dayEnd);
        const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts); // api v1 transactions id …
        if (parts.size() >= 4 && parts.at(2) == QLatin1String("transactions")) {
            const qint64 id = parts.at(3).toLongLong();
            const int index = recordIndex(id);
            if (index < 0)
                return refuse(responder, QHttpServerResponder::StatusCode::NotFound, QStringLiteral("NOT_FOUND_ERROR"),
                              {}, QStringLiteral("no such transaction"));
            if (parts.size() == 4)
                return answer(responder, records.at(index));
            if (parts.at(4) == QLatin1String("upstream-calls"))
                return answer(responder, {{QStringLiteral("items"), calls.value(id)}});
            if (parts.at(4) == QLatin1String("upstream-recheck")) {
                QJsonObject record = records.at(index);
                QJsonObject upstreamPart = record.value(QStringLiteral("upstream")).toObject();
                if (!UpstreamSaleInfo::fromRecord(decodedRecord(record)).isWaiting())
                    return refuse(responder, QHttpServerResponder::StatusCode::Conflict,
                                  QStringLiteral("CONFLICT_ERROR"), {}, QStringLiteral("not waiting on the upstream"));
                upstreamPart.insert(QStringLiteral("state"), QStringLiteral("settled"));
                record.insert(QStringLiteral("upstream"), upstreamPart);
                record.insert(QStringLiteral("transaction_status"), QStringLiteral("SUCCESS"));
                records[index] = record;
                return answer(responder, record);
            }
            return answer(responder, {{QStringLiteral("items"), QJsonArray()}});
        }
        answer(responder, {});
    }
};

/// A client and context for the fake server with a live key (test keys never ask about the upstream).
struct FakeShop
{
    explicit FakeShop(const QString &keyId = QStringLiteral("live_counter1"))
        : api(server.baseUrl(), keyId, QStringLiteral("secret")),
          context(api, dir.filePath(QStringLiteral("prefs.ini")))
    {
        context.setShop(QStringLiteral("Sharma Mobile Point"), QStringLiteral("12 Station Road, Jaipur"));
    }
    QTemporaryDir dir;
    FakeUpstreamServer server;
    ApiClient api;
    TerminalContext context;
};

/// The spec's record of a live mobile sale with an upstream part.
QJsonObject liveSale(qint64 id, const QString &status, const QString &upstreamState, const QDateTime &at,
                     const QJsonValue &error = QJsonValue::Null)
{
    return {{QStringLiteral("entity"), QStringLiteral("mobile_recharge")},
            {QStringLiteral("transaction_id"), id},
            {QStringLiteral("operator"), QStringLiteral("Airtel")},
            {QStringLiteral("type"), QStringLiteral("MOBILE")},
            {QStringLiteral("number"), QStringLiteral("9876543210")},
            {QStringLiteral("bill_amount"), QStringLiteral("₹199.00")},
            {QStringLiteral("discount"), QStringLiteral("₹5.47")},
            {QStringLiteral("paid"), QStringLiteral("₹193.53")},
            {QStringLiteral("transaction_status"), status},
            {QStringLiteral("datetime"), IstTime::format(at)},
            {QStringLiteral("reference_id"), QStringLiteral("counter-%1").arg(id)},
            {QStringLiteral("upstream"),
             QJsonObject{{QStringLiteral("state"), upstreamState},
                         {QStringLiteral("reference_id"), QStringLiteral("rd-ab12cd34-%1").arg(id)},
                         {QStringLiteral("transaction_id"), QJsonValue::Null},
                         {QStringLiteral("attempts"), 2},
                         {QStringLiteral("error"), error}}}};
}

/// The real server of w-upstream as a shop selling live (issue 11): a live admin key for the
/// terminal (the upstream's settings need live authority), a live pos key and ₹10,000.00 of live
/// float; upstream calls time out after 2 s and retry 100 times faster than in production.
struct LiveShop : TerminalFixture
{
    LiveShop()
        : TerminalFixture(Setup{{}, Mode::Live, Scope::Admin, nullptr, options()}),
          livePos(server.createKey(Mode::Live, Scope::Pos))
    {
        WalletService(server.db(), SystemClock())
            .topup(accountId(), Mode::Live, 10'000 * 100, QStringLiteral("float"), QStringLiteral("tests"));
    }
    static ServerOptions options()
    {
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamTimeoutMs = 2000;
        options.upstreamRetryScale = 0.01;
        return options;
    }
    qint64 accountId()
    {
        QSqlQuery &query = server.db().run(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        const qint64 id = query.next() ? query.value(0).toLongLong() : 0;
        query.finish();
        return id;
    }
    HttpResult call(const QByteArray &method, const QString &path, const QByteArray &auth, const QJsonObject &body = {})
    {
        QList<std::pair<QByteArray, QByteArray>> headers{{"Authorization", auth}};
        QByteArray payload;
        if (method != "GET") {
            headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
            payload = QJsonDocument(body).toJson(QJsonDocument::Compact);
        }
        return server.http().send(method, server.url(path), payload, headers);
    }
    /// Points the upstream at `baseUrl` with this key (live admin, over HTTP).
    HttpResult configure(const QString &baseUrl, const CreatedKey &upstreamKey)
    {
        return call("PUT", QStringLiteral("/api/v1/upstream"), auth(),
                    {{QStringLiteral("base_url"), baseUrl},
                     {QStringLiteral("key_id"), upstreamKey.keyId},
                     {QStringLiteral("key_secret"), upstreamKey.secret}});
    }
    /// A live ₹199 Airtel recharge of `phone` with the live pos key.
    HttpResult sell(const QString &phone)
    {
        return call("POST", QStringLiteral("/api/v1/recharge/mobile/initiate-transaction"), livePos,
                    {{QStringLiteral("phone_number"), phone},
                     {QStringLiteral("amount"), 199},
                     {QStringLiteral("operator_code"), QStringLiteral("AT")}});
    }

    QByteArray livePos;
};

/// A local port nothing listens on.
QString deadUpstreamUrl()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return {};
    return QStringLiteral("http://127.0.0.1:%1/api/v1").arg(probe.serverPort());
}

void showWidget(QWidget &widget, const QSize &size = {1366, 768})
{
    widget.resize(size);
    widget.show();
    QApplication::setActiveWindow(&widget);
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
}

void shot(QWidget &widget, const char *name)
{
    widget.grab().save(QStringLiteral("/tmp/upstreamui_%1.png").arg(QLatin1String(name)));
}

} // namespace

class TestUiUpstream final : public QObject
{
    Q_OBJECT

private slots:
    void statusBarShowsUpstreamState()
    {
        FakeShop shop;
        shop.server.upstream.insert(QStringLiteral("configured"), true);
        shop.server.upstream.insert(QStringLiteral("state"), QStringLiteral("unreachable"));
        shop.server.upstream.insert(QStringLiteral("since"), QStringLiteral("2026-11-23T14:02:10+05:30"));
        QMainWindow window;
        StatusPanel panel(shop.context, window.statusBar());
        showWidget(window, {1200, 200});
        QTRY_COMPARE_WITH_TIMEOUT(panel.upstreamText(), QStringLiteral("Upstream unreachable since 14:02"), kTimeoutMs);
        shot(window, "statusbar_unreachable");

        shop.server.upstream.insert(QStringLiteral("state"), QStringLiteral("online"));
        panel.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(panel.upstreamText(), QStringLiteral("Upstream online"), kTimeoutMs);

        // Not configured: nothing is shown.
        shop.server.upstream.insert(QStringLiteral("configured"), false);
        shop.server.upstream.insert(QStringLiteral("state"), QStringLiteral("not_configured"));
        panel.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(panel.upstreamText(), QString(), kTimeoutMs);
    }

    void statusBarQuietInTestMode()
    {
        FakeShop shop(QStringLiteral("test_counter1"));
        shop.server.upstream.insert(QStringLiteral("configured"), true);
        shop.server.upstream.insert(QStringLiteral("state"), QStringLiteral("online"));
        QMainWindow window;
        StatusPanel panel(shop.context, window.statusBar());
        showWidget(window, {1200, 200});
        QTRY_VERIFY_WITH_TIMEOUT(!panel.walletText().isEmpty(), kTimeoutMs);
        QCOMPARE(panel.upstreamText(), QString());
        QVERIFY(shop.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/upstream")).isEmpty());
    }

    void resultShowsWaitingWithElapsedTime()
    {
        FakeShop shop;
        SaleResultPanel panel(shop.context);
        showWidget(panel, {820, 640});
        const QDateTime made = QDateTime::currentDateTimeUtc().addSecs(-65);
        panel.showRecord(decodedRecord(liveSale(41, QStringLiteral("PENDING"), QStringLiteral("unknown"), made)));
        UpstreamNotice *notice = panel.upstreamNotice();
        QVERIFY(notice->isVisible());
        const QRegularExpression waiting(QStringLiteral("^Waiting for the operator — 1:(0[5-9])$"));
        QVERIFY2(waiting.match(notice->text()).hasMatch(), qPrintable(notice->text()));
        const QString first = notice->text();
        QTRY_VERIFY_WITH_TIMEOUT(notice->text() != first, 3000); // it ticks
        QVERIFY(waiting.match(notice->text()).hasMatch());
        shot(panel, "result_waiting");

        // The upstream said PENDING: still waiting on the operator.
        panel.showRecord(decodedRecord(liveSale(41, QStringLiteral("PENDING"), QStringLiteral("pending"), made)));
        QVERIFY(notice->text().startsWith(QStringLiteral("Waiting for the operator — ")));

        // Settled: the notice goes away and stops ticking.
        panel.showRecord(decodedRecord(liveSale(41, QStringLiteral("SUCCESS"), QStringLiteral("settled"), made)));
        QVERIFY(!notice->isVisible());
        QVERIFY(!notice->isTicking());

        // A test-mode record (no upstream part) shows nothing.
        QJsonObject sandbox = liveSale(42, QStringLiteral("PENDING"), QStringLiteral("unknown"), made);
        sandbox.remove(QStringLiteral("upstream"));
        panel.showRecord(decodedRecord(sandbox));
        QVERIFY(!notice->isVisible());
    }

    void waitingTimeComesFromTheTerminalClock()
    {
        // The elapsed "waiting for the operator" time is the terminal's clock minus the sale's
        // time, never the machine's: a ManualClock set months away still reads 1:05, then 2:05.
        FakeShop shop;
        ManualClock clock(QDateTime(QDate(2026, 3, 1), QTime(10, 0), Qt::UTC));
        shop.context.setClock(clock);
        SaleResultPanel panel(shop.context);
        showWidget(panel, {820, 640});
        const QDateTime made = clock.nowUtc().addSecs(-65);
        panel.showRecord(decodedRecord(liveSale(43, QStringLiteral("PENDING"), QStringLiteral("unknown"), made)));
        UpstreamNotice *notice = panel.upstreamNotice();
        QCOMPARE(notice->text(), QStringLiteral("Waiting for the operator — 1:05"));
        clock.advanceMs(60 * 1000);
        QTRY_COMPARE_WITH_TIMEOUT(notice->text(), QStringLiteral("Waiting for the operator — 2:05"), 3000);
    }

    void pollerPassesOnThePendingRecord()
    {
        // While a live sale stays PENDING its upstream state moves (unknown → pending): the
        // poller hands each record on, so the result panel can show it.
        FakeShop shop;
        const QDateTime made = QDateTime::currentDateTimeUtc();
        shop.server.records = {liveSale(71, QStringLiteral("PENDING"), QStringLiteral("pending"), made)};
        StatusPoller poller(shop.api);
        poller.setFirstDelayMs(10);
        QSignalSpy records(&poller, &StatusPoller::pendingRecord);
        poller.start(71);
        QTRY_VERIFY_WITH_TIMEOUT(records.count() >= 1, kTimeoutMs);
        const TransactionRecord record = qvariant_cast<TransactionRecord>(records.first().first());
        QCOMPARE(UpstreamSaleInfo::fromRecord(record).state, QStringLiteral("pending"));
        poller.stop();
    }

    void elapsedText_data()
    {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0:00");
        QTest::newRow("seconds") << qint64(7) << QStringLiteral("0:07");
        QTest::newRow("minute") << qint64(65) << QStringLiteral("1:05");
        QTest::newRow("long") << qint64(754) << QStringLiteral("12:34");
        QTest::newRow("clock skew") << qint64(-3) << QStringLiteral("0:00");
    }
    void elapsedText()
    {
        QFETCH(qint64, seconds);
        QFETCH(QString, text);
        QCOMPARE(UpstreamNotice::elapsedText(seconds), text);
    }

    void resultShowsRefusalInPlainWords_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("description");
        QTest::addColumn<QString>("words");
        QTest::newRow("distributor short") << QStringLiteral("refused") << QStringLiteral("insufficient_balance")
                                           << QStringLiteral("wallet balance ₹12.00 cannot cover ₹193.53")
                                           << QStringLiteral("The distributor's wallet is short — nothing was charged "
                                                             "to the customer");
        QTest::newRow("key refused") << QStringLiteral("refused") << QStringLiteral("invalid_credentials")
                                     << QStringLiteral("invalid key")
                                     << QStringLiteral("did not accept this shop's key");
        QTest::newRow("bad details") << QStringLiteral("refused") << QStringLiteral("http_422")
                                     << QStringLiteral("amount must be between 10 and 2500 for AT")
                                     << QStringLiteral("amount must be between 10 and 2500 for AT");
        QTest::newRow("unknown reason: description")
            << QStringLiteral("refused") << QStringLiteral("amount_out_of_range")
            << QStringLiteral("amount must be between 10 and 2500 for AT")
            << QStringLiteral("The upstream refused the sale (amount must be between 10 and 2500 for AT) — nothing was "
                              "charged to the customer.");
    }
    void resultShowsRefusalInPlainWords()
    {
        QFETCH(QString, state);
        QFETCH(QString, code);
        QFETCH(QString, description);
        QFETCH(QString, words);
        FakeShop shop;
        SaleResultPanel panel(shop.context);
        showWidget(panel, {820, 640});
        panel.showRecord(decodedRecord(
            liveSale(43, QStringLiteral("FAILED"), state, QDateTime::currentDateTimeUtc(),
                     QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("description"), description}})));
        UpstreamNotice *notice = panel.upstreamNotice();
        QVERIFY(notice->isVisible());
        QVERIFY(!notice->isTicking());
        QVERIFY2(notice->text().contains(words), qPrintable(notice->text()));
        QCOMPARE(panel.badge()->status(), QStringLiteral("FAILED"));
        if (qstrcmp(QTest::currentDataTag(), "distributor short") == 0)
            shot(panel, "result_refused");
    }

    void historyFilterRecheckAndCalls()
    {
        FakeShop shop;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        shop.server.records = {liveSale(51, QStringLiteral("SUCCESS"), QStringLiteral("settled"), now.addSecs(-600)),
                               liveSale(52, QStringLiteral("PENDING"), QStringLiteral("unknown"), now.addSecs(-300)),
                               liveSale(53, QStringLiteral("PENDING"), QStringLiteral("pending"), now.addSecs(-200))};
        shop.server.calls.insert(
            52, QJsonArray{
                    QJsonObject{{QStringLiteral("at"), QStringLiteral("2026-11-23T14:02:05+05:30")},
                                {QStringLiteral("method"), QStringLiteral("POST")},
                                {QStringLiteral("endpoint"), QStringLiteral("/recharge/mobile/initiate-transaction")},
                                {QStringLiteral("http_status"), QJsonValue::Null},
                                {QStringLiteral("latency_ms"), 15000},
                                {QStringLiteral("error"), QStringLiteral("timed out after 15000 ms")},
                                {QStringLiteral("outcome"), QStringLiteral("unknown")}},
                    QJsonObject{{QStringLiteral("at"), QStringLiteral("2026-11-23T14:02:35+05:30")},
                                {QStringLiteral("method"), QStringLiteral("POST")},
                                {QStringLiteral("endpoint"), QStringLiteral("/recharge/mobile/initiate-transaction")},
                                {QStringLiteral("http_status"), 502},
                                {QStringLiteral("latency_ms"), 41},
                                {QStringLiteral("error"), QStringLiteral("HTTP 502")},
                                {QStringLiteral("outcome"), QStringLiteral("unknown")}}});
        HistoryPage page(shop.context);
        QAbstractItemModelTester tester(page.model());
        showWidget(page);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 3, kTimeoutMs);

        // The filter asks the server for upstream_state=unknown and shows only what it answers.
        auto *filter = child<QCheckBox>(page, "upstreamUnknownFilter");
        QTest::mouseClick(filter, Qt::LeftButton, {}, QPoint(8, filter->height() / 2));
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->filter().upstreamState == QLatin1String("unknown") &&
                                     !page.model()->isLoading() && page.model()->rowCount() == 1,
                                 kTimeoutMs);
        const auto lists = shop.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/transactions"));
        QCOMPARE(lists.last().query.queryItemValue(QStringLiteral("upstream_state")), QStringLiteral("unknown"));
        QCOMPARE(page.model()->row(0).transactionId, 52);
        QVERIFY(page.model()
                    ->index(0, HistoryModel::StatusColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Unknown at the upstream")));

        // Select it: the detail pane shows its upstream state, reference and calls.
        auto *table = child<QTableView>(page, "historyTable");
        table->setFocus();
        table->selectRow(0);
        auto *pane = child<HistoryDetailPane>(page, "historyDetail");
        UpstreamCallsView *upstream = pane->upstream();
        QTRY_VERIFY_WITH_TIMEOUT(upstream->isVisible() && upstream->callsTable()->rowCount() == 2, kTimeoutMs);
        QTableWidget *calls = upstream->callsTable();
        QCOMPARE(calls->item(0, 0)->text(), QStringLiteral("23 Nov 14:02:05"));
        QCOMPARE(calls->item(0, 1)->text(), QStringLiteral("/recharge/mobile/initiate-transaction"));
        QCOMPARE(calls->item(0, 2)->text(), QStringLiteral("—"));
        QCOMPARE(calls->item(0, 3)->text(), QStringLiteral("15000 ms"));
        QCOMPARE(calls->item(0, 4)->text(), QStringLiteral("unknown — timed out after 15000 ms"));
        QCOMPARE(calls->item(1, 2)->text(), QStringLiteral("502"));
        QCOMPARE(calls->item(1, 4)->text(), QStringLiteral("unknown — HTTP 502"));
        QVERIFY(child<QLabel>(page, "detailUpstreamReference")->text().contains(QStringLiteral("rd-ab12cd34-52")));
        QVERIFY(child<QLabel>(page, "detailUpstreamState")->text().contains(QStringLiteral("Unknown")));
        shot(page, "history_unknown");

        // Recheck with upstream: asks the server, then shows the sale as it is now.
        QPushButton *recheck = upstream->recheckButton();
        QVERIFY(recheck->isEnabled());
        QTest::mouseClick(recheck, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(pane->record() ? TransactionNames::status(pane->record()->status) : QString(),
                                  QStringLiteral("SUCCESS"), kTimeoutMs);
        QCOMPARE(
            shop.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/transactions/52/upstream-recheck"))
                .size(),
            1);
        QTRY_VERIFY_WITH_TIMEOUT(!recheck->isEnabled(), kTimeoutMs); // settled: nothing to recheck
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->index(0, HistoryModel::StatusColumn).data().toString(),
                                  QStringLiteral("SUCCESS"), kTimeoutMs);
        shot(page, "history_rechecked");

        // Unticked: all sales again, and the query no longer names upstream_state.
        QTest::mouseClick(filter, Qt::LeftButton, {}, QPoint(8, filter->height() / 2));
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() == 3, kTimeoutMs);
        QVERIFY(!shop.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/transactions"))
                     .last()
                     .query.hasQueryItem(QStringLiteral("upstream_state")));
    }

    void detailPaneHidesUpstreamForTestSales()
    {
        FakeShop shop;
        QJsonObject sandbox =
            liveSale(61, QStringLiteral("SUCCESS"), QStringLiteral("settled"), QDateTime::currentDateTimeUtc());
        sandbox.remove(QStringLiteral("upstream"));
        shop.server.records = {sandbox};
        HistoryDetailPane pane(shop.context);
        showWidget(pane, {600, 700});
        pane.setTransaction(61);
        QTRY_VERIFY_WITH_TIMEOUT(pane.record().has_value(), kTimeoutMs);
        QVERIFY(!pane.upstream()->isVisible());
        QVERIFY(shop.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/transactions/61/upstream-calls"))
                    .isEmpty());
    }

    void dayEndCountsUnknownApart()
    {
        FakeShop shop;
        DayEndReportData report; // a whole answer: the page reads it strictly (issue 14)
        report.date = QDate::currentDate();
        report.mode = QStringLiteral("live");
        report.totals.success = 5;
        report.totals.pending = 3;
        report.totals.failed = 1;
        report.unknownAtUpstream = 2;
        report.unknownAtUpstreamPaid = 38706;
        shop.server.dayEnd = report.toJson();
        DayEndPage page(shop.context);
        showWidget(page);
        QTRY_VERIFY_WITH_TIMEOUT(page.hasReport(), kTimeoutMs);
        QCOMPARE(page.report().unknownAtUpstream, 2);
        QCOMPARE(page.report().unknownAtUpstreamPaid, 38706);
        auto *label = child<QLabel>(page, "upstreamUnknown");
        QVERIFY(label->isVisible());
        QVERIFY2(label->text().contains(QStringLiteral("2 (wallet debit ₹387.06) are still unknown at the upstream")),
                 qPrintable(label->text()));
        shot(page, "dayend_unknown");
        // Printed too.
        const QString html = DayEndPrint::toHtml(page.report(), shop.context.catalog(), shop.context.shopName(),
                                                 shop.context.shopAddress());
        QVERIFY(html.contains(QStringLiteral("are still unknown at the upstream"))); // the screen's sentence
        QVERIFY(html.contains(QStringLiteral("2 (wallet debit ₹387.06)")));
        QString error;
        QVERIFY2(page.writePdf(shop.dir.filePath(QStringLiteral("dayend.pdf")), &error), qPrintable(error));

        // None unknown: no line.
        shop.server.dayEnd.insert(
            QStringLiteral("unknown_at_upstream"),
            QJsonObject{{QStringLiteral("count"), 0}, {QStringLiteral("paid"), QStringLiteral("₹0.00")}});
        auto *date = page.findChild<QDateEdit *>(QStringLiteral("reportDate"));
        QVERIFY(date);
        date->setDate(date->date().addDays(-1));
        QTRY_VERIFY_WITH_TIMEOUT(page.hasReport() && page.report().unknownAtUpstream == 0, kTimeoutMs);
        QVERIFY(!label->isVisible());
    }

    // --- Against the real server (w-upstream) ---

    void realUpstreamsPageAddsChecksAndRemoves()
    {
        // Settings → Upstreams against the real server (issue 26): the named routes, the status bar following the
        // upstream `default`. The page itself is tested against a canned server in tst_ui_severalupstreams.
        LiveShop shop;
        SettingsPage page(shop.context);
        QMainWindow window;
        StatusPanel statusBar(shop.context, window.statusBar());
        showWidget(page);
        page.showSection(SettingsPage::Section::Upstreams);
        auto *state = child<QLabel>(page, "upstreamState");
        QTRY_VERIFY_WITH_TIMEOUT(state->text().startsWith(QStringLiteral("No upstream yet")), kTimeoutMs);

        // Add…: a URL that does not end in /api/v1 gets the server's words at the URL field, nothing stored.
        QTest::mouseClick(child<QPushButton>(page, "addUpstreamButton"), Qt::LeftButton);
        UpstreamDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = page.findChild<UpstreamDialog *>()) && dialog->isVisible(), kTimeoutMs);
        auto *url = child<QLineEdit>(*dialog, "upstreamBaseUrl");
        QTest::keyClicks(child<QLineEdit>(*dialog, "upstreamName"), QStringLiteral("default"));
        QTest::keyClicks(url, QStringLiteral("ftp://distributor.example/recharge"));
        QTest::keyClicks(child<QLineEdit>(*dialog, "upstreamCredential"), QStringLiteral("pk_live_dashboard42"));
        QTest::keyClicks(child<QLineEdit>(*dialog, "upstreamWebhookPassword"), QStringLiteral("hook-s3cret"));
        QTest::mouseClick(child<QPushButton>(*dialog, "saveUpstream"), Qt::LeftButton);
        auto *urlError = child<QLabel>(*dialog, "upstreamError_base_url");
        QTRY_VERIFY_WITH_TIMEOUT(urlError->isVisible(), kTimeoutMs);
        QVERIFY(!urlError->text().isEmpty());
        QCOMPARE(shop.call("GET", QStringLiteral("/api/v1/upstreams"), shop.auth())
                     .data()
                     .value(QStringLiteral("items"))
                     .toArray()
                     .size(),
                 0);

        // A good URL where nothing answers: saved, spec-only (its offers cannot be read), listed.
        const QString dead = deadUpstreamUrl();
        url->clear();
        QTest::keyClicks(url, dead);
        QTest::mouseClick(child<QPushButton>(*dialog, "saveUpstream"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!page.findChild<UpstreamDialog *>(), kTimeoutMs);
        QTableWidget *table = page.upstreams()->table();
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 1, kTimeoutMs);
        QCOMPARE(table->item(0, UpstreamsPage::NameColumn)->text(), QStringLiteral("default"));
        QCOMPARE(table->item(0, UpstreamsPage::KindColumn)->text(),
                 QStringLiteral("Promises the spec only — sends each sale once"));
        QCOMPARE(table->item(0, UpstreamsPage::WebhookColumn)->text(), QStringLiteral("/hooks/upstream"));
        const QJsonObject stored = shop.call("GET", QStringLiteral("/api/v1/upstream"), shop.server.pos()).data();
        QCOMPARE(stored.value(QStringLiteral("base_url")).toString(), dead);
        QCOMPARE(stored.value(QStringLiteral("credential")).toString(), QStringLiteral("opaque"));

        // Check says so in words; its health and the status bar follow.
        QTest::mouseClick(child<QPushButton>(page, "checkUpstreamButton"), Qt::LeftButton);
        auto *checkResult = child<QLabel>(page, "upstreamCheckResult");
        QTRY_VERIFY_WITH_TIMEOUT(checkResult->property("ok").isValid(), kTimeoutMs);
        QCOMPARE(checkResult->property("ok").toBool(), false);
        QVERIFY(checkResult->text().size() > 10);
        QTRY_VERIFY_WITH_TIMEOUT(
            table->item(0, UpstreamsPage::HealthColumn)->text().startsWith(QStringLiteral("Unreachable since ")),
            kTimeoutMs);
        shot(page, "real_upstreams_unreachable");
        statusBar.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(statusBar.upstreamText().startsWith(QStringLiteral("Upstream unreachable since ")),
                                 kTimeoutMs);
        const QRegularExpression clock(QStringLiteral("since \\d\\d:\\d\\d$"));
        QVERIFY2(clock.match(statusBar.upstreamText()).hasMatch(), qPrintable(statusBar.upstreamText()));

        // Remove…, after confirming: none left, and the status bar shows nothing.
        QTest::mouseClick(child<QPushButton>(page, "removeUpstreamButton"), Qt::LeftButton);
        QVERIFY(pressConfirm(page));
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 0, kTimeoutMs);
        QCOMPARE(shop.call("GET", QStringLiteral("/api/v1/upstream"), shop.server.pos())
                     .data()
                     .value(QStringLiteral("configured"))
                     .toBool(),
                 false);
        statusBar.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(statusBar.upstreamText(), QString(), kTimeoutMs);
    }

    void realSaleUnknownAtUpstreamWaitsAndShowsItsCalls()
    {
        LiveShop shop;
        QCOMPARE(shop.configure(deadUpstreamUrl(), shop.key).status, 200);
        const HttpResult sale = shop.sell(QStringLiteral("9876543210"));
        QCOMPARE(sale.status, 200);
        const QJsonObject record = sale.data();
        const qint64 id = record.value(QStringLiteral("transaction_id")).toInteger();
        QCOMPARE(record.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        QVERIFY(UpstreamSaleInfo::fromRecord(decodedRecord(record)).isWaiting());

        // The sale result: waiting for the operator, with the time ticking.
        SaleResultPanel result(shop.context);
        showWidget(result, {820, 640});
        result.showRecord(decodedRecord(record));
        QVERIFY2(result.upstreamNotice()->text().startsWith(QStringLiteral("Waiting for the operator — 0:0")),
                 qPrintable(result.upstreamNotice()->text()));
        QVERIFY(result.upstreamNotice()->isTicking());

        // The detail pane: the upstream state and reference, and every call made.
        HistoryDetailPane pane(shop.context);
        showWidget(pane, {640, 900});
        pane.setTransaction(id);
        UpstreamCallsView *upstream = pane.upstream();
        QTRY_VERIFY_WITH_TIMEOUT(upstream->isVisible() && upstream->callsTable()->rowCount() >= 1, kTimeoutMs);
        QTableWidget *calls = upstream->callsTable();
        QCOMPARE(calls->item(0, 1)->text(), QStringLiteral("/recharge/mobile/initiate-transaction"));
        QCOMPARE(calls->item(0, 2)->text(), QStringLiteral("—")); // no HTTP answer: nothing listens
        QVERIFY2(calls->item(0, 4)->text().startsWith(QStringLiteral("unknown")),
                 qPrintable(calls->item(0, 4)->text()));
        QVERIFY(child<QLabel>(pane, "detailUpstreamReference")->text().contains(QStringLiteral("rd-")));
        shot(pane, "real_detail_unknown");

        // Nothing answers its openapi.json, so the upstream is spec-only (issue 26): the sale was sent once and is
        // never rechecked (the server would answer 409 no_status_check); it ends by webhook or by hand.
        QVERIFY(pane.record()->upstreamSale()->sendOnce);
        QVERIFY(!upstream->recheckButton()->isEnabled());
        QVERIFY2(child<QLabel>(pane, "detailUpstreamState")->text().contains(QStringLiteral("never sent again")),
                 qPrintable(child<QLabel>(pane, "detailUpstreamState")->text()));
        QVERIFY(pane.resolveButton()->isVisible() && pane.resolveButton()->isEnabled());
        QCOMPARE(calls->rowCount(), 1); // sent once
    }

    void realRefusalInPlainWords()
    {
        // A distributor whose wallet for this shop is empty answers 402: the shop's sale FAILS with refund.
        TestServer distributor;
        const CreatedKey distributorKey = distributor.createKeyPair(Mode::Test, Scope::Pos);
        distributor.db().run(QStringLiteral("UPDATE wallets SET balance = 0 WHERE mode = 'test'"));
        distributor.db().run(QStringLiteral("DELETE FROM wallet_ledger WHERE mode = 'test'"));
        LiveShop shop;
        QCOMPARE(shop.configure(distributor.url(QStringLiteral("/api/v1")).toString(), distributorKey).status, 200);
        const HttpResult sale = shop.sell(QStringLiteral("9876543210"));
        QCOMPARE(sale.status, 200);
        QCOMPARE(sale.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));

        SaleResultPanel result(shop.context);
        showWidget(result, {820, 640});
        result.showRecord(decodedRecord(sale.data()));
        QVERIFY(result.upstreamNotice()->isVisible());
        QVERIFY2(result.upstreamNotice()->text().startsWith(
                     QStringLiteral("The distributor's wallet is short — nothing was charged to the customer")),
                 qPrintable(result.upstreamNotice()->text()));
        shot(result, "real_result_refused");
    }

    void realHistoryFilterAndDayEndCount()
    {
        // One live sale the distributor completed, then one sent where nothing answers.
        TestServer distributor;
        const CreatedKey distributorKey = distributor.createKeyPair(Mode::Test, Scope::Pos);
        LiveShop shop;
        QCOMPARE(shop.configure(distributor.url(QStringLiteral("/api/v1")).toString(), distributorKey).status, 200);
        const HttpResult sold = shop.sell(QStringLiteral("9876543210"));
        QCOMPARE(sold.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(shop.configure(deadUpstreamUrl(), distributorKey).status, 200);
        const HttpResult unknown = shop.sell(QStringLiteral("9876543211"));
        QVERIFY(UpstreamSaleInfo::fromRecord(decodedRecord(unknown.data())).isUnknown());
        const qint64 unknownId = unknown.data().value(QStringLiteral("transaction_id")).toInteger();

        HistoryPage page(shop.context);
        showWidget(page);
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() == 2, kTimeoutMs);
        auto *filter = child<QCheckBox>(page, "upstreamUnknownFilter");
        QTest::mouseClick(filter, Qt::LeftButton, {}, QPoint(8, filter->height() / 2));
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->filter().upstreamState == QLatin1String("unknown") &&
                                     !page.model()->isLoading() && page.model()->rowCount() == 1,
                                 kTimeoutMs);
        QCOMPARE(page.model()->row(0).transactionId, unknownId);
        auto *totals = child<QLabel>(page, "totalsLine");
        QTRY_COMPARE_WITH_TIMEOUT(totals->property("count").toLongLong(), 1, kTimeoutMs);
        shot(page, "real_history_unknown");

        DayEndPage dayEnd(shop.context);
        showWidget(dayEnd);
        QTRY_VERIFY_WITH_TIMEOUT(dayEnd.hasReport(), kTimeoutMs);
        QCOMPARE(dayEnd.report().unknownAtUpstream, 1);
        auto *label = child<QLabel>(dayEnd, "upstreamUnknown");
        QVERIFY(label->isVisible());
        const QString paid = unknown.data().value(QStringLiteral("paid")).toString();
        QVERIFY2(label->text().contains(QStringLiteral("1 (wallet debit %1) are still unknown").arg(paid)),
                 qPrintable(label->text()));
        shot(dayEnd, "real_dayend_unknown");
    }
};

QTEST_MAIN(TestUiUpstream)
#include "tst_ui_upstream.moc"
