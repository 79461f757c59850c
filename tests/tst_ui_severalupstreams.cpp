// Issue 26 at the terminal, second part: Back office → Settings → Upstreams (the server's upstreams in the order sales
// try them, Check, Add and Edit from the keyboard, Remove), Import statement (the file sent as it is, the run's counts
// and lines, past runs), and what History and a reprinted receipt say about a reversed sale, a mismatch and the
// upstreams that refused a sale before. Against a canned server on port 0 that answers the shapes of openapi.yaml
// and records every request; a last test checks that none of these screens cuts a button at 1366×768.
#include "apiclient.h"
#include "backoffice/backofficeview.h"
#include "backoffice/historydetailpane.h"
#include "backoffice/historymodel.h"
#include "backoffice/historypage.h"
#include "backoffice/settingspage.h"
#include "backoffice/statementscard.h"
#include "backoffice/upstreamdialog.h"
#include "backoffice/upstreamspage.h"
#include "cannedapiserver.h"
#include "clock.h"
#include "entities/collection.h"
#include "entities/statementrun.h"
#include "entities/transactionsummary.h"
#include "entities/upstreaminfo.h"
#include "entities/user.h"
#include "receipts/receiptrenderer.h"
#include "recordjson.h"
#include "terminalcontext.h"
#include "terminalfixture.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QCheckBox>
#include <QFileDialog>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

namespace {

constexpr int kTimeoutMs = 10'000;

/// 2026-11-23 14:05 IST, in UTC ms: when the canned upstreams were last contacted and the canned runs made.
qint64 at1405()
{
    return QDateTime(QDate(2026, 11, 23), QTime(8, 35), Qt::UTC).toMSecsSinceEpoch();
}

/// An upstream as GET /api/v1/upstreams lists it.
UpstreamInfo upstreamInfo(const QString &name, int priority, const QString &kind, const QStringList &services = {},
                          const QStringList &operators = {}, bool enabled = true)
{
    UpstreamInfo info;
    info.name = name;
    info.priority = priority;
    info.services = services;
    info.operators = operators;
    info.enabled = enabled;
    info.configured = true;
    info.baseUrl = QStringLiteral("https://%1.example.in/api/v1").arg(name);
    info.kind = kind;
    info.credential = kind == QLatin1String("rechargedesk") ? QStringLiteral("key_pair") : QStringLiteral("opaque");
    info.keyId = kind == QLatin1String("rechargedesk") ? QStringLiteral("live_shop42") : QString();
    info.offers.idempotentReferenceId = info.offers.statusCheck = info.offers.balance =
        kind == QLatin1String("rechargedesk");
    info.state = QStringLiteral("unknown");
    info.webhookPath = name == QLatin1String("default") ? QStringLiteral("/hooks/upstream")
                                                        : QStringLiteral("/hooks/upstream/") + name;
    info.attentionAfterS = 1800;
    return info;
}

/// A statement run with its counts (and lines, for one run's answer).
StatementRun statementRun(qint64 id, const QString &upstream, const QString &fileName, const StatementCounts &counts,
                          const QList<StatementLine> &lines)
{
    StatementRun run;
    run.id = id;
    run.upstream = upstream;
    run.createdAtMs = at1405() - (10 - id) * 24 * 3600 * 1000LL;
    run.actor = QStringLiteral("user:Owner");
    run.fileName = fileName;
    run.counts = counts;
    run.linesTotal = lines.size();
    run.lines = lines;
    run.withLines = true;
    return run;
}

StatementLine line(StatementLine::Kind kind, qint64 row, const QString &reference, qint64 sale,
                   const QString &statement, const QString &held, const QString &reason, const QString &description)
{
    StatementLine l;
    l.kind = kind;
    l.row = row;
    l.referenceId = reference;
    l.transactionId = sale;
    l.statement = statement;
    l.held = held;
    l.reason = reason;
    l.description = description;
    return l;
}

/// A shop server as Settings → Upstreams and History see it for issue 26: the upstreams (GET, PUT, DELETE, check),
/// their statements (POST, the runs, one run), one record with its (empty) ledger, calls and deliveries. Every
/// request is recorded with its raw body. Anything else answers 200 with {}.
class FakeShopServer final : public CannedApiServer
{
public:
    /// By priority, as the server keeps them.
    QList<UpstreamInfo> upstreams{
        upstreamInfo(QStringLiteral("payfast"), 10, QStringLiteral("spec"),
                     {QStringLiteral("mobile"), QStringLiteral("dth")}, {QStringLiteral("AT"), QStringLiteral("VI")}),
        upstreamInfo(QStringLiteral("distributor"), 20, QStringLiteral("rechargedesk"), {}, {}, false)};
    /// The check's answer by upstream name.
    QHash<QString, UpstreamCheck> checks{
        {QStringLiteral("payfast"),
         {true, 200, 35, QStringLiteral("The upstream answered: credential accepted (plans lookup 200 in 35 ms).")}},
        {QStringLiteral("distributor"),
         {false, 0, 2000, QStringLiteral("No answer from the upstream within 2 s (connection refused).")}}};
    /// The runs, oldest first, with their lines; an import appends `nextRun` (its id and file name set then).
    QList<StatementRun> runs{statementRun(
        1, QStringLiteral("payfast"), QStringLiteral("statement-2026-11-20.csv"),
        StatementCounts{40, 38, 2, 0, 0, 36, 2, 0},
        {line(StatementLine::Kind::Unknown, 7, QStringLiteral("x-991"), 0, QStringLiteral("SUCCESS ₹99.00"), {},
              QStringLiteral("no_such_sale"), QStringLiteral("no sale of ours has this reference")),
         line(StatementLine::Kind::Unknown, 9, QStringLiteral("x-992"), 0, QStringLiteral("SUCCESS ₹149.00"), {},
              QStringLiteral("no_such_sale"), QStringLiteral("no sale of ours has this reference"))})};
    StatementRun nextRun = statementRun(
        0, QStringLiteral("payfast"), {}, StatementCounts{12, 9, 3, 1, 1, 4, 2, 1},
        {line(StatementLine::Kind::Mismatch, 4, QStringLiteral("rd-ab12cd34-85"), 85, QStringLiteral("SUCCESS ₹199.00"),
              QStringLiteral("FAILED ₹199.00"), QStringLiteral("status_differs"),
              QStringLiteral("the statement says SUCCESS, the sale is FAILED here: nothing was debited again")),
         line(StatementLine::Kind::Unknown, 9, QStringLiteral("zz-1"), 0, QStringLiteral("SUCCESS ₹10.00"), {},
              QStringLiteral("no_such_sale"), QStringLiteral("no sale of ours has this reference")),
         line(StatementLine::Kind::Unreadable, 13, {}, 0, QStringLiteral("status \"DONE?\""), {},
              QStringLiteral("unreadable_row"), QStringLiteral("the status \"DONE?\" is not a status word"))});
    QList<QJsonObject> records;

private:
    /// A BAD_REQUEST_ERROR envelope (whatever the status) naming `field` and `reason`.
    static void refuse(QHttpServerResponder &responder, QHttpServerResponder::StatusCode status, const QString &field,
                       const QString &reason, const QString &description)
    {
        fail(responder, {status, QStringLiteral("BAD_REQUEST_ERROR"), reason, field, description});
    }

