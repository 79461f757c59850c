// Issue 26 at the terminal: live sales that need attention (History's filter, the back office's count, the status
// bar's count, what the detail pane says about them), the upstream's own words on a refused sale, and Resolve…
// confirmed by an admin's PIN. Against a canned server on port 0 that answers the shapes of api-v1 and
// api-conventions.md and records every request.
#include "apiclient.h"
#include "backoffice/backofficeview.h"
#include "backoffice/historydetailpane.h"
#include "backoffice/historymodel.h"
#include "backoffice/historypage.h"
#include "backoffice/resolvedialog.h"
#include "backoffice/upstreamcallsview.h"
#include "cannedapiserver.h"
#include "clock.h"
#include "entities/transactionsummary.h"
#include "entities/user.h"
#include "recordjson.h"
#include "statuspanel.h"
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
#include <QLayout>
#include <QLineEdit>
#include <QMainWindow>
#include <QPointer>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr int kTimeoutMs = 10'000;

/// A shop server as the terminal's screens see it for issue 26: GET /api/v1/upstream (attention_sales), the
/// transactions list and summary (upstream_state unknown / attention), one record and its ledger, calls and
/// deliveries, PIN sign-in and sign-out, and POST …/resolve (settles a PENDING record once, or answers
/// `resolveFailure`). Every request is recorded with its session token. Anything else answers 200 with {}.
class FakeShopServer final : public CannedApiServer
{
public:
    struct Person
    {
        QString pin;
        QString role;
    };

    QJsonObject upstream{{QStringLiteral("configured"), true},
                         {QStringLiteral("base_url"), QStringLiteral("https://aggregator.example/api/v1")},
                         {QStringLiteral("key_id"), QJsonValue::Null},
                         {QStringLiteral("state"), QStringLiteral("online")},
                         {QStringLiteral("since"), QJsonValue::Null},
                         {QStringLiteral("last_contact"), QJsonValue::Null},
                         {QStringLiteral("last_error"), QJsonValue::Null},
                         {QStringLiteral("webhook_path"), QStringLiteral("/hooks/upstream")},
                         {QStringLiteral("unknown_sales"), 1},
                         {QStringLiteral("kind"), QStringLiteral("spec")},
                         {QStringLiteral("credential"), QStringLiteral("opaque")},
                         {QStringLiteral("offers"), QJsonObject{{QStringLiteral("idempotent_reference_id"), false},
                                                                {QStringLiteral("status_check"), false},
                                                                {QStringLiteral("balance"), false}}},
                         {QStringLiteral("attention_sales"), 0},
                         {QStringLiteral("attention_after_s"), 1800}};
    QList<QJsonObject> records;
    QHash<QString, Person> people{{QStringLiteral("Owner"), {QStringLiteral("246802"), QStringLiteral("admin")}},
                                  {QStringLiteral("Ravi"), {QStringLiteral("1357"), QStringLiteral("clerk")}}};
    std::optional<Failure> resolveFailure;

private:
    static QJsonObject emptyCollection()
    {
        return {{QStringLiteral("entity"), QStringLiteral("collection")},
                {QStringLiteral("count"), 0},
                {QStringLiteral("items"), QJsonArray()}};
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
        if (path == QLatin1String("/api/v1/upstream"))
            return answer(responder, upstream);
        if (path == QLatin1String("/api/v1/users/sign-in"))
            return signIn(seen, responder);
        if (path == QLatin1String("/api/v1/users/sign-out"))
            return answer(responder, UserSignOut{}.toJson());
        if (path == QLatin1String("/api/v1/webhook-deliveries"))
            return answer(responder, emptyCollection());
        if (path == QLatin1String("/api/v1/transactions") || path == QLatin1String("/api/v1/transactions/summary"))
            return list(seen, responder);
        const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts); // api v1 transactions id …
        if (parts.size() >= 4 && parts.at(2) == QLatin1String("transactions")) {
            const int index = recordIndex(parts.at(3).toLongLong());
            if (index < 0)
                return fail(responder, {QHttpServerResponder::StatusCode::NotFound,
                                        QStringLiteral("NOT_FOUND_ERROR"),
                                        QStringLiteral("not_found"),
                                        {},
                                        QStringLiteral("no such transaction")});
            if (parts.size() == 4)
                return answer(responder, records.at(index));
            if (parts.at(4) == QLatin1String("resolve"))
                return resolve(seen, index, responder);
            return answer(responder, emptyCollection()); // ledger, upstream-calls
        }
        answer(responder, {});
    }

    void signIn(const Request &seen, QHttpServerResponder &responder)
    {
        const QString name = seen.body.value(QStringLiteral("name")).toString();
        const auto person = people.constFind(name);
        if (person == people.cend() || person->pin != seen.body.value(QStringLiteral("pin")).toString())
            return fail(responder, {QHttpServerResponder::StatusCode::Unauthorized,
                                    QStringLiteral("AUTHENTICATION_ERROR"), QStringLiteral("invalid_pin"),
                                    QStringLiteral("pin"), QStringLiteral("That name and PIN do not match.")});
        UserSignIn session;
        session.token = QStringLiteral("session-%1-%2").arg(name).arg(++m_sessions);
        session.expiresAt = QDateTime::currentDateTimeUtc().addSecs(3600);
        session.user = User{m_sessions + 10, name, person->role, true};
        m_sessionUsers.insert(session.token.toLatin1(), name);
        answer(responder, session.toJson());
    }

    void list(const Request &seen, QHttpServerResponder &responder)
    {
        const QString upstreamState = seen.query.queryItemValue(QStringLiteral("upstream_state"));
        QJsonArray items;
        for (const QJsonObject &record : std::as_const(records)) {
            const UpstreamSaleInfo info = UpstreamSaleInfo::fromRecord(decodedRecord(record));
            if (upstreamState.isEmpty() || (upstreamState == QLatin1String("unknown") && info.isUnknown()) ||
                (upstreamState == QLatin1String("attention") && info.attention))
                items.append(record);
        }
        if (seen.path.endsWith(QLatin1String("summary"))) {
            TransactionSummary summary;
            summary.count = items.size();
            return answer(responder, summary.toJson());
        }
        answer(responder, {{QStringLiteral("entity"), QStringLiteral("collection")},
                           {QStringLiteral("items"), items},
                           {QStringLiteral("count"), items.size()},
                           {QStringLiteral("next_cursor"), QJsonValue::Null}});
    }

    void resolve(const Request &seen, int index, QHttpServerResponder &responder)
    {
        if (resolveFailure)
            return fail(responder, *resolveFailure);
        QJsonObject record = records.at(index);
        if (record.value(QStringLiteral("transaction_status")).toString() != QLatin1String("PENDING"))
            return fail(responder, {QHttpServerResponder::StatusCode::Conflict,
                                    QStringLiteral("CONFLICT_ERROR"),
                                    QStringLiteral("not_pending"),
                                    {},
                                    QStringLiteral("the sale is not PENDING")});
        const QString name = m_sessionUsers.value(seen.sessionToken);
        if (name.isEmpty())
            return fail(responder, {QHttpServerResponder::StatusCode::Forbidden,
                                    QStringLiteral("PERMISSION_ERROR"),
                                    QStringLiteral("live_admin_required"),
                                    {},
                                    QStringLiteral("resolving a sale needs a live admin")});
        QJsonObject upstreamPart = record.value(QStringLiteral("upstream")).toObject();
        upstreamPart.insert(QStringLiteral("state"), QStringLiteral("settled"));
        upstreamPart.insert(QStringLiteral("attention"), false);
        upstreamPart.insert(QStringLiteral("resolution"),
                            QJsonObject{{QStringLiteral("by"), QString(QStringLiteral("user:") + name)}, // the actor
                                        {QStringLiteral("note"), seen.body.value(QStringLiteral("note"))},
                                        {QStringLiteral("at"), IstTime::format(QDateTime::currentDateTimeUtc())}});
        record.insert(QStringLiteral("upstream"), upstreamPart);
        record.insert(QStringLiteral("transaction_status"), seen.body.value(QStringLiteral("status")));
        records[index] = record;
        answer(responder, record);
    }

    QHash<QByteArray, QString> m_sessionUsers;
    qint64 m_sessions = 0;
};