    static QJsonObject collection(const QJsonArray &items)
    {
        return {{QStringLiteral("entity"), QStringLiteral("collection")},
                {QStringLiteral("count"), items.size()},
                {QStringLiteral("items"), items}};
    }

    int upstreamIndex(const QString &name) const
    {
        for (int i = 0; i < upstreams.size(); ++i) {
            if (upstreams.at(i).name == name)
                return i;
        }
        return -1;
    }

    void handle(const Request &seen, QHttpServerResponder &responder) override
    {
        const QStringList parts = seen.path.split(QLatin1Char('/'), Qt::SkipEmptyParts); // api v1 …
        if (seen.path == QLatin1String("/api/v1/transactions/summary")) {
            TransactionSummary summary;
            summary.count = records.size();
            return answer(responder, summary.toJson());
        }
        if (seen.path == QLatin1String("/api/v1/upstreams")) {
            QJsonArray items;
            for (const UpstreamInfo &info : std::as_const(upstreams))
                items.append(info.toJson());
            return answer(responder, {{QStringLiteral("items"), items}});
        }
        if (parts.size() >= 4 && parts.at(2) == QLatin1String("upstreams"))
            return upstream(seen, parts, responder);
        if (parts.size() >= 4 && parts.at(2) == QLatin1String("transactions")) {
            for (const QJsonObject &record : std::as_const(records)) {
                if (record.value(QStringLiteral("transaction_id")).toInteger() != parts.at(3).toLongLong())
                    continue;
                if (parts.size() == 4)
                    return answer(responder, record);
                return answer(responder, collection({})); // ledger, upstream-calls
            }
            return refuse(responder, QHttpServerResponder::StatusCode::NotFound, {}, QStringLiteral("not_found"),
                          QStringLiteral("no such transaction"));
        }
        if (seen.path == QLatin1String("/api/v1/transactions")) {
            QJsonArray items;
            for (const QJsonObject &record : std::as_const(records))
                items.append(record);
            return answer(responder, {{QStringLiteral("entity"), QStringLiteral("collection")},
                                      {QStringLiteral("items"), items},
                                      {QStringLiteral("count"), items.size()},
                                      {QStringLiteral("next_cursor"), QJsonValue::Null}});
        }
        if (seen.path == QLatin1String("/api/v1/webhook-deliveries"))
            return answer(responder, collection({}));
        answer(responder, {});
    }

    void upstream(const Request &seen, const QStringList &parts, QHttpServerResponder &responder)
    {
        const QString name = parts.at(3);
        const int index = upstreamIndex(name);
        if (parts.size() == 4 && seen.method == QLatin1String("PUT"))
            return put(seen, name, index, responder);
        if (index < 0)
            return refuse(responder, QHttpServerResponder::StatusCode::NotFound, {}, QStringLiteral("unknown_upstream"),
                          QStringLiteral("no upstream %1").arg(name));
        if (parts.size() == 4 && seen.method == QLatin1String("DELETE")) {
            UpstreamInfo gone = upstreams.takeAt(index);
            gone.configured = false;
            return answer(responder, gone.toJson());
        }
        if (parts.size() == 5 && parts.at(4) == QLatin1String("check")) {
            const UpstreamCheck check = checks.value(name);
            upstreams[index].state = check.ok ? QStringLiteral("online") : QStringLiteral("unreachable");
            upstreams[index].lastContactMs = at1405();
            upstreams[index].sinceMs = at1405();
            return answer(responder, check.toJson());
        }
        if (parts.size() >= 5 && parts.at(4) == QLatin1String("statements")) {
            if (parts.size() == 6) {
                for (const StatementRun &run : std::as_const(runs)) {
                    if (run.upstream == name && run.id == parts.at(5).toLongLong())
                        return answer(responder, run.toJson());
                }
                return refuse(responder, QHttpServerResponder::StatusCode::NotFound, {},
                              QStringLiteral("unknown_statement_run"), QStringLiteral("no such run"));
            }
            if (seen.method == QLatin1String("POST")) {
                StatementRun run = nextRun;
                run.id = runs.size() + 1;
                run.upstream = name;
                run.createdAtMs = at1405();
                run.fileName = seen.body.value(QStringLiteral("file_name")).toString();
                runs.append(run);
                return answer(responder, run.toJson());
            }
            Collection<StatementRun> list;
            for (auto it = runs.crbegin(); it != runs.crend(); ++it) {
                if (it->upstream != name)
                    continue;
                StatementRun listed = *it;
                listed.withLines = false;
                listed.lines.clear();
                list.items.append(listed);
            }
            return answer(responder, list.toJson());
        }
        answer(responder, {});
    }

    void put(const Request &seen, const QString &name, int index, QHttpServerResponder &responder)
    {
        const QJsonObject &body = seen.body;
        const QString url = body.value(QStringLiteral("base_url")).toString();
        if (!url.startsWith(QLatin1String("https://")) || !url.endsWith(QLatin1String("/api/v1")))
            return refuse(responder, QHttpServerResponder::StatusCode::BadRequest, QStringLiteral("base_url"),
                          QStringLiteral("invalid_url"),
                          QStringLiteral("base_url must be an https URL ending in /api/v1"));
        const bool opaque = body.contains(QStringLiteral("credential"));
        UpstreamInfo info = upstreamInfo(name, body.value(QStringLiteral("priority")).toInt(100),
                                         opaque ? QStringLiteral("spec") : QStringLiteral("rechargedesk"));
        info.baseUrl = url;
        for (const QJsonValue &service : body.value(QStringLiteral("services")).toArray())
            info.services << service.toString();
        for (const QJsonValue &code : body.value(QStringLiteral("operators")).toArray())
            info.operators << code.toString();
        info.enabled = body.value(QStringLiteral("enabled")).toBool(true);
        info.keyId = body.value(QStringLiteral("key_id")).toString();
        if (index >= 0)
            upstreams[index] = info;
        else
            upstreams.append(info);
        std::stable_sort(upstreams.begin(), upstreams.end(),
                         [](const UpstreamInfo &a, const UpstreamInfo &b) { return a.priority < b.priority; });
        answer(responder, info.toJson());
    }
};

/// The client and context of a counter with a live key, its admin "Owner" signed in.
struct Counter
{
    explicit Counter(const QString &keyId = QStringLiteral("live_counter1"))
        : api(server.baseUrl(), keyId, QStringLiteral("secret")),
          context(api, dir.filePath(QStringLiteral("prefs.ini")))
    {
        context.setShop(QStringLiteral("Sharma Mobile Point"), QStringLiteral("12 Station Road, Jaipur"));
        api.setSessionToken(QStringLiteral("counter-session-Owner"));
        context.setUser(SignedInUser{1, QStringLiteral("Owner"), true, QStringLiteral("counter-session-Owner")});
    }
    QTemporaryDir dir;
    FakeShopServer server;
    ApiClient api;
    TerminalContext context;
};

/// A live sale's record whose upstream part has `extra` (reversal, mismatch, tried, …) over the plain one.
QJsonObject liveSale(qint64 id, const QString &status, const QJsonObject &extra)
{
    QJsonObject upstream{{QStringLiteral("state"), QStringLiteral("settled")},
                         {QStringLiteral("upstream"), QStringLiteral("payfast")},
                         {QStringLiteral("tried"), QJsonArray()},
                         {QStringLiteral("reference_id"), QStringLiteral("rd-ab12cd34-%1").arg(id)},
                         {QStringLiteral("transaction_id"), 7700 + id},
                         {QStringLiteral("attempts"), 1},
                         {QStringLiteral("error"), QJsonValue::Null},
                         {QStringLiteral("attention"), false},
                         {QStringLiteral("send_once"), true},
                         {QStringLiteral("resolution"), QJsonValue::Null},
                         {QStringLiteral("reversal"), QJsonValue::Null},
                         {QStringLiteral("mismatch"), QJsonValue::Null}};
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        upstream.insert(it.key(), it.value());
    return {{QStringLiteral("entity"), QStringLiteral("mobile_recharge")},
            {QStringLiteral("transaction_id"), id},
            {QStringLiteral("operator"), QStringLiteral("Airtel")},
            {QStringLiteral("type"), QStringLiteral("MOBILE")},
            {QStringLiteral("number"), QStringLiteral("9876543210")},
            {QStringLiteral("bill_amount"), QStringLiteral("₹199.00")},
            {QStringLiteral("discount"), QStringLiteral("₹5.47")},
            {QStringLiteral("paid"), QStringLiteral("₹193.53")},
            {QStringLiteral("transaction_status"), status},
            {QStringLiteral("datetime"), QStringLiteral("2026-11-23 11:02:00")},
            {QStringLiteral("reference_id"), QStringLiteral("counter-%1").arg(id)},
            {QStringLiteral("upstream"), upstream}};
}

/// Sale 85: sold at 11:02, reversed by the operator by the upstream's statement at 14:05 (IST), 23 Nov 2026.
QJsonObject reversedSale()
{
    QJsonObject sale = liveSale(
        85, QStringLiteral("FAILED"),
        {{QStringLiteral("reversal"), QJsonObject{{QStringLiteral("source"), QStringLiteral("statement")},
                                                  {QStringLiteral("at"), QStringLiteral("2026-11-23 14:05:00")}}}});
    sale.insert(QStringLiteral("failed_after_pending"), true); // as the server marks a reversal (issue 27)
    return sale;
}

/// Sale 86: FAILED here, reported SUCCESS by the upstream's webhook at 14:07; it went to backup after payfast refused.
QJsonObject mismatchedSale()
{
    return liveSale(
        86, QStringLiteral("FAILED"),
        {{QStringLiteral("upstream"), QStringLiteral("backup")},
         {QStringLiteral("mismatch"), QJsonObject{{QStringLiteral("reported"), QStringLiteral("SUCCESS")},
                                                  {QStringLiteral("source"), QStringLiteral("webhook")},
                                                  {QStringLiteral("at"), QStringLiteral("2026-11-23 14:07:00")}}},
         {QStringLiteral("tried"),
          QJsonArray{QJsonObject{
              {QStringLiteral("upstream"), QStringLiteral("payfast")},
              {QStringLiteral("reference_id"), QStringLiteral("rd-ab12cd34-86")},
              {QStringLiteral("outcome"), QStringLiteral("refused")},
              {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), QStringLiteral("http_400")},
                                                    {QStringLiteral("description"),
                                                     QStringLiteral("Recharge not allowed for this number")}}}}}}});
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

/// Presses Alt+`key` where the keyboard focus is (or on `window` when nothing has it): a mnemonic, as a person does.
void altKey(QWidget &window, Qt::Key key)
{
    QWidget *target = QApplication::focusWidget() ? QApplication::focusWidget() : &window;
    QTest::keyClick(target, key, Qt::AltModifier);
}

/// The visible widget of type T named `name` under `parent` (a dialog is a child of the screen that opened it), once
/// it shows; made the active window when it is one and `activate` (a file dialog is not: its file name field would
/// have the focus, and QFileDialog::selectFile() leaves a focused field as it is). nullptr after 10 s.
template <class T> T *waitFor(QWidget &parent, const char *name, bool activate = true)
{
    T *found = nullptr;
    const bool shown = QTest::qWaitFor(
        [&] {
            found = parent.findChild<T *>(QLatin1String(name));
            return found && found->isVisible();
        },
        kTimeoutMs);
    if (!shown)
        return nullptr;
    if (found->isWindow() && activate) {
        QApplication::setActiveWindow(found);
        if (!QTest::qWaitForWindowActive(found))
            return nullptr;
    }
    return found;
}

/// Settings shown at 1366×768 with the Upstreams section opened from the keyboard (Alt+U) and its list loaded.
bool openUpstreams(SettingsPage &page, int rows)
{
    altKey(page, Qt::Key_U);
    if (page.section() != SettingsPage::Section::Upstreams)
        return false;
    return QTest::qWaitFor([&] { return page.upstreams()->table()->rowCount() == rows; }, kTimeoutMs);
}

QString cell(const QTableWidget &table, int row, int column)
{
    const QTableWidgetItem *item = table.item(row, column);
    return item ? item->text() : QString();
}