/// The client and context of a counter with a live key, its admin "Owner" signed in (the token the fake gave).
struct Counter
{
    Counter()
        : api(server.baseUrl(), QStringLiteral("live_counter1"), QStringLiteral("secret")),
          context(api, dir.filePath(QStringLiteral("prefs.ini")))
    {
        context.setShop(QStringLiteral("Sharma Mobile Point"), QStringLiteral("12 Station Road, Jaipur"));
    }
    /// Signs in as `name` the way the sign-in page does (through the fake's sign-in).
    void signIn(const QString &name, bool admin)
    {
        const QString token = QStringLiteral("counter-session-%1").arg(name);
        api.setSessionToken(token);
        context.setUser(SignedInUser{1, name, admin, token});
    }
    QTemporaryDir dir;
    FakeShopServer server;
    ApiClient api;
    TerminalContext context;
};

/// A live mobile sale's record with an upstream part as issue 26 has it.
QJsonObject liveSale(qint64 id, const QString &status, const QString &state, const QDateTime &at, bool attention,
                     bool sendOnce, const QJsonValue &error = QJsonValue::Null)
{
    return {{QStringLiteral("entity"), QStringLiteral("mobile_recharge")},
            {QStringLiteral("transaction_id"), id},
            {QStringLiteral("operator"), QStringLiteral("Airtel")},
            {QStringLiteral("type"), QStringLiteral("MOBILE")},
            {QStringLiteral("number"), QStringLiteral("98765432%1").arg(id % 100, 2, 10, QLatin1Char('0'))},
            {QStringLiteral("bill_amount"), QStringLiteral("₹199.00")},
            {QStringLiteral("discount"), QStringLiteral("₹5.47")},
            {QStringLiteral("paid"), QStringLiteral("₹193.53")},
            {QStringLiteral("transaction_status"), status},
            {QStringLiteral("datetime"), IstTime::format(at)},
            {QStringLiteral("reference_id"), QStringLiteral("counter-%1").arg(id)},
            {QStringLiteral("upstream"),
             QJsonObject{{QStringLiteral("state"), state},
                         {QStringLiteral("reference_id"), QStringLiteral("rd-ab12cd34-%1").arg(id)},
                         {QStringLiteral("transaction_id"), QJsonValue::Null},
                         {QStringLiteral("attempts"), 1},
                         {QStringLiteral("error"), error},
                         {QStringLiteral("attention"), attention},
                         {QStringLiteral("send_once"), sendOnce},
                         {QStringLiteral("resolution"), QJsonValue::Null}}}};
}