/// The visible buttons (push, check and radio) under `root` that are cut: smaller than they need, or not wholly
/// inside a parent (a scroll area's content scrolls, so its viewport does not count). "name: why" each; `*checked`
/// counts the buttons looked at.
QStringList clippedButtons(QWidget &root, int *checked)
{
    QStringList found;
    for (QAbstractButton *button : root.findChildren<QAbstractButton *>()) {
        if (!button->isVisibleTo(&root) || button->objectName().startsWith(QLatin1String("qt_")) ||
            button->window() != root.window())
            continue;
        ++*checked;
        const QString name = button->objectName().isEmpty() ? button->text() : button->objectName();
        const QSize needed = button->minimumSizeHint();
        if (button->width() < needed.width() || button->height() < needed.height())
            found << QStringLiteral("%1: %2x%3 of %4x%5")
                         .arg(name)
                         .arg(button->width())
                         .arg(button->height())
                         .arg(needed.width())
                         .arg(needed.height());
        QRect rect = button->rect();
        for (QWidget *child = button; child != &root && child->parentWidget();) {
            QWidget *parent = child->parentWidget();
            rect.translate(child->pos());
            const auto *area =
                parent->parentWidget() ? qobject_cast<QAbstractScrollArea *>(parent->parentWidget()) : nullptr;
            if (area && area->viewport() == parent)
                break; // scrolled into view as the focus reaches it
            if (!parent->rect().contains(rect)) {
                found << QStringLiteral("%1: cut by %2 (%3)")
                             .arg(name, QLatin1String(parent->metaObject()->className()), parent->objectName());
                break;
            }
            child = parent;
        }
    }
    return found;
}

} // namespace