/// Four live sales: settled (81), unknown but recent (82), unknown for an hour at a spec-only aggregator (83, sent
/// once) and PENDING at a RechargeDesk upstream for an hour (84). 83 and 84 need attention.
QList<QJsonObject> fourSales()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    return {liveSale(81, QStringLiteral("SUCCESS"), QStringLiteral("settled"), now.addSecs(-7200), false, true),
            liveSale(82, QStringLiteral("PENDING"), QStringLiteral("unknown"), now.addSecs(-60), false, true),
            liveSale(83, QStringLiteral("PENDING"), QStringLiteral("unknown"), now.addSecs(-3600), true, true),
            liveSale(84, QStringLiteral("PENDING"), QStringLiteral("pending"), now.addSecs(-3700), true, false)};
}

void showWidget(QWidget &widget, const QSize &size = {1366, 768})
{
    widget.resize(size);
    widget.show();
    QApplication::setActiveWindow(&widget);
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
}

/// Saves `widget` as NAME.png in $RECHARGEDESK_SCREENSHOT_DIR (when set), after the layouts settle.
void shot(QWidget &widget, const char *name)
{
    settleLayouts();
    screenshot(widget, QLatin1String(name));
}

/// The ResolveDialog open under `parent`, once it is visible (nullptr after 10 s).
ResolveDialog *openDialog(QWidget &parent)
{
    ResolveDialog *dialog = nullptr;
    const bool open = QTest::qWaitFor(
        [&] {
            dialog = parent.findChild<ResolveDialog *>(QStringLiteral("resolveDialog"));
            return dialog && dialog->isVisible();
        },
        kTimeoutMs);
    if (!open)
        return nullptr;
    // As showWidget() does for a page: the offscreen platform activates no window by itself.
    QApplication::setActiveWindow(dialog);
    return QTest::qWaitForWindowActive(dialog) ? dialog : nullptr;
}

/// Selects the table row of `id` in `page` (waiting for it) and waits for its record in the detail pane.
bool selectSale(HistoryPage &page, qint64 id)
{
    if (!QTest::qWaitFor([&] { return !page.model()->isLoading() && page.model()->rowOf(id) >= 0; }, kTimeoutMs))
        return false;
    auto *table = page.findChild<QTableView *>(QStringLiteral("historyTable"));
    table->setFocus();
    table->selectRow(page.model()->rowOf(id));
    HistoryDetailPane *pane = page.detailPane();
    return QTest::qWaitFor([&] { return pane->record() && pane->record()->transactionId == id; }, kTimeoutMs);
}

} // namespace

class TestUiAttention final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(applyTerminalStyle()); }

    void attentionFilterListsOnlySuchSalesOfEveryDate()
    {
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        counter.server.records = fourSales();
        HistoryPage page(counter.context);
        QAbstractItemModelTester tester(page.model());
        showWidget(page);
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() == 4, kTimeoutMs);

        // "Unknown at upstream" first, then "Needs attention" from the keyboard: the two exclude each other.
        auto *unknown = child<QCheckBox>(page, "upstreamUnknownFilter");
        auto *attention = child<QCheckBox>(page, "attentionFilter");
        unknown->setFocus();
        QTest::keyClick(unknown, Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() == 2, kTimeoutMs);
        attention->setFocus();
        QTest::keyClick(attention, Qt::Key_Space);
        QVERIFY(!unknown->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->filter().upstreamState == QLatin1String("attention") &&
                                     !page.model()->isLoading() && page.model()->rowCount() == 2,
                                 kTimeoutMs);
        QCOMPARE(page.model()->row(0).transactionId, 83);
        QCOMPARE(page.model()->row(1).transactionId, 84);
        // Every date: no range is sent and the date fields are off.
        const auto lists = counter.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/transactions"));
        const QUrlQuery query = lists.last().query;
        QCOMPARE(query.queryItemValue(QStringLiteral("upstream_state")), QStringLiteral("attention"));
        QVERIFY(!query.hasQueryItem(QStringLiteral("from")));
        QVERIFY(!query.hasQueryItem(QStringLiteral("to")));
        QVERIFY(!child<QDateEdit>(page, "fromDate")->isEnabled());
        QVERIFY(!child<QDateEdit>(page, "toDate")->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(page, "totalsLine")->property("count").toLongLong(), 2, kTimeoutMs);
        QVERIFY(page.model()
                    ->index(0, HistoryModel::StatusColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Needs attention")));

        // The sale sent once to a spec-only aggregator: what is known, in plain words.
        QVERIFY(selectSale(page, 83));
        HistoryDetailPane *pane = page.detailPane();
        auto *note = child<QLabel>(*pane, "detailAttention");
        QTRY_VERIFY_WITH_TIMEOUT(note->isVisible(), kTimeoutMs);
        QVERIFY2(note->text().contains(QStringLiteral(
                     "Sent once to the aggregator; its answer never came. The aggregator offers no status check: end "
                     "it by its statement or by hand after checking its dashboard.")),
                 qPrintable(note->text()));
        QVERIFY(!pane->upstream()->recheckButton()->isEnabled()); // no status check to ask
        QVERIFY(pane->resolveButton()->isVisible() && pane->resolveButton()->isEnabled());
        shot(page, "history-needs-attention-send-once");

        // The sale at a RechargeDesk upstream: its wording says RechargeDesk keeps asking.
        QVERIFY(selectSale(page, 84));
        QTRY_VERIFY_WITH_TIMEOUT(note->text().contains(QStringLiteral("RechargeDesk keeps asking")), kTimeoutMs);
        QVERIFY(!note->text().contains(QStringLiteral("Sent once")));
        QVERIFY(pane->upstream()->recheckButton()->isEnabled());

        // Off again: the dates come back and every sale is listed.
        attention->setFocus();
        QTest::keyClick(attention, Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() == 4, kTimeoutMs);
        QVERIFY(child<QDateEdit>(page, "fromDate")->isEnabled());
        QVERIFY(counter.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/transactions"))
                    .last()
                    .query.hasQueryItem(QStringLiteral("from")));
    }

    void backOfficeCountOpensTheFilter()
    {
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        counter.server.records = fourSales();
        counter.server.upstream.insert(QStringLiteral("attention_sales"), 2);
        BackOfficeView view(counter.context);
        // A search left in History, which would hide the sales: showing them clears it.
        QTest::keyClicks(child<QLineEdit>(*view.historyPage(), "searchFilter"), QStringLiteral("9812344000"));
        view.setCurrentIndex(1); // Day-end: the count shows on any tab
        showWidget(view);
        QPushButton *button = view.attentionButton();
        QTRY_VERIFY_WITH_TIMEOUT(button->isVisible(), kTimeoutMs);
        QCOMPARE(button->text(), QStringLiteral("2 sales need attention · show them (Alt+N)"));
        QVERIFY(button->toolTip().contains(QStringLiteral("30 minutes")));
        shot(view, "backoffice-attention-count");

        // Alt+N from the Day-end tab: History with Needs attention, the focus in the table.
        view.setFocus();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_N, Qt::AltModifier);
        QCOMPARE(view.currentWidget(), view.historyPage());
        HistoryPage *history = view.historyPage();
        QVERIFY(history->needsAttention());
        QTRY_VERIFY_WITH_TIMEOUT(history->model()->filter().upstreamState == QLatin1String("attention") &&
                                     !history->model()->isLoading() && history->model()->rowCount() == 2,
                                 kTimeoutMs);
        QVERIFY(child<QTableView>(*history, "historyTable")->hasFocus());
        QVERIFY(child<QLineEdit>(*history, "searchFilter")->text().isEmpty());
        // Alt+N again: off.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_N, Qt::AltModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!history->needsAttention() && !history->model()->isLoading() &&
                                     history->model()->rowCount() == 4,
                                 kTimeoutMs);

        // The button from the keyboard (Tab reaches it; Space presses it) does the same.
        view.setCurrentIndex(2);
        button->setFocus(Qt::TabFocusReason);
        QTest::keyClick(button, Qt::Key_Space);
        QCOMPARE(view.currentWidget(), view.historyPage());
        QVERIFY(history->needsAttention());

        // None left: the button goes.
        counter.server.upstream.insert(QStringLiteral("attention_sales"), 0);
        view.refreshAttention();
        QTRY_VERIFY_WITH_TIMEOUT(!button->isVisible(), kTimeoutMs);
    }

    void backOfficeFitsTheKioskWithTheCountAndASaleSelected_data()
    {
        QTest::addColumn<bool>("kiosk");
        QTest::addColumn<QSize>("screen");
        for (const bool kiosk : {true, false}) {
            for (const QSize &screen : {QSize(1366, 768), QSize(1280, 720)})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2x%3")
                                             .arg(kiosk ? QStringLiteral("kiosk") : QStringLiteral("desktop"))
                                             .arg(screen.width())
                                             .arg(screen.height())))
                    << kiosk << screen;
        }
    }
    void backOfficeFitsTheKioskWithTheCountAndASaleSelected()
    {
        // The terminal's frame around the back office: its navigation column (260 px in the kiosk, 210 on the
        // desktop) and a status bar (about 40 px).
        QFETCH(bool, kiosk);
        QFETCH(QSize, screen);
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        counter.server.records = fourSales();
        counter.server.upstream.insert(QStringLiteral("attention_sales"), 2);
        QWidget frame;
        frame.setProperty("kiosk", kiosk);
        auto *view = new BackOfficeView(counter.context, &frame);
        const QSize room(screen.width() - (kiosk ? 260 : 210), screen.height() - 40);
        view->resize(room);
        showWidget(frame, room);
        QTRY_VERIFY_WITH_TIMEOUT(view->attentionButton()->isVisible(), kTimeoutMs);
        QTest::keyClick(view->attentionButton(), Qt::Key_Space);
        HistoryPage *history = view->historyPage();
        QVERIFY(selectSale(*history, 84));
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(*history->detailPane(), "detailAttention")->isVisible(), kTimeoutMs);
        settleLayouts();
        const QSize minimum = view->minimumSizeHint();
        QVERIFY2(minimum.width() <= room.width() && minimum.height() <= room.height(),
                 qPrintable(QStringLiteral("needs %1x%2 of %3x%4")
                                .arg(minimum.width())
                                .arg(minimum.height())
                                .arg(room.width())
                                .arg(room.height())));
    }

    void statusBarCountsAttentionForEveryone_data()
    {
        QTest::addColumn<bool>("admin");
        QTest::newRow("admin") << true;
        QTest::newRow("clerk") << false;
    }
    void statusBarCountsAttentionForEveryone()
    {
        QFETCH(bool, admin);
        Counter counter;
        counter.signIn(admin ? QStringLiteral("Owner") : QStringLiteral("Ravi"), admin);
        counter.server.upstream.insert(QStringLiteral("attention_sales"), 2);
        QMainWindow window;
        StatusPanel panel(counter.context, window.statusBar());
        showWidget(window, {1366, 200});
        QTRY_COMPARE_WITH_TIMEOUT(panel.attentionText(), QStringLiteral("2 sales need attention"), kTimeoutMs);
        QCOMPARE(panel.upstreamText(), QStringLiteral("Upstream online"));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.walletText().isEmpty() && !panel.serverText().isEmpty(), kTimeoutMs);
        auto *label = window.statusBar()->findChild<QLabel *>(QStringLiteral("attentionCount"));
        QVERIFY(label->toolTip().contains(QStringLiteral("Needs attention")));
        if (admin)
            shot(window, "statusbar-attention");

        counter.server.upstream.insert(QStringLiteral("attention_sales"), 1);
        panel.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(panel.attentionText(), QStringLiteral("1 sale needs attention"), kTimeoutMs);
        counter.server.upstream.insert(QStringLiteral("attention_sales"), 0);
        panel.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(panel.attentionText(), QString(), kTimeoutMs);
    }

    void statusBarFitsTheKiosk()
    {
        // Every part of the bar at once, in the kiosk's type: still one line within 1280 px, nothing cut.
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        counter.server.upstream.insert(QStringLiteral("attention_sales"), 12);
        counter.server.upstream.insert(QStringLiteral("state"), QStringLiteral("unreachable"));
        counter.server.upstream.insert(QStringLiteral("since"), QStringLiteral("2026-11-23 14:02:10"));
        QMainWindow window;
        window.setProperty("kiosk", true);
        StatusPanel panel(counter.context, window.statusBar());
        showWidget(window, {1280, 200});
        QTRY_COMPARE_WITH_TIMEOUT(panel.attentionText(), QStringLiteral("12 sales need attention"), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.walletText().isEmpty() && !panel.serverText().isEmpty() &&
                                     panel.upstreamText().startsWith(QStringLiteral("Upstream unreachable since")),
                                 kTimeoutMs);
        auto *label = window.statusBar()->findChild<QLabel *>(QStringLiteral("attentionCount"));
        QCOMPARE(QFontInfo(label->font()).pixelSize(), 17); // the kiosk's status bar type
        settleLayouts();
        QVERIFY2(window.statusBar()->minimumSizeHint().width() <= 1280,
                 qPrintable(QString::number(window.statusBar()->minimumSizeHint().width())));
        shot(window, "statusbar-kiosk");
    }

    void resolveTypedFromTheKeyboard()
    {
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        counter.server.records = fourSales();
        HistoryPage page(counter.context);
        showWidget(page);
        child<QCheckBox>(page, "attentionFilter")->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->filter().upstreamState == QLatin1String("attention") &&
                                     !page.model()->isLoading() && page.model()->rowCount() == 2,
                                 kTimeoutMs);
        QVERIFY(selectSale(page, 83));
        HistoryDetailPane *pane = page.detailPane();
        QTRY_VERIFY_WITH_TIMEOUT(pane->resolveButton()->isVisible() && pane->resolveButton()->isEnabled(), kTimeoutMs);
        QSignalSpy salesChanged(&counter.context, &TerminalContext::salesChanged);

        // Alt+V (Resol&ve…) opens the dialog; the name is the signed-in admin's, no outcome is chosen.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_V, Qt::AltModifier);
        const QPointer<ResolveDialog> dialog = openDialog(*pane); // deleted once it closes
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        QCOMPARE(child<QLineEdit>(*dialog, "resolveAdminName")->text(), QStringLiteral("Owner"));
        auto *success = child<QRadioButton>(*dialog, "resolveSuccess");
        QVERIFY(!success->isChecked() && !child<QRadioButton>(*dialog, "resolveFailed")->isChecked());
        QCOMPARE(QApplication::focusWidget(), success);

        // Space chooses Recharged; Tab Tab to the note (past Not recharged), Tab to the name, Tab to the PIN, Enter.
        QTest::keyClick(success, Qt::Key_Space);
        QVERIFY(success->isChecked());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        if (QApplication::focusWidget() != child<QLineEdit>(*dialog, "resolveNote"))
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(*dialog, "resolveNote"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("  Dashboard shows SUCCESS, op ref AT77  "));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(*dialog, "resolveAdminName"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(*dialog, "resolvePin"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("246802"));
        shot(*dialog, "resolve-dialog-filled");
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);

        // Sent once, exactly {"status", "note"}, under the session the PIN opened (then signed out).
        QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->isVisible(), kTimeoutMs);
        const auto resolves =
            counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/transactions/83/resolve"));
        QCOMPARE(resolves.size(), 1);
        QCOMPARE(resolves.first().body,
                 (QJsonObject{{QStringLiteral("status"), QStringLiteral("SUCCESS")},
                              {QStringLiteral("note"), QStringLiteral("Dashboard shows SUCCESS, op ref AT77")}}));
        const auto signIns = counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/users/sign-in"));
        QCOMPARE(signIns.size(), 1);
        QCOMPARE(signIns.first().body.value(QStringLiteral("name")).toString(), QStringLiteral("Owner"));
        QVERIFY(resolves.first().sessionToken.startsWith("session-Owner-"));
        QTRY_COMPARE_WITH_TIMEOUT(
            counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/users/sign-out")).size(), 1,
            kTimeoutMs);
        QCOMPARE(counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/users/sign-out"))
                     .first()
                     .sessionToken,
                 resolves.first().sessionToken);
        QVERIFY(pane->record());

        // The pane and the row show the settled sale, with who, when and why.
        QCOMPARE(pane->record()->status, TransactionStatus::Success);
        auto *badge = pane->findChild<StatusBadge *>();
        QCOMPARE(badge->status(), QStringLiteral("SUCCESS"));
        auto *resolution = child<QLabel>(*pane, "detailResolution");
        QVERIFY(resolution->isVisible());
        const UpstreamSaleInfo info = UpstreamSaleInfo::fromRecord(*pane->record());
        const QString clock =
            IstTime::timeOfDay(IstTime::toIst(QDateTime::fromMSecsSinceEpoch(info.resolvedAtMs, Qt::UTC)));
        QCOMPARE(resolution->text(),
                 QStringLiteral("Resolved by hand by Owner at %1: Dashboard shows SUCCESS, op ref AT77").arg(clock));
        QVERIFY(!child<QLabel>(*pane, "detailAttention")->isVisible());
        QVERIFY(!pane->resolveButton()->isEnabled());
        const int row = page.model()->rowOf(83);
        QVERIFY(row >= 0);
        QCOMPARE(page.model()->index(row, HistoryModel::StatusColumn).data().toString(), QStringLiteral("SUCCESS"));
        auto *message = child<QLabel>(*pane, "detailMessage");
        QVERIFY(message->text().startsWith(QStringLiteral("Resolved as recharged")));
        QCOMPARE(salesChanged.count(), 1); // the status bar's wallet, pending and attention counts follow
        shot(page, "history-resolved");

        // The back office reloads the history on salesChanged: the sale leaves Needs attention, yet stays in the
        // pane with its message.
        page.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() == 1, kTimeoutMs);
        QCOMPARE(page.model()->rowOf(83), -1);
        QCOMPARE(pane->transactionId(), 83);
        QVERIFY(resolution->isVisible());
        QVERIFY(message->isVisible());
    }

    void missingNoteOrPinKeepsTheDialogOpen()
    {
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        counter.server.records = fourSales();
        HistoryDetailPane pane(counter.context);
        showWidget(pane, {640, 760});
        pane.setTransaction(84);
        QTRY_VERIFY_WITH_TIMEOUT(pane.resolveButton()->isVisible() && pane.resolveButton()->isEnabled(), kTimeoutMs);
        pane.resolveButton()->setFocus();
        QTest::keyClick(pane.resolveButton(), Qt::Key_Space);
        ResolveDialog *dialog = openDialog(pane);
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        auto *statusError = child<QLabel>(*dialog, "resolveError_status");
        auto *noteError = child<QLabel>(*dialog, "resolveError_note");
        auto *pinError = child<QLabel>(*dialog, "resolveError_pin");

        // Enter at once: nothing chosen, no note, no PIN — each said at its field, nothing sent.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QVERIFY(dialog->isVisible());
        QVERIFY(statusError->isVisible());
        QVERIFY(noteError->isVisible());
        QVERIFY2(noteError->text().startsWith(QStringLiteral("Write a note")), qPrintable(noteError->text()));
        QVERIFY(pinError->isVisible());
        // The dialog grew for the messages: nothing squeezed.
        QVERIFY(dialog->height() >= dialog->layout()->totalHeightForWidth(dialog->width()));
        shot(*dialog, "resolve-dialog-missing");

        // Not recharged and a PIN, but the note only spaces: still refused at the note, the focus there.
        auto *failed = child<QRadioButton>(*dialog, "resolveFailed");
        failed->setFocus();
        QTest::keyClick(failed, Qt::Key_Space);
        QVERIFY(failed->isChecked());
        auto *note = child<QLineEdit>(*dialog, "resolveNote");
        auto *pin = child<QLineEdit>(*dialog, "resolvePin");
        QTest::keyClicks(note, QStringLiteral("   "));
        QTest::keyClicks(pin, QStringLiteral("246802"));
        QTest::keyClick(pin, Qt::Key_Return);
        QVERIFY(dialog->isVisible());
        QVERIFY(!statusError->isVisible());
        QVERIFY(noteError->isVisible());
        QVERIFY(!pinError->isVisible());
        QCOMPARE(QApplication::focusWidget(), note);

        // A note, but the PIN cleared: refused at the PIN.
        QTest::keyClicks(note, QStringLiteral("Customer says no balance came"));
        pin->clear();
        QTest::keyClick(note, Qt::Key_Return);
        QVERIFY(dialog->isVisible());
        QVERIFY(!noteError->isVisible());
        QVERIFY(pinError->isVisible());
        QVERIFY(pinError->text().contains(QStringLiteral("PIN")));
        QCOMPARE(QApplication::focusWidget(), pin);
        QVERIFY(counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/users/sign-in")).isEmpty());

        // A wrong PIN: the server's words at the PIN, the dialog stays, nothing resolved.
        QTest::keyClicks(pin, QStringLiteral("111111"));
        QTest::keyClick(pin, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(pinError->isVisible() && pinError->text().contains(QStringLiteral("do not match")),
                                 kTimeoutMs);
        QVERIFY(dialog->isVisible());
        QVERIFY(pin->text().isEmpty());

        // A clerk's PIN: not an admin, said at the name; the clerk's session is signed out again.
        auto *name = child<QLineEdit>(*dialog, "resolveAdminName");
        name->selectAll();
        QTest::keyClicks(name, QStringLiteral("Ravi"));
        QTest::keyClicks(pin, QStringLiteral("1357"));
        QTest::keyClick(pin, Qt::Key_Return);
        auto *nameError = child<QLabel>(*dialog, "resolveError_name");
        QTRY_VERIFY_WITH_TIMEOUT(nameError->isVisible(), kTimeoutMs);
        QVERIFY2(nameError->text().contains(QStringLiteral("not an admin")), qPrintable(nameError->text()));
        QVERIFY(dialog->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(
            counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/users/sign-out")).size(), 1,
            kTimeoutMs);
        QVERIFY(counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/transactions/84/resolve"))
                    .isEmpty());

        // Esc closes it; the sale is still PENDING.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!pane.findChild<ResolveDialog *>(), kTimeoutMs);
        QCOMPARE(pane.record()->status, TransactionStatus::Pending);
    }

    void serverRefusalsAreShownInTheDialog_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("description");
        QTest::addColumn<QString>("label");
        QTest::newRow("409 not pending") << 409 << QStringLiteral("not_pending") << QString()
                                         << QStringLiteral("the sale is not PENDING: it settled by webhook at 14:10")
                                         << QStringLiteral("resolveError");
        QTest::newRow("403 not live admin")
            << 403 << QStringLiteral("live_admin_required") << QString()
            << QStringLiteral("resolving a sale needs a live admin") << QStringLiteral("resolveError");
        QTest::newRow("400 note") << 400 << QStringLiteral("invalid") << QStringLiteral("note")
                                  << QStringLiteral("note must be 1-500 characters")
                                  << QStringLiteral("resolveError_note");
    }
    void serverRefusalsAreShownInTheDialog()
    {
        QFETCH(int, status);
        QFETCH(QString, reason);
        QFETCH(QString, field);
        QFETCH(QString, description);
        QFETCH(QString, label);
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        counter.server.records = fourSales();
        counter.server.resolveFailure = FakeShopServer::Failure{QHttpServerResponder::StatusCode(status),
                                                                QStringLiteral("ERROR"), reason, field, description};
        HistoryDetailPane pane(counter.context);
        showWidget(pane, {640, 760});
        pane.setTransaction(83);
        QTRY_VERIFY_WITH_TIMEOUT(pane.resolveButton()->isVisible() && pane.resolveButton()->isEnabled(), kTimeoutMs);
        pane.resolveButton()->setFocus();
        QTest::keyClick(pane.resolveButton(), Qt::Key_Space);
        ResolveDialog *dialog = openDialog(pane);
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space); // Recharged
        QTest::keyClicks(child<QLineEdit>(*dialog, "resolveNote"), QStringLiteral("Checked on the dashboard"));
        QTest::keyClicks(child<QLineEdit>(*dialog, "resolvePin"), QStringLiteral("246802"));
        QTest::keyClick(child<QLineEdit>(*dialog, "resolvePin"), Qt::Key_Return);

        auto *shown = child<QLabel>(*dialog, qPrintable(label));
        QTRY_VERIFY_WITH_TIMEOUT(shown->isVisible(), kTimeoutMs);
        QVERIFY2(shown->text().contains(description), qPrintable(shown->text()));
        QVERIFY(dialog->isVisible());
        QVERIFY(!dialog->isBusy());
        QCOMPARE(
            counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/transactions/83/resolve")).size(),
            1);
        QTRY_COMPARE_WITH_TIMEOUT(
            counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/users/sign-out")).size(), 1,
            kTimeoutMs);
        if (status == 409)
            shot(*dialog, "resolve-dialog-409");

        // Closed: the pane asks for the sale again (it may have changed meanwhile).
        const qsizetype gets =
            counter.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/transactions/83")).size();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(
            counter.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/transactions/83")).size() > gets,
            kTimeoutMs);
    }

    void refusedSaleShowsTheUpstreamsWords_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("meaning");
        QTest::newRow("plain refusal") << QStringLiteral("http_400") << QStringLiteral("refused the sale's details");
        QTest::newRow("forbidden") << QStringLiteral("http_403") << QStringLiteral("did not accept this shop's key");
        QTest::newRow("reason of its own") << QStringLiteral("number_barred") << QString();
    }
    void refusedSaleShowsTheUpstreamsWords()
    {
        QFETCH(QString, code);
        QFETCH(QString, meaning);
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        const QJsonObject error{
            {QStringLiteral("code"), code},
            {QStringLiteral("description"), QStringLiteral("Recharge not allowed for this number")}};
        counter.server.records = {liveSale(91, QStringLiteral("FAILED"), QStringLiteral("refused"),
                                           QDateTime::currentDateTimeUtc(), false, true, error)};
        HistoryDetailPane pane(counter.context);
        showWidget(pane, {640, 760});
        pane.setTransaction(91);
        auto *words = child<QLabel>(pane, "detailUpstreamWords");
        QTRY_VERIFY_WITH_TIMEOUT(words->isVisible(), kTimeoutMs);
        QCOMPARE(words->text(), QStringLiteral("The upstream said: “Recharge not allowed for this number”"));
        const QString state = child<QLabel>(pane, "detailUpstreamState")->text();
        if (!meaning.isEmpty())
            QVERIFY2(state.contains(meaning), qPrintable(state));
        QVERIFY(!pane.resolveButton()->isEnabled()); // FAILED: nothing to resolve
        QVERIFY(!child<QLabel>(pane, "detailAttention")->isVisible());
        // The clerk's result says them too, after any meaning.
        QVERIFY(UpstreamSaleInfo::fromRecord(decodedRecord(counter.server.records.first()))
                    .refusalText()
                    .contains(QStringLiteral("Recharge not allowed for this number")));
        if (code == QLatin1String("http_400"))
            shot(pane, "detail-refused-words");
    }

    void resolvedSaleSaysWhoWhenAndWhy()
    {
        Counter counter;
        counter.signIn(QStringLiteral("Owner"), true);
        ManualClock clock(QDateTime(QDate(2026, 11, 23), QTime(9, 0), Qt::UTC)); // 14:30 IST
        counter.context.setClock(clock);
        QJsonObject record = liveSale(92, QStringLiteral("FAILED"), QStringLiteral("settled"),
                                      QDateTime(QDate(2026, 11, 23), QTime(7, 0), Qt::UTC), false, true);
        QJsonObject upstreamPart = record.value(QStringLiteral("upstream")).toObject();
        upstreamPart.insert(QStringLiteral("resolution"),
                            QJsonObject{{QStringLiteral("by"), QStringLiteral("Asha")},
                                        {QStringLiteral("note"), QStringLiteral("Not on the aggregator's statement")},
                                        {QStringLiteral("at"), QStringLiteral("2026-11-23 14:02:00")}});
        record.insert(QStringLiteral("upstream"), upstreamPart);
        counter.server.records = {record};
        HistoryDetailPane pane(counter.context);
        showWidget(pane, {640, 760});
        pane.setTransaction(92);
        auto *resolution = child<QLabel>(pane, "detailResolution");
        QTRY_VERIFY_WITH_TIMEOUT(resolution->isVisible(), kTimeoutMs);
        QCOMPARE(resolution->text(),
                 QStringLiteral("Resolved by hand by Asha at 14:02: Not on the aggregator's statement"));
        QVERIFY(child<QLabel>(pane, "detailUpstreamState")->text().contains(QStringLiteral("Resolved by hand")));

        // Another day: the date too.
        clock.advanceMs(2 * 24 * 3600 * 1000LL);
        pane.setTransaction(92);
        QTRY_VERIFY_WITH_TIMEOUT(resolution->isVisible() && resolution->text().contains(QStringLiteral("23 Nov 2026")),
                                 kTimeoutMs);
    }
};

QTEST_MAIN(TestUiAttention)
#include "tst_ui_attention.moc"