class TestUiSeveralUpstreams final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(applyTerminalStyle()); }

    void listShowsTheUpstreamsInOrderAndChecksOne()
    {
        Counter counter;
        SettingsPage page(counter.context);
        showWidget(page);
        QVERIFY(openUpstreams(page, 2));
        UpstreamsPage *upstreams = page.upstreams();
        QTableWidget *table = upstreams->table();
        QAbstractItemModelTester tester(table->model());
        QCOMPARE(counter.server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/upstreams")).size(), 1);

        // In the order sales try them, with what each promises and sells.
        QCOMPARE(cell(*table, 0, UpstreamsPage::PriorityColumn), QStringLiteral("10"));
        QCOMPARE(cell(*table, 0, UpstreamsPage::NameColumn), QStringLiteral("payfast"));
        QCOMPARE(cell(*table, 0, UpstreamsPage::KindColumn),
                 QStringLiteral("Promises the spec only — sends each sale once"));
        QCOMPARE(cell(*table, 0, UpstreamsPage::SellsColumn), QStringLiteral("Mobile, DTH · AT, VI"));
        QCOMPARE(cell(*table, 0, UpstreamsPage::EnabledColumn), QStringLiteral("Yes"));
        QCOMPARE(cell(*table, 0, UpstreamsPage::HealthColumn), QStringLiteral("Not contacted yet"));
        QCOMPARE(cell(*table, 0, UpstreamsPage::WebhookColumn), QStringLiteral("/hooks/upstream/payfast"));
        QCOMPARE(cell(*table, 1, UpstreamsPage::NameColumn), QStringLiteral("distributor"));
        QCOMPARE(cell(*table, 1, UpstreamsPage::KindColumn), QStringLiteral("RechargeDesk"));
        QCOMPARE(cell(*table, 1, UpstreamsPage::SellsColumn), QStringLiteral("All services · all operators"));
        QCOMPARE(cell(*table, 1, UpstreamsPage::EnabledColumn), QStringLiteral("No — skipped"));

        // The first is selected: its state, what its kind means and the whole address of its webhooks.
        QVERIFY(upstreams->selected());
        QCOMPARE(upstreams->selected()->name, QStringLiteral("payfast"));
        auto *webhook = child<QLabel>(page, "upstreamWebhookUrl");
        QVERIFY2(
            webhook->text().contains(counter.server.baseUrl().toString() + QStringLiteral("/hooks/upstream/payfast")),
            qPrintable(webhook->text()));
        QVERIFY(child<QLabel>(page, "upstreamKindText")->text().contains(QStringLiteral("sent to it once")));
        QVERIFY(
            child<QLabel>(page, "upstreamState")->text().contains(QStringLiteral("https://payfast.example.in/api/v1")));
        shot(page, "upstreams-list");

        // Check (Alt+H): its message as it comes, and the health it left.
        table->setFocus();
        altKey(page, Qt::Key_H);
        auto *result = child<QLabel>(page, "upstreamCheckResult");
        QTRY_VERIFY_WITH_TIMEOUT(result->property("ok").isValid(), kTimeoutMs);
        QCOMPARE(result->text(),
                 QStringLiteral("payfast: The upstream answered: credential accepted (plans lookup 200 in 35 ms)."));
        QCOMPARE(result->property("ok").toBool(), true);
        QCOMPARE(
            counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/upstreams/payfast/check")).size(),
            1);
        QTRY_COMPARE_WITH_TIMEOUT(cell(*table, 0, UpstreamsPage::HealthColumn),
                                  QStringLiteral("Online · last contact 14:05"), kTimeoutMs);
        QCOMPARE(upstreams->selected()->name, QStringLiteral("payfast")); // still the one checked

        // The second, reached with the arrow key: its check fails, in its words.
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Down);
        QCOMPARE(upstreams->selected()->name, QStringLiteral("distributor"));
        QVERIFY(child<QLabel>(page, "upstreamState")->text().contains(QStringLiteral("Disabled")));
        altKey(page, Qt::Key_H);
        QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QStringLiteral("distributor: No answer")), kTimeoutMs);
        QCOMPARE(result->property("ok").toBool(), false);
        QTRY_COMPARE_WITH_TIMEOUT(cell(*table, 1, UpstreamsPage::HealthColumn),
                                  QStringLiteral("Unreachable since 14:05"), kTimeoutMs);
        shot(page, "upstreams-checked");
    }

    void addTypedFromTheKeyboardSendsOnePut()
    {
        Counter counter;
        SettingsPage page(counter.context);
        showWidget(page);
        QVERIFY(openUpstreams(page, 2));

        // Alt+A: a new upstream, its priority after the last one, a dashboard credential, enabled.
        altKey(page, Qt::Key_A);
        auto *dialog = waitFor<UpstreamDialog>(page, "upstreamDialog");
        QVERIFY(dialog);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(*dialog, "upstreamName"));
        QCOMPARE(child<QSpinBox>(*dialog, "upstreamPriority")->value(), 30);
        QVERIFY(child<QRadioButton>(*dialog, "upstreamOpaque")->isChecked());
        QVERIFY(!child<QLineEdit>(*dialog, "upstreamKeyId")->isVisible());
        QVERIFY(child<QCheckBox>(*dialog, "upstreamEnabled")->isChecked());

        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("backup 2")); // the name takes a-z0-9_- only
        QCOMPARE(child<QLineEdit>(*dialog, "upstreamName")->text(), QStringLiteral("backup2"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(*dialog, "upstreamBaseUrl"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("https://backup.example.in/api/v1"));
        altKey(*dialog, Qt::Key_R); // C&redential
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(*dialog, "upstreamCredential"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("  pk_live_7Hq2xZ9  "));
        altKey(*dialog, Qt::Key_W); // &Webhook password
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("hook-s3cret"));
        altKey(*dialog, Qt::Key_P); // &Priority
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("15"));
        // Tab to the services (Mobile, DTH), then past the others to the first operators (Airtel, Vi).
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QCheckBox>(*dialog, "service_mobile"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QCheckBox>(*dialog, "operator_AT"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QVERIFY(child<QCheckBox>(*dialog, "operator_VI")->isChecked());
        shot(*dialog, "upstream-dialog-add");
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);

        // Exactly this body, once, to the name typed.
        QTRY_VERIFY_WITH_TIMEOUT(!page.findChild<UpstreamDialog *>(), kTimeoutMs);
        const auto puts = counter.server.requests(QStringLiteral("PUT"), QStringLiteral("/api/v1/upstreams/backup2"));
        QCOMPARE(puts.size(), 1);
        QCOMPARE(puts.first().body,
                 (QJsonObject{{QStringLiteral("base_url"), QStringLiteral("https://backup.example.in/api/v1")},
                              {QStringLiteral("credential"), QStringLiteral("pk_live_7Hq2xZ9")},
                              {QStringLiteral("webhook_password"), QStringLiteral("hook-s3cret")},
                              {QStringLiteral("priority"), 15},
                              {QStringLiteral("services"), QJsonArray{QStringLiteral("mobile"), QStringLiteral("dth")}},
                              {QStringLiteral("operators"), QJsonArray{QStringLiteral("AT"), QStringLiteral("VI")}},
                              {QStringLiteral("enabled"), true}}));

        // The list again: the new one between the two, selected, and said so.
        QTableWidget *table = page.upstreams()->table();
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 3, kTimeoutMs);
        QCOMPARE(cell(*table, 1, UpstreamsPage::NameColumn), QStringLiteral("backup2"));
        QTRY_VERIFY_WITH_TIMEOUT(
            page.upstreams()->selected() && page.upstreams()->selected()->name == QLatin1String("backup2"), kTimeoutMs);
        auto *notice = child<QLabel>(page, "upstreamNotice");
        QVERIFY(notice->isVisible());
        QVERIFY2(notice->text().startsWith(QStringLiteral("Added backup2 (Promises the spec only")),
                 qPrintable(notice->text()));
        QCOMPARE(page.focusWidget(), table); // back in the list when the dialog closed
    }

    void editAsksForTheSecretsAgain()
    {
        Counter counter;
        SettingsPage page(counter.context);
        showWidget(page);
        QVERIFY(openUpstreams(page, 2));
        QTableWidget *table = page.upstreams()->table();

        // Enter on the selected row edits it: its name fixed, its settings filled in.
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Return);
        auto *dialog = waitFor<UpstreamDialog>(page, "upstreamDialog");
        QVERIFY(dialog);
        QCOMPARE(dialog->name(), QStringLiteral("payfast"));
        QVERIFY(child<QLineEdit>(*dialog, "upstreamName")->isReadOnly());
        QCOMPARE(child<QLineEdit>(*dialog, "upstreamBaseUrl")->text(),
                 QStringLiteral("https://payfast.example.in/api/v1"));
        QCOMPARE(child<QSpinBox>(*dialog, "upstreamPriority")->value(), 10);
        QVERIFY(child<QCheckBox>(*dialog, "service_dth")->isChecked());
        QVERIFY(!child<QCheckBox>(*dialog, "service_voucher")->isChecked());
        QVERIFY(child<QCheckBox>(*dialog, "operator_VI")->isChecked());

        // Enter at once: the credential is asked for at its field, nothing sent.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        auto *credentialError = child<QLabel>(*dialog, "upstreamError_credential");
        QVERIFY(credentialError->isVisible());
        QCOMPARE(QApplication::focusWidget(), child<QLineEdit>(*dialog, "upstreamCredential"));

        // From file… (Alt+F): the file's credential, trimmed.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("payfast.credential"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("pk_live_FROMFILE42\n");
        file.close();
        altKey(*dialog, Qt::Key_F);
        auto *chooser = waitFor<QFileDialog>(*dialog, "credentialFileDialog", false);
        QVERIFY(chooser);
        chooser->selectFile(path);
        static_cast<QDialog *>(chooser)->accept();
        QTRY_COMPARE_WITH_TIMEOUT(child<QLineEdit>(*dialog, "upstreamCredential")->text(),
                                  QStringLiteral("pk_live_FROMFILE42"), kTimeoutMs);
        QApplication::setActiveWindow(dialog);
        QVERIFY(QTest::qWaitForWindowActive(dialog));

        // No webhook password: said once at its field; Enter again saves without it.
        QTest::keyClick(child<QLineEdit>(*dialog, "upstreamCredential"), Qt::Key_Return);
        auto *passwordError = child<QLabel>(*dialog, "upstreamError_webhook_password");
        QVERIFY(passwordError->isVisible());
        QVERIFY2(passwordError->text().contains(QStringLiteral("webhooks are refused")),
                 qPrintable(passwordError->text()));
        QVERIFY(counter.server.requests(QStringLiteral("PUT"), QStringLiteral("/api/v1/upstreams/payfast")).isEmpty());
        shot(*dialog, "upstream-dialog-edit-no-password");
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!page.findChild<UpstreamDialog *>(), kTimeoutMs);
        const auto puts = counter.server.requests(QStringLiteral("PUT"), QStringLiteral("/api/v1/upstreams/payfast"));
        QCOMPARE(puts.size(), 1);
        QCOMPARE(puts.first().body.value(QStringLiteral("credential")).toString(),
                 QStringLiteral("pk_live_FROMFILE42"));
        QVERIFY(!puts.first().body.contains(QStringLiteral("webhook_password")));
        QCOMPARE(puts.first().body.value(QStringLiteral("operators")).toArray(),
                 (QJsonArray{QStringLiteral("AT"), QStringLiteral("VI")}));
        QVERIFY(child<QLabel>(page, "upstreamNotice")->text().startsWith(QStringLiteral("Saved payfast")));
    }

    void serverRefusalShowsAtItsField()
    {
        Counter counter;
        SettingsPage page(counter.context);
        showWidget(page);
        QVERIFY(openUpstreams(page, 2));
        altKey(page, Qt::Key_A);
        auto *dialog = waitFor<UpstreamDialog>(page, "upstreamDialog");
        QVERIFY(dialog);
        QTest::keyClicks(child<QLineEdit>(*dialog, "upstreamName"), QStringLiteral("backup"));
        QTest::keyClicks(child<QLineEdit>(*dialog, "upstreamBaseUrl"), QStringLiteral("http://backup.example.in/v2"));
        QTest::keyClicks(child<QLineEdit>(*dialog, "upstreamCredential"), QStringLiteral("pk_live_1"));
        QTest::keyClicks(child<QLineEdit>(*dialog, "upstreamWebhookPassword"), QStringLiteral("hook"));
        QTest::keyClick(child<QLineEdit>(*dialog, "upstreamWebhookPassword"), Qt::Key_Return);
        auto *urlError = child<QLabel>(*dialog, "upstreamError_base_url");
        QTRY_VERIFY_WITH_TIMEOUT(urlError->isVisible(), kTimeoutMs);
        QVERIFY2(urlError->text().contains(QStringLiteral("/api/v1")), qPrintable(urlError->text()));
        QVERIFY(dialog->isVisible());
        QVERIFY(!dialog->isBusy());
        QCOMPARE(counter.server.requests(QStringLiteral("PUT"), QStringLiteral("/api/v1/upstreams/backup")).size(), 1);
        QCOMPARE(counter.server.upstreams.size(), 2);
        // Esc closes it; nothing else is sent.
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!page.findChild<UpstreamDialog *>(), kTimeoutMs);
    }

    void removeAfterConfirming()
    {
        Counter counter;
        SettingsPage page(counter.context);
        showWidget(page);
        QVERIFY(openUpstreams(page, 2));
        QTableWidget *table = page.upstreams()->table();
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Down);
        QCOMPARE(page.upstreams()->selected()->name, QStringLiteral("distributor"));

        // Delete asks first; Esc keeps it.
        QTest::keyClick(table, Qt::Key_Delete);
        QPointer<QMessageBox> box = waitFor<QMessageBox>(page, "confirmBox");
        QVERIFY(box);
        QVERIFY(box->text().contains(QStringLiteral("distributor")));
        QTest::keyClick(box, Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!box, kTimeoutMs); // closed (and gone)
        QVERIFY(counter.server.requests(QStringLiteral("DELETE"), QStringLiteral("/api/v1/upstreams/distributor"))
                    .isEmpty());

        // Re&move… (Alt+M), confirmed: removed once, the list follows.
        page.activateWindow();
        QApplication::setActiveWindow(&page);
        QTRY_VERIFY_WITH_TIMEOUT(page.isActiveWindow(), kTimeoutMs);
        table->setFocus();
        altKey(page, Qt::Key_M);
        QVERIFY(pressConfirm(page));
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 1, kTimeoutMs);
        QCOMPARE(
            counter.server.requests(QStringLiteral("DELETE"), QStringLiteral("/api/v1/upstreams/distributor")).size(),
            1);
        QCOMPARE(cell(*table, 0, UpstreamsPage::NameColumn), QStringLiteral("payfast"));
        QCOMPARE(child<QLabel>(page, "upstreamNotice")->text(), QStringLiteral("Removed distributor."));
    }

    void testModeListsOnly()
    {
        // A test key: the upstreams are live, so the page lists them and changes nothing.
        Counter counter(QStringLiteral("test_counter1"));
        SettingsPage page(counter.context);
        showWidget(page);
        QVERIFY(openUpstreams(page, 2));
        QVERIFY(child<QLabel>(page, "upstreamsLiveOnly")->isVisible());
        for (const char *name : {"addUpstreamButton", "editUpstreamButton", "checkUpstreamButton",
                                 "removeUpstreamButton", "importStatementButton"})
            QVERIFY2(!child<QPushButton>(page, name)->isEnabled(), name);
    }

    void importStatementSendsTheFileAndShowsTheRun()
    {
        Counter counter;
        SettingsPage page(counter.context);
        showWidget(page);
        QVERIFY(openUpstreams(page, 2));
        StatementsCard *card = page.upstreams()->statements();
        QCOMPARE(card->upstream(), QStringLiteral("payfast")); // the upstream selected in the list
        QTRY_COMPARE_WITH_TIMEOUT(card->runsTable()->rowCount(), 1, kTimeoutMs);
        QSignalSpy salesChanged(&counter.context, &TerminalContext::salesChanged);

        // A statement as a dashboard exports it: a byte order mark, CRLF, quotes, a rupee sign.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("payfast-2026-11-23.csv"));
        const QByteArray bytes = "\xEF\xBB\xBFReference ID,Txn Status,Amount,Date\r\n"
                                 "rd-ab12cd34-85,FAILED,\"₹199.00\",2026-11-23 14:00\r\n"
                                 "rd-ab12cd34-86,SUCCESS,\"₹199.00\",2026-11-23 14:01\r\n";
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();

        // Alt+I: the file dialog; the file chosen is sent as it is, once.
        altKey(page, Qt::Key_I);
        auto *chooser = waitFor<QFileDialog>(page, "statementFileDialog", false);
        QVERIFY(chooser);
        chooser->selectFile(path);
        static_cast<QDialog *>(chooser)->accept();
        const QString route = QStringLiteral("/api/v1/upstreams/payfast/statements");
        QTRY_COMPARE_WITH_TIMEOUT(counter.server.requests(QStringLiteral("POST"), route).size(), 1, kTimeoutMs);
        const auto posts = counter.server.requests(QStringLiteral("POST"), route);
        QCOMPARE(posts.first().body,
                 (QJsonObject{{QStringLiteral("file_name"), QStringLiteral("payfast-2026-11-23.csv")},
                              {QStringLiteral("csv"), QString::fromUtf8(bytes)}}));

        // The run: its counts and its lines for a person.
        QTRY_VERIFY_WITH_TIMEOUT(card->run() && card->run()->fileName == QLatin1String("payfast-2026-11-23.csv"),
                                 kTimeoutMs);
        const std::pair<const char *, const char *> counts[] = {
            {"rows", "12"},      {"matched", "9"},   {"settled", "3"}, {"reversed", "1"},
            {"mismatched", "1"}, {"unchanged", "4"}, {"unknown", "2"}, {"unreadable", "1"}};
        for (const auto &[name, value] : counts)
            QCOMPARE(
                child<QLabel>(page, qPrintable(QStringLiteral("statementCount_%1").arg(QLatin1String(name))))->text(),
                QLatin1String(value));
        QTableWidget *lines = card->linesTable();
        QCOMPARE(lines->rowCount(), 3);
        QCOMPARE(cell(*lines, 0, 1), QStringLiteral("Differs from our sale"));
        QCOMPARE(cell(*lines, 0, 3), QStringLiteral("85"));
        QCOMPARE(cell(*lines, 0, 4), QStringLiteral("SUCCESS ₹199.00"));
        QCOMPARE(cell(*lines, 0, 5), QStringLiteral("FAILED ₹199.00"));
        QCOMPARE(cell(*lines, 1, 1), QStringLiteral("No sale of ours"));
        QCOMPARE(cell(*lines, 1, 3), QStringLiteral("—"));
        QCOMPARE(cell(*lines, 2, 1), QStringLiteral("Unreadable row"));
        QVERIFY(child<QLabel>(page, "statementRunTitle")->text().startsWith(QStringLiteral("payfast-2026-11-23.csv")));
        auto *notice = child<QLabel>(page, "statementNotice");
        QVERIFY2(notice->text().contains(QStringLiteral("settled 3, reversed 1")), qPrintable(notice->text()));
        QCOMPARE(salesChanged.count(), 1);               // money moved: the wallet and the history follow
        QCOMPARE(page.focusWidget(), card->runsTable()); // the keyboard goes on in the runs
        // Brought into view: the run's title and its lines.
        auto *area = page.upstreams()->findChild<QScrollArea *>();
        for (const char *name : {"statementRunTitle", "statementLinesTable"}) {
            const QRect shown(child<QWidget>(page, name)->mapTo(area->widget(), QPoint(0, 0)),
                              child<QWidget>(page, name)->size());
            const QRect viewport(0, area->verticalScrollBar()->value(), area->viewport()->width(),
                                 area->viewport()->height());
            QVERIFY2(viewport.contains(shown), name);
        }

        // The past runs, newest first, the new one selected.
        QTableWidget *runs = card->runsTable();
        QTRY_COMPARE_WITH_TIMEOUT(runs->rowCount(), 2, kTimeoutMs);
        QCOMPARE(cell(*runs, 0, 1), QStringLiteral("payfast-2026-11-23.csv"));
        QCOMPARE(cell(*runs, 0, 2), QStringLiteral("Owner"));
        QCOMPARE(cell(*runs, 0, 5), QStringLiteral("3"));
        QCOMPARE(runs->currentRow(), 0);
        shot(page, "upstreams-statement-imported");

        // The older run, opened from the keyboard: its own counts and lines.
        runs->setFocus();
        QTest::keyClick(runs, Qt::Key_Down);
        QTRY_VERIFY_WITH_TIMEOUT(card->run() && card->run()->id == 1, kTimeoutMs);
        QCOMPARE(counter.server.requests(QStringLiteral("GET"), route + QStringLiteral("/1")).size(), 1);
        QCOMPARE(child<QLabel>(page, "statementCount_rows")->text(), QStringLiteral("40"));
        QCOMPARE(lines->rowCount(), 2);
        QCOMPARE(cell(*lines, 0, 2), QStringLiteral("x-991"));
    }

    void importRefusesWhatCannotBeSent()
    {
        Counter counter;
        SettingsPage page(counter.context);
        showWidget(page);
        QVERIFY(openUpstreams(page, 2));
        StatementsCard *card = page.upstreams()->statements();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("latin1.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Reference,Status\r\nrd-1,Succ\xE8s\r\n"); // not UTF-8
        file.close();
        card->importFile(path);
        auto *error = child<QLabel>(page, "statementError");
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("not UTF-8")), qPrintable(error->text()));
        QVERIFY(counter.server.requests(QStringLiteral("POST"), QStringLiteral("/api/v1/upstreams/payfast/statements"))
                    .isEmpty());
    }

    void reversedSaleSaysSoInHistoryAndOnItsReceipt()
    {
        Counter counter;
        ManualClock clock(QDateTime(QDate(2026, 11, 23), QTime(10, 30), Qt::UTC)); // 16:00 IST, the same day
        counter.context.setClock(clock);
        counter.server.records = {reversedSale()};
        HistoryPage page(counter.context);
        showWidget(page);
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() == 1, kTimeoutMs);

        // The row: FAILED · reversed, and when in its tooltip.
        const QModelIndex status = page.model()->index(0, HistoryModel::StatusColumn);
        QCOMPARE(status.data().toString(), QStringLiteral("FAILED · reversed"));
        QVERIFY2(
            status.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Reversed by the operator at 14:05")),
            qPrintable(status.data(Qt::ToolTipRole).toString()));

        // The pane: when, how and the refund.
        auto *table = child<QTableView>(page, "historyTable");
        table->setFocus();
        table->selectRow(0);
        HistoryDetailPane *pane = page.detailPane();
        auto *reversal = child<QLabel>(*pane, "detailReversal");
        QTRY_VERIFY_WITH_TIMEOUT(reversal->isVisible(), kTimeoutMs);
        QCOMPARE(reversal->text(),
                 QStringLiteral("Reversed by the operator at 14:05.\nThe upstream's statement reports FAILED for this "
                                "sale after it had reported SUCCESS: the sale is FAILED now and ₹193.53 went back to "
                                "the wallet once."));
        QVERIFY(
            child<QLabel>(*pane, "detailUpstreamState")->text().contains(QStringLiteral("Reversed by the operator")));
        QVERIFY(!child<QLabel>(*pane, "detailMismatch")->isVisible());
        QVERIFY(!pane->resolveButton()->isEnabled());
        shot(page, "history-reversed");

        // The reprinted receipt says it under the status.
        const auto texts = [](const ReceiptData &data) {
            QStringList out;
            for (const ReceiptBlock &block : ReceiptRenderer::blocks(data, true))
                out << block.text;
            return out;
        };
        QStringList receipt = texts(pane->receiptData());
        QVERIFY2(receipt.contains(QStringLiteral("Reversed by the operator at 14:05")), qPrintable(receipt.join(u'|')));
        // The customer had paid for a sale shown SUCCESS: the money goes back (issue 27).
        QVERIFY2(receipt.contains(QStringLiteral("Not recharged — money back")), qPrintable(receipt.join(u'|')));
        QVERIFY(receipt.indexOf(QStringLiteral("Reversed by the operator at 14:05")) >
                receipt.indexOf(QStringLiteral("Status")));
        if (const QString dir = qEnvironmentVariable("RECHARGEDESK_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(ReceiptRenderer()
                        .toImage(pane->receiptData(), ReceiptWidth::Mm58, true, 6)
                        .save(dir + QStringLiteral("/receipt-reversed.png")));

        // Two days later: the date too, in the pane, the row and on the receipt.
        clock.advanceMs(2 * 24 * 3600 * 1000LL);
        pane->setTransaction(85);
        QTRY_VERIFY_WITH_TIMEOUT(reversal->isVisible() && reversal->text().startsWith(QStringLiteral(
                                                              "Reversed by the operator at 23 Nov 2026, 14:05")),
                                 kTimeoutMs);
        receipt = texts(pane->receiptData());
        QVERIFY(receipt.contains(QStringLiteral("Reversed by the operator at 23 Nov 2026, 14:05")));
        QVERIFY(status.data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("Reversed by the operator at 23 Nov 2026")));
    }

    void mismatchIsAWarningForAPersonWithTheUpstreamsTriedBefore()
    {
        Counter counter;
        ManualClock clock(QDateTime(QDate(2026, 11, 23), QTime(10, 30), Qt::UTC));
        counter.context.setClock(clock);
        counter.server.records = {mismatchedSale()};
        HistoryPage page(counter.context);
        showWidget(page);
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading() && page.model()->rowCount() == 1, kTimeoutMs);
        const QModelIndex status = page.model()->index(0, HistoryModel::StatusColumn);
        QCOMPARE(status.data().toString(), QStringLiteral("FAILED"));
        QVERIFY(status.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("The upstream reports SUCCESS")));

        auto *table = child<QTableView>(page, "historyTable");
        table->selectRow(0);
        HistoryDetailPane *pane = page.detailPane();
        auto *mismatch = child<QLabel>(*pane, "detailMismatch");
        QTRY_VERIFY_WITH_TIMEOUT(mismatch->isVisible(), kTimeoutMs);
        QCOMPARE(mismatch->text(), QStringLiteral("The upstream reports SUCCESS for this sale, held FAILED here: check "
                                                  "with the upstream; nothing was debited again. Its webhook said so "
                                                  "at 14:07."));
        QCOMPARE(mismatch->property("look").toString(), QStringLiteral("attentionNote"));
        QVERIFY(!child<QLabel>(*pane, "detailReversal")->isVisible());

        // The upstream that refused it first, with its words.
        auto *tried = child<QLabel>(*pane, "detailUpstreamTried");
        QVERIFY(tried->isVisible());
        QCOMPARE(tried->text(),
                 QStringLiteral("Tried before, then sent on to backup:\npayfast refused it: “Recharge not "
                                "allowed for this number”"));
        shot(page, "history-mismatch");
    }

    void ctrlTabLeavesTheNewTables()
    {
        // The lists take Tab out of them and leave Ctrl+Tab to the back office's tabs (Settings is the last: the
        // first, History, comes next).
        Counter counter;
        BackOfficeView view(counter.context);
        showWidget(view);
        view.setCurrentWidget(view.settingsPage());
        QVERIFY(openUpstreams(*view.settingsPage(), 2));
        StatementsCard *card = view.settingsPage()->upstreams()->statements();
        QTRY_COMPARE_WITH_TIMEOUT(card->runsTable()->rowCount(), 1, kTimeoutMs);
        for (QTableWidget *table : {view.settingsPage()->upstreams()->table(), card->runsTable()}) {
            view.setCurrentWidget(view.settingsPage());
            table->setFocus();
            QTest::keyClick(table, Qt::Key_Tab, Qt::ControlModifier);
            QCOMPARE(view.currentWidget(), view.historyPage());
        }
    }

    void newScreensCutNoButton_data()
    {
        QTest::addColumn<bool>("kiosk");
        QTest::newRow("desktop 1366x768") << false;
        QTest::newRow("kiosk 1366x768") << true;
    }
    void newScreensCutNoButton()
    {
        // The terminal's frame at 1366×768 around the back office: its navigation column (260 px in the kiosk, 210
        // on the desktop) and a status bar (about 40 px).
        QFETCH(bool, kiosk);
        Counter counter;
        counter.server.records = {reversedSale(), mismatchedSale()};
        QWidget frame;
        frame.setProperty("kiosk", kiosk);
        auto *view = new BackOfficeView(counter.context, &frame);
        const QSize room(1366 - (kiosk ? 260 : 210), 768 - 40);
        view->resize(room);
        showWidget(frame, room);
        QStringList faults;
        const auto check = [&](QWidget &root, const QString &where, int atLeast) {
            settleLayouts();
            int checked = 0;
            for (const QString &fault : clippedButtons(root, &checked))
                faults << where + QStringLiteral(": ") + fault;
            if (checked < atLeast)
                faults << where + QStringLiteral(": only %1 buttons seen").arg(checked);
            const QSize minimum = root.minimumSizeHint();
            if (minimum.width() > room.width() || minimum.height() > room.height())
                faults << where + QStringLiteral(": needs %1x%2").arg(minimum.width()).arg(minimum.height());
        };

        // Settings → Upstreams with a statement run open.
        view->setCurrentWidget(view->settingsPage());
        SettingsPage *settings = view->settingsPage();
        QVERIFY(openUpstreams(*settings, 2));
        StatementsCard *card = settings->upstreams()->statements();
        QTRY_COMPARE_WITH_TIMEOUT(card->runsTable()->rowCount(), 1, kTimeoutMs);
        card->runsTable()->selectRow(0);
        QTRY_VERIFY_WITH_TIMEOUT(card->run().has_value(), kTimeoutMs);
        settings->upstreams()->table()->setFocus();
        check(*view, QStringLiteral("upstreams"), 5); // Add, Edit, Check, Remove, Import
        if (kiosk)
            shot(frame, "kiosk-upstreams");

        // Add… and Edit…: within the screen, nothing cut.
        for (const bool edit : {false, true}) {
            settings->upstreams()->table()->setFocus();
            if (edit)
                QTest::keyClick(settings->upstreams()->table(), Qt::Key_Return);
            else
                altKey(frame, Qt::Key_A);
            auto *dialog = waitFor<UpstreamDialog>(*settings, "upstreamDialog");
            QVERIFY(dialog);
            settleLayouts();
            const QString where = edit ? QStringLiteral("edit dialog") : QStringLiteral("add dialog");
            int checked = 0;
            for (const QString &fault : clippedButtons(*dialog, &checked))
                faults << where + QStringLiteral(": ") + fault;
            if (checked < 22) // 2 kinds, From file, 5 services, 11 operators, enabled, Save, Cancel
                faults << where + QStringLiteral(": only %1 buttons seen").arg(checked);
            if (dialog->frameGeometry().width() > 1366 || dialog->frameGeometry().height() > 768)
                faults << where + QStringLiteral(": %1x%2").arg(dialog->width()).arg(dialog->height());
            if (kiosk && !edit)
                shot(*dialog, "kiosk-upstream-dialog");
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
            QTRY_VERIFY_WITH_TIMEOUT(!settings->findChild<UpstreamDialog *>(), kTimeoutMs);
        }

        // History with the reversed and the mismatched sale selected in turn.
        view->setCurrentWidget(view->historyPage());
        HistoryPage *history = view->historyPage();
        QTRY_VERIFY_WITH_TIMEOUT(!history->model()->isLoading() && history->model()->rowCount() == 2, kTimeoutMs);
        for (const qint64 id : {85, 86}) {
            child<QTableView>(*history, "historyTable")->selectRow(history->model()->rowOf(id));
            QTRY_VERIFY_WITH_TIMEOUT(
                history->detailPane()->record() && history->detailPane()->record()->transactionId == id, kTimeoutMs);
            check(*view, QStringLiteral("history %1").arg(id), 4); // Recheck, Reprint, Redeliver, Resolve…
        }
        for (const QString &fault : std::as_const(faults))
            std::fprintf(stderr, "%s\n", qPrintable(fault));
        QVERIFY2(faults.isEmpty(), qPrintable(faults.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestUiSeveralUpstreams)
#include "tst_ui_severalupstreams.moc"
