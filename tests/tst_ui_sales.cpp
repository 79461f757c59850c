#include "apiclient.h"
#include "cannedapiserver.h"
#include "clock.h"
#include "complaints/complaintsection.h"
#include "complaints/raisecomplaintdialog.h"
#include "entities/numberinfo.h"
#include "operatorcatalog.h"
#include "services/settlementservice.h"
#include "statuspanel.h"
#include "terminal/dthrechargepage.h"
#include "terminal/mobilerechargepage.h"
#include "terminal/repeatsalepanel.h"
#include "terminal/salechecks.h"
#include "terminal/saleconfirmpanel.h"
#include "terminal/saleflow.h"
#include "terminal/saleform.h"
#include "terminal/saleresultpanel.h"
#include "terminal/statuspoller.h"
#include "terminal/voucherpage.h"
#include "terminalcontext.h"
#include "terminalfixture.h"
#include "testserver.h"
#include "widgets/digitslineedit.h"
#include "widgets/statusbadge.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

constexpr int kTimeoutMs = 10'000;

/// Everything a screen needs: the real server on port 0, an admin key, the client and context.
struct Terminal : TerminalFixture
{
    explicit Terminal(const QUrl &via = {}) : TerminalFixture(via) {}

    /// Transactions the server holds for the shop (checked over HTTP, not through the UI).
    int transactionCount()
    {
        const HttpResult result = server.http().get(server.url(QStringLiteral("/api/v1/transactions")), server.admin());
        return int(result.data().value(QStringLiteral("count")).toInteger());
    }
    /// A mobile sale made straight over HTTP, as another terminal of the shop would; its record.
    QJsonObject sellOverHttp(const QString &number, const QString &operatorCode, const QString &rupees)
    {
        const HttpResult result =
            server.http().postJson(server.url(QStringLiteral("/api/v1/recharge/mobile/initiate-transaction")),
                                   QJsonObject{{QStringLiteral("phone_number"), number},
                                               {QStringLiteral("operator_code"), operatorCode},
                                               {QStringLiteral("amount"), rupees}},
                                   server.admin());
        if (result.status != 200)
            qWarning("sale failed: %s", result.body.constData());
        return result.data();
    }
    /// Moves every sale `minutes` into the past.
    void backdateSales(int minutes)
    {
        sql(QStringLiteral("UPDATE transactions SET created_at = created_at - ?"), {qint64(minutes) * 60'000});
    }
    QString walletBalance()
    {
        return server.http()
            .get(server.url(QStringLiteral("/api/v1/wallet")), server.admin())
            .data()
            .value(QStringLiteral("balance"))
            .toString();
    }
};

/// A TCP relay in front of the server that can refuse connections or swallow the server's
/// answers, to produce real network errors.
class FlakyRelay final : public QObject
{
public:
    enum class Mode
    {
        Forward,
        Refuse,
        DropAnswers
    };

    explicit FlakyRelay(const QUrl &target) : m_target(target)
    {
        m_listener.listen(QHostAddress::LocalHost, 0);
        connect(&m_listener, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *client = m_listener.nextPendingConnection())
                relay(client);
        });
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_listener.serverPort())); }
    Mode mode = Mode::Forward;

    /// The server is gone: new connections are refused and the open ones (kept alive by the
    /// client) are cut.
    void goOffline()
    {
        mode = Mode::Refuse;
        for (QTcpSocket *client : findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly))
            client->abort();
    }

private:
    void relay(QTcpSocket *client)
    {
        client->setParent(this);
        if (mode == Mode::Refuse) {
            client->abort();
            client->deleteLater();
            return;
        }
        auto *upstream = new QTcpSocket(client);
        upstream->connectToHost(m_target.host(), quint16(m_target.port()));
        connect(client, &QTcpSocket::readyRead, upstream, [this, client, upstream] {
            if (mode == Mode::Refuse) {
                // Unreachable also for connections the client keeps open between requests.
                client->abort();
                return;
            }
            if (upstream->state() == QAbstractSocket::ConnectedState)
                upstream->write(client->readAll());
        });
        connect(upstream, &QTcpSocket::connected, client, [client, upstream] { upstream->write(client->readAll()); });
        connect(upstream, &QTcpSocket::readyRead, client, [this, client, upstream] {
            const QByteArray answer = upstream->readAll();
            if (mode == Mode::DropAnswers) {
                client->abort();
                return;
            }
            client->write(answer);
        });
        connect(upstream, &QTcpSocket::disconnected, client, &QTcpSocket::disconnectFromHost);
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
    }

    QUrl m_target;
    QTcpServer m_listener;
};

/// A Vi plan as the Plans screen hands it on.
PlanItem vi179()
{
    PlanItem plan;
    plan.amountRupees = 179;
    plan.validity = QStringLiteral("28 days");
    plan.benefit = QStringLiteral("2 GB/day");
    return plan;
}

/// The real server behind a FlakyRelay, and the terminal's client and context talking through the relay.
struct RelayedTerminal
{
    /// `clock` is the server's (not owned; null: the system clock).
    explicit RelayedTerminal(const Clock *clock = nullptr) : server(TestServer::defaultOptions(), clock) {}

    QTemporaryDir dir;
    TestServer server;
    FlakyRelay relay{server.baseUrl()};
    CreatedKey key = server.createKeyPair(Mode::Test, Scope::Admin);
    ApiClient api{relay.url(), key.keyId, key.secret};
    TerminalContext context{api, dir.filePath(QStringLiteral("prefs.ini"))};
};

QWidget *focused()
{
    return QApplication::focusWidget();
}

/// Types `text` into the mobile form: number, operator by code, amount; Enter submits.
void fillMobile(MobileRechargePage &page, const QString &number, const QString &operatorCode, const QString &amount)
{
    QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), number);
    auto *op = child<QComboBox>(page, "operator");
    op->setCurrentIndex(op->findData(operatorCode));
    auto *edit = child<QLineEdit>(page, "amount");
    edit->clear();
    QTest::keyClicks(edit, amount);
}

/// The visible error text under `field` of the page's form (empty when hidden).
QString fieldError(MobileRechargePage &page, const QString &field)
{
    QLabel *label = page.flow()->form()->errorLabel(field);
    return label && label->isVisible() ? label->text() : QString();
}

/// A shop server whose number lookup knows one number only from its RechargeDesk upstream (issue 29): GET
/// /api/v1/numbers/{known} answers `known`'s NumberInfo with source "upstream", any other number 404. Anything else
/// answers 200 with {} (CannedApiServer's convention).
class DistributorKnowsServer final : public CannedApiServer
{
public:
    NumberInfo known;

private:
    void handle(const Request &seen, QHttpServerResponder &responder) override
    {
        const QString prefix = QStringLiteral("/api/v1/numbers/");
        if (!seen.path.startsWith(prefix))
            return answer(responder, {});
        if (seen.path.mid(prefix.size()) == known.phoneNumber)
            return answer(responder, known.toJson());
        fail(responder, {QHttpServerResponder::StatusCode::NotFound, QStringLiteral("NOT_FOUND_ERROR"),
                         QStringLiteral("not_found"), QStringLiteral("phone_number"),
                         QStringLiteral("no sale to this number is known")});
    }
};

void shot(QWidget &page, const QString &name)
{
    settleLayouts();
    page.grab().save(QStringLiteral("/tmp/uisales_%1.png").arg(name));
}

} // namespace

class TestUiSales final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // The terminal's own style sheet, so screenshots look like the real screens.
        QVERIFY(applyTerminalStyle());
    }

    void amountProblem_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("amount");
        QTest::addColumn<bool>("ok");
        QTest::newRow("airtel min") << QStringLiteral("AT") << QStringLiteral("10") << true;
        QTest::newRow("airtel max") << QStringLiteral("AT") << QStringLiteral("2500") << true;
        QTest::newRow("airtel above") << QStringLiteral("AT") << QStringLiteral("2501") << false;
        QTest::newRow("airtel below") << QStringLiteral("AT") << QStringLiteral("9") << false;
        QTest::newRow("vi 5000") << QStringLiteral("VI") << QStringLiteral("5000") << true;
        QTest::newRow("airtel dth min 50") << QStringLiteral("AD") << QStringLiteral("49") << false;
        QTest::newRow("tata play 25000") << QStringLiteral("TS") << QStringLiteral("25000") << true;
        QTest::newRow("voucher 10000") << QStringLiteral("GP") << QStringLiteral("10000") << true;
        QTest::newRow("voucher 10001") << QStringLiteral("GP") << QStringLiteral("10001") << false;
        QTest::newRow("empty") << QStringLiteral("AT") << QString() << false;
        QTest::newRow("decimal") << QStringLiteral("AT") << QStringLiteral("24.5") << false;
        QTest::newRow("sign") << QStringLiteral("AT") << QStringLiteral("+249") << false;
        QTest::newRow("no operator") << QString() << QStringLiteral("249") << false;
    }
    void amountProblem()
    {
        QFETCH(QString, code);
        QFETCH(QString, amount);
        QFETCH(bool, ok);
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        QCOMPARE(SaleChecks::amountProblem(amount, catalog.findOperator(code)).isEmpty(), ok);
    }

    void limitsText()
    {
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        QCOMPARE(SaleChecks::limitsText(*catalog.findOperator(QStringLiteral("AT"))),
                 QStringLiteral("₹10 – ₹2,500 for Airtel"));
    }

    void inputProblems_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::newRow("phone ok") << QStringLiteral("phone") << QStringLiteral("9876543210") << true;
        QTest::newRow("phone starts 5") << QStringLiteral("phone") << QStringLiteral("5876543210") << false;
        QTest::newRow("phone 9 digits") << QStringLiteral("phone") << QStringLiteral("987654321") << false;
        QTest::newRow("phone empty") << QStringLiteral("phone") << QString() << false;
        QTest::newRow("reference empty") << QStringLiteral("reference") << QString() << true;
        QTest::newRow("reference ok") << QStringLiteral("reference") << QStringLiteral("INV-2024_07") << true;
        QTest::newRow("reference blank inside") << QStringLiteral("reference") << QStringLiteral("INV 1") << false;
        QTest::newRow("reference 65") << QStringLiteral("reference") << QString(65, QLatin1Char('a')) << false;
        QTest::newRow("email empty") << QStringLiteral("email") << QString() << true;
        QTest::newRow("email ok") << QStringLiteral("email") << QStringLiteral("asha@example.in") << true;
        QTest::newRow("email no dot") << QStringLiteral("email") << QStringLiteral("asha@example") << false;
        QTest::newRow("tata play ok") << QStringLiteral("TS") << QStringLiteral("1234567890") << true;
        QTest::newRow("tata play starts 2") << QStringLiteral("TS") << QStringLiteral("2234567890") << false;
        QTest::newRow("dish tv registered mobile") << QStringLiteral("DT") << QStringLiteral("9876543210") << true;
        QTest::newRow("dish tv card") << QStringLiteral("DT") << QStringLiteral("01234567890") << true;
    }
    void inputProblems()
    {
        QFETCH(QString, kind);
        QFETCH(QString, text);
        QFETCH(bool, ok);
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        QString problem;
        if (kind == QLatin1String("phone"))
            problem = SaleChecks::phoneProblem(text);
        else if (kind == QLatin1String("reference"))
            problem = SaleChecks::referenceProblem(text);
        else if (kind == QLatin1String("email"))
            problem = SaleChecks::emailProblem(text);
        else
            problem = SaleChecks::dthNumberProblem(text, catalog.findOperator(kind));
        QCOMPARE(problem.isEmpty(), ok);
    }

    void groupRedeemCode_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("grouped");
        QTest::newRow("already grouped") << QStringLiteral("AB12-CD34-EF56-GH78")
                                         << QStringLiteral("AB12-CD34-EF56-GH78");
        QTest::newRow("plain") << QStringLiteral("AB12CD34EF56GH78") << QStringLiteral("AB12-CD34-EF56-GH78");
        QTest::newRow("spaces") << QStringLiteral("AB12 CD34 EF56 GH78") << QStringLiteral("AB12-CD34-EF56-GH78");
        QTest::newRow("too short stays") << QStringLiteral("AB12-CD34") << QStringLiteral("AB12-CD34");
        QTest::newRow("odd character stays")
            << QStringLiteral("AB12+CD34EF56GH78") << QStringLiteral("AB12+CD34EF56GH78");
    }
    void groupRedeemCode()
    {
        QFETCH(QString, code);
        QFETCH(QString, grouped);
        QCOMPARE(SaleChecks::groupRedeemCode(code), grouped);
    }

    void referenceIdsAreValidAndFresh()
    {
        const QString a = SaleChecks::newReferenceId();
        const QString b = SaleChecks::newReferenceId();
        QVERIFY(SaleChecks::referenceProblem(a).isEmpty());
        QVERIFY(a != b);
    }

    void pollBackoff_data()
    {
        QTest::addColumn<int>("current");
        QTest::addColumn<int>("next");
        QTest::newRow("1 s -> 2 s") << 1000 << 2000;
        QTest::newRow("2 s -> 4 s") << 2000 << 4000;
        QTest::newRow("8 s -> 16 s") << 8000 << 16000;
        QTest::newRow("16 s -> capped 30 s") << 16000 << 30000;
        QTest::newRow("30 s stays") << 30000 << 30000;
        QTest::newRow("short test delay doubles") << 100 << 200;
    }
    void pollBackoff()
    {
        QFETCH(int, current);
        QFETCH(int, next);
        QCOMPARE(StatusPoller::nextDelayMs(current), next);
    }

    void mobileSaleSucceeds()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        showActive(page);
        shot(page, QStringLiteral("mobile_empty"));
        QSignalSpy salesChanged(&t.context, &TerminalContext::salesChanged);

        QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876543210"));
        auto *op = child<QComboBox>(page, "operator");
        op->setCurrentIndex(op->findData(QStringLiteral("AT")));
        auto *circle = child<QComboBox>(page, "circle");
        circle->setCurrentIndex(circle->findData(QStringLiteral("RJ")));
        auto *amount = child<QLineEdit>(page, "amount");
        QTest::keyClicks(amount, QStringLiteral("249"));
        QTest::keyClick(amount, Qt::Key_Return);

        SaleFlow *flow = page.flow();
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QCOMPARE(flow->confirmPanel()->findChild<QLabel *>(QStringLiteral("confirmBill"))->text(),
                 QStringLiteral("₹249.00"));
        // Airtel 2 % of ₹249.00 is ₹4.98; the opening sandbox wallet is ₹10000.00.
        QTRY_COMPARE_WITH_TIMEOUT(flow->confirmPanel()->walletAfterLabel()->text(), QStringLiteral("₹9,755.98"),
                                  kTimeoutMs);
        shot(page, QStringLiteral("mobile_confirm"));
        QTest::mouseClick(flow->confirmPanel()->confirmButton(), Qt::LeftButton);

        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = flow->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("SUCCESS"));
        QCOMPARE(result->detail(QStringLiteral("number"))->text(), QStringLiteral("9876543210"));
        QCOMPARE(result->detail(QStringLiteral("operator"))->text(), QStringLiteral("Airtel"));
        QCOMPARE(result->detail(QStringLiteral("discount"))->text(), QStringLiteral("₹4.98"));
        QCOMPARE(result->detail(QStringLiteral("paid"))->text(), QStringLiteral("₹244.02"));
        QVERIFY(result->detail(QStringLiteral("transaction_id"))->text().toLongLong() > 0);
        // No reference typed: one was generated, sent and echoed back.
        QVERIFY(flow->referenceId().startsWith(QLatin1String("rd-")));
        QCOMPARE(result->detail(QStringLiteral("reference_id"))->text(), flow->referenceId());
        QCOMPARE(t.walletBalance(), QStringLiteral("₹9755.98"));
        QCOMPARE(salesChanged.count(), 1);
        shot(page, QStringLiteral("mobile_result"));

        // The circle is remembered for the next sale; the number's operator comes from the server's sales.
        QTest::keyClick(result->newSaleButton(), Qt::Key_N, Qt::ControlModifier);
        QCOMPARE(flow->stage(), SaleFlow::Stage::Form);
        QVERIFY(child<QLineEdit>(page, "phoneNumber")->text().isEmpty());
        QCOMPARE(circle->currentData().toString(), QStringLiteral("RJ"));
        QCOMPARE(op->currentIndex(), -1);
        QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876543210"));
        QTRY_COMPARE_WITH_TIMEOUT(op->currentData().toString(), QStringLiteral("AT"), kTimeoutMs);
        QCOMPARE(t.context.settings().childGroups().contains(QStringLiteral("operators")), false);
    }

    void mobileSaleByKeyboardOnly()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        showActive(page);
        QTRY_COMPARE(focused(), child<QWidget>(page, "phoneNumber"));

        QTest::keyClicks(focused(), QStringLiteral("9123456789"));
        QTest::keyClick(focused(), Qt::Key_Tab);
        QCOMPARE(focused(), child<QWidget>(page, "operator"));
        QTest::keyClicks(focused(), QStringLiteral("J")); // Jio
        QTest::keyClick(focused(), Qt::Key_Tab);
        QCOMPARE(focused(), child<QWidget>(page, "circle"));
        QTest::keyClicks(focused(), QStringLiteral("K")); // Karnataka
        QTest::keyClick(focused(), Qt::Key_Tab);
        QCOMPARE(focused(), child<QWidget>(page, "amount"));
        QTest::keyClicks(focused(), QStringLiteral("299"));
        QTest::keyClick(focused(), Qt::Key_Tab);
        QCOMPARE(focused(), child<QWidget>(page, "referenceId"));
        QTest::keyClicks(focused(), QStringLiteral("BILL-77"));
        QTest::keyClick(focused(), Qt::Key_Return);

        SaleFlow *flow = page.flow();
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QCOMPARE(focused(), flow->confirmPanel()->confirmButton());
        // Esc goes back with everything kept; Enter comes forward again.
        QTest::keyClick(focused(), Qt::Key_Escape);
        QCOMPARE(flow->stage(), SaleFlow::Stage::Form);
        QCOMPARE(child<QLineEdit>(page, "amount")->text(), QStringLiteral("299"));
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(focused(), Qt::Key_Return);

        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = flow->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("SUCCESS"));
        QCOMPARE(result->detail(QStringLiteral("operator"))->text(), QStringLiteral("Jio"));
        QCOMPARE(result->detail(QStringLiteral("reference_id"))->text(), QStringLiteral("BILL-77"));
        // Jio 1.5 % of ₹299.00 = ₹4.485, rounded half up to ₹4.49.
        QCOMPARE(result->detail(QStringLiteral("discount"))->text(), QStringLiteral("₹4.49"));
        QCOMPARE(t.context.settings().value(QStringLiteral("circle")).toString(), QStringLiteral("KA"));

        // Print receipt is the default on the result (issue 10: an extra Enter must not start a
        // new sale); Ctrl+N starts the next sale with the number field focused.
        QCOMPARE(focused(), result->printButton());
        QTest::keyClick(focused(), Qt::Key_N, Qt::ControlModifier);
        QCOMPARE(flow->stage(), SaleFlow::Stage::Form);
        QCOMPARE(focused(), child<QWidget>(page, "phoneNumber"));
    }

    void pendingSaleUpdatesItself()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        page.resize(1366, 768);
        page.show();
        page.flow()->poller()->setFirstDelayMs(100);
        QSignalSpy salesChanged(&t.context, &TerminalContext::salesChanged);
        page.fillFromPlan(QStringLiteral("VI"), QStringLiteral("MU"), vi179());
        QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876541111"));
        QTest::keyClick(child<QLineEdit>(page, "phoneNumber"), Qt::Key_Return);
        SaleFlow *flow = page.flow();
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Return);

        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = flow->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("PENDING"));
        QVERIFY(flow->poller()->isActive());
        // Issue 27: the receipt is printed once the sale ends, so while PENDING New sale has the focus, not Print.
        QCOMPARE(page.focusWidget(), result->newSaleButton());
        shot(page, QStringLiteral("mobile_pending"));
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("SUCCESS"), kTimeoutMs);
        QCOMPARE(page.focusWidget(), result->printButton()); // it succeeded: Print receipt takes the focus
        QVERIFY(!flow->poller()->isActive());
        QCOMPARE(salesChanged.count(), 2); // the sale, then its settlement
        QCOMPARE(result->detail(QStringLiteral("operator"))->text(), QStringLiteral("Vi"));
        QCOMPARE(result->detail(QStringLiteral("bill_amount"))->text(), QStringLiteral("₹179.00"));
    }

    // Issue 27: the screen learns a PENDING sale's end when the server does. The check waits at the server (a long
    // poll) and is answered by the settle itself: no "next check in N s", no second check, no timer to wait out.
    void pendingSaleEndsOnScreenWhenTheServerEndsIt()
    {
        ManualClock clock(QDateTime::currentDateTimeUtc());
        TerminalFixture::Setup setup;
        setup.clock = &clock;
        TerminalFixture t(setup);
        MobileRechargePage page(t.context);
        page.resize(1366, 768);
        page.show();
        SaleFlow *flow = page.flow();
        flow->poller()->setFirstDelayMs(100);
        QVERIFY(flow->poller()->waitSeconds() > 0);
        QSignalSpy stillPending(flow->poller(), &StatusPoller::stillPending);
        page.fillFromPlan(QStringLiteral("VI"), QStringLiteral("MU"), vi179());
        QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876541111"));
        QTest::keyClick(child<QLineEdit>(page, "phoneNumber"), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = flow->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("PENDING"));

        // The first check is waiting at the server; the operator answers (the sandbox settles) meanwhile.
        QTRY_VERIFY_WITH_TIMEOUT(flow->poller()->isChecking(), kTimeoutMs);
        clock.advanceMs(TestServer::defaultOptions().settleDelayMs);
        QCOMPARE(t.server.server().settlements().settleDue(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("SUCCESS"), kTimeoutMs);
        QCOMPARE(stillPending.count(), 0); // that one check brought the end
        QVERIFY(!flow->poller()->isActive());
    }

    void pendingSaleWhileTheServerIsGone()
    {
        // The server's clock moves only when the test says so: the sale stays PENDING until the test lets
        // it settle. With the system clock it settled 50 ms (the test settle delay) after the sale, so on
        // a loaded machine the status bar read "Pending: 0" before it could ever show "Pending: 1".
        ManualClock clock(QDateTime::currentDateTimeUtc());
        RelayedTerminal terminal(&clock);
        FlakyRelay &relay = terminal.relay;
        TerminalContext &context = terminal.context;
        QMainWindow window;
        auto *page = new MobileRechargePage(context);
        window.setCentralWidget(page);
        StatusPanel status(context, window.statusBar());
        window.resize(1366, 768);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(status.serverText().endsWith(QLatin1String("online")), kTimeoutMs);
        SaleFlow *flow = page->flow();
        flow->poller()->setFirstDelayMs(1500);

        page->fillFromPlan(QStringLiteral("VI"), QStringLiteral("MU"), vi179());
        QTest::keyClicks(child<QLineEdit>(*page, "phoneNumber"), QStringLiteral("9876541111"));
        QTest::keyClick(child<QLineEdit>(*page, "phoneNumber"), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = flow->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("PENDING"));
        // The status bar has read the new figures; then the server goes away before the sale's first check.
        QTRY_COMPARE_WITH_TIMEOUT(status.pendingText(), QStringLiteral("Pending: 1"), kTimeoutMs);
        QVERIFY(status.serverText().endsWith(QLatin1String("online")));
        relay.goOffline();

        // The failed check says so on the sale panel and in the status bar, at once.
        QTRY_VERIFY_WITH_TIMEOUT(result->serverOfflineLabel()->isVisible(), kTimeoutMs);
        QVERIFY(result->serverOfflineLabel()->text().contains(QLatin1String("the sale is safe")));
        QVERIFY2(status.serverText().endsWith(QLatin1String("OFFLINE")), qPrintable(status.serverText()));
        QCOMPARE(result->badge()->status(), QStringLiteral("PENDING"));
        QVERIFY(flow->poller()->isActive());
        shot(*page, QStringLiteral("mobile_pending_offline"));

        // Back, and the operator has answered meanwhile: the next check finds the sale settled by itself;
        // the panel and the status bar follow.
        relay.mode = FlakyRelay::Mode::Forward;
        clock.advanceMs(TestServer::defaultOptions().settleDelayMs);
        QCOMPARE(terminal.server.server().settlements().settleDue(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("SUCCESS"), 20'000);
        QVERIFY(!result->serverOfflineLabel()->isVisible());
        QVERIFY2(status.serverText().endsWith(QLatin1String("online")), qPrintable(status.serverText()));
    }

    void failedSaleShowsFailed()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        page.show();
        QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876540000"));
        auto *op = child<QComboBox>(page, "operator");
        op->setCurrentIndex(op->findData(QStringLiteral("BS")));
        QTest::keyClicks(child<QLineEdit>(page, "amount"), QStringLiteral("100"));
        QTest::keyClick(child<QLineEdit>(page, "amount"), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        QCOMPARE(page.flow()->resultPanel()->badge()->status(), QStringLiteral("FAILED"));
        QVERIFY(page.flow()->resultPanel()->badge()->text().contains(QLatin1String("refunded")));
        QVERIFY(!page.flow()->poller()->isActive());
        QCOMPARE(t.walletBalance(), QStringLiteral("₹10000.00"));
        page.resize(1366, 768);
        shot(page, QStringLiteral("mobile_failed"));
    }

    void invalidInputsStayOnTheTerminal()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        showActive(page);
        SaleForm *form = page.flow()->form();
        auto *number = child<QLineEdit>(page, "phoneNumber");

        // Nothing typed: Enter shows every missing field.
        QTest::keyClick(number, Qt::Key_Return);
        QCOMPARE(page.flow()->stage(), SaleFlow::Stage::Form);
        QVERIFY(form->errorLabel(QStringLiteral("phone_number"))->isVisible());
        QVERIFY(form->errorLabel(QStringLiteral("operator_code"))->isVisible());
        QVERIFY(form->errorLabel(QStringLiteral("amount"))->isVisible());
        QVERIFY(!form->errorLabel(QStringLiteral("reference_id"))->isVisible());
        QCOMPARE(focused(), number);

        // Live: no complaint while the number is short, a red border once ten digits are in.
        number->clear();
        form->clearErrors();
        QTest::keyClicks(number, QStringLiteral("512345678"));
        QVERIFY(!form->errorLabel(QStringLiteral("phone_number"))->isVisible());
        QTest::keyClicks(number, QStringLiteral("9"));
        QVERIFY(form->errorLabel(QStringLiteral("phone_number"))->isVisible());
        QVERIFY(form->errorLabel(QStringLiteral("phone_number"))->text().contains(QLatin1String("6, 7, 8 or 9")));
        QCOMPARE(number->property("invalid").toBool(), true);
        // Letters never get in.
        auto *amount = child<QLineEdit>(page, "amount");
        QTest::keyClicks(amount, QStringLiteral("2x6"));
        QCOMPARE(amount->text(), QStringLiteral("26"));
        amount->clear();

        // The amount is checked against the chosen operator's limits as it is typed.
        auto *op = child<QComboBox>(page, "operator");
        op->setCurrentIndex(op->findData(QStringLiteral("AT")));
        QTest::keyClicks(amount, QStringLiteral("3000"));
        QVERIFY(form->errorLabel(QStringLiteral("amount"))->isVisible());
        QVERIFY(form->errorLabel(QStringLiteral("amount"))->text().contains(QStringLiteral("₹10 – ₹2,500 for Airtel")));
        // Switching to Vi (up to ₹5000) clears it.
        op->setCurrentIndex(op->findData(QStringLiteral("VI")));
        QVERIFY(!form->errorLabel(QStringLiteral("amount"))->isVisible());
        auto *reference = child<QLineEdit>(page, "referenceId");
        QTest::keyClicks(reference, QStringLiteral("bill #7"));
        QVERIFY(form->errorLabel(QStringLiteral("reference_id"))->isVisible());
        shot(page, QStringLiteral("mobile_errors"));

        QTest::keyClick(reference, Qt::Key_Return);
        QCOMPARE(page.flow()->stage(), SaleFlow::Stage::Form);
        QCOMPARE(focused(), number); // the first bad input
        QCOMPARE(t.transactionCount(), 0);
        QCOMPARE(t.walletBalance(), QStringLiteral("₹10000.00"));
    }

    void serverErrorShowsAtItsField()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        page.show();
        const auto sell = [&page](const QString &amount) {
            QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876543210"));
            auto *op = child<QComboBox>(page, "operator");
            op->setCurrentIndex(op->findData(QStringLiteral("RJ")));
            QTest::keyClicks(child<QLineEdit>(page, "amount"), amount);
            QTest::keyClicks(child<QLineEdit>(page, "referenceId"), QStringLiteral("INV-1"));
            QTest::keyClick(child<QLineEdit>(page, "referenceId"), Qt::Key_Return);
            QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
            QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        };
        sell(QStringLiteral("199"));
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        page.flow()->newSale();
        // The same reference for a different sale: 409 from the server, shown at the reference.
        sell(QStringLiteral("239"));
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Form, kTimeoutMs);
        QLabel *error = page.flow()->form()->errorLabel(QStringLiteral("reference_id"));
        QVERIFY(error->isVisible());
        QVERIFY(error->text().contains(QLatin1String("already used")));
        QCOMPARE(child<QLineEdit>(page, "referenceId")->property("invalid").toBool(), true);
        QCOMPARE(t.transactionCount(), 1);
    }

    void insufficientBalanceIsExplained()
    {
        Terminal t;
        // Drain the sandbox wallet: a ₹10000 voucher costs ₹9900.00, leaving ₹100.00.
        const HttpResult drained = t.server.http().postJson(
            t.server.url(QStringLiteral("/api/v1/voucher/appstore/initiate-transaction")),
            QJsonObject{{QStringLiteral("amount"), QStringLiteral("10000")}}, t.server.admin());
        QCOMPARE(drained.status, 200);
        QCOMPARE(t.walletBalance(), QStringLiteral("₹100.00"));

        DthRechargePage page(t.context);
        page.resize(1366, 768);
        page.show();
        auto *op = child<QComboBox>(page, "operator");
        op->setCurrentIndex(op->findData(QStringLiteral("TS")));
        QTest::keyClicks(child<QLineEdit>(page, "subscriberNumber"), QStringLiteral("1234567890"));
        QTest::keyClicks(child<QLineEdit>(page, "amount"), QStringLiteral("500"));
        QTest::keyClick(child<QLineEdit>(page, "amount"), Qt::Key_Return);
        SaleFlow *flow = page.flow();
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        // Tata Play 3 % of ₹500: pays ₹485.00 — the confirmation already says it will not fit.
        QTRY_VERIFY_WITH_TIMEOUT(flow->confirmPanel()->walletAfterLabel()->text().contains(QLatin1String("Not enough")),
                                 kTimeoutMs);
        QTest::keyClick(flow->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Form, kTimeoutMs);
        QLabel *general = flow->form()->generalLabel();
        QTRY_COMPARE_WITH_TIMEOUT(general->text(),
                                  QStringLiteral("Wallet has ₹100.00 but this sale needs ₹485.00; top "
                                                 "up in the back office."),
                                  kTimeoutMs);
        QVERIFY(general->isVisible());
        shot(page, QStringLiteral("dth_402"));
        QCOMPARE(t.walletBalance(), QStringLiteral("₹100.00"));
    }

    void dthSaleSucceeds()
    {
        Terminal t;
        DthRechargePage page(t.context);
        page.resize(1366, 768);
        page.show();
        SaleForm *form = page.flow()->form();
        auto *op = child<QComboBox>(page, "operator");
        op->setCurrentIndex(op->findData(QStringLiteral("DT")));
        // The operator's format is shown and checked live.
        QVERIFY(page.findChildren<QLabel *>(QStringLiteral("hint")).size() > 0);
        bool hintShown = false;
        for (const QLabel *hint : page.findChildren<QLabel *>(QStringLiteral("hint")))
            hintShown =
                hintShown || hint->text().contains(QLatin1String("11-digit viewing card number starting with 0"));
        QVERIFY(hintShown);
        auto *number = child<QLineEdit>(page, "subscriberNumber");
        QTest::keyClicks(number, QStringLiteral("11234567890"));
        QVERIFY(form->errorLabel(QStringLiteral("number"))->isVisible());
        shot(page, QStringLiteral("dth_errors"));
        number->clear();
        QTest::keyClicks(number, QStringLiteral("01234567890"));
        QVERIFY(!form->errorLabel(QStringLiteral("number"))->isVisible());
        QTest::keyClicks(child<QLineEdit>(page, "amount"), QStringLiteral("350"));
        QTest::keyClick(child<QLineEdit>(page, "amount"), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            page.flow()->confirmPanel()->walletAfterLabel()->text().startsWith(QStringLiteral("₹")), kTimeoutMs);
        shot(page, QStringLiteral("dth_confirm"));
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = page.flow()->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("SUCCESS"));
        QCOMPARE(result->detail(QStringLiteral("operator"))->text(), QStringLiteral("Dish TV"));
        QCOMPARE(result->detail(QStringLiteral("number"))->text(), QStringLiteral("01234567890"));
        // Dish TV 3.5 % of ₹350 = ₹12.25.
        QCOMPARE(result->detail(QStringLiteral("paid"))->text(), QStringLiteral("₹337.75"));
        shot(page, QStringLiteral("dth_result"));
    }

    void voucherShowsCodeAndCopies()
    {
        Terminal t;
        VoucherPage page(t.context);
        page.resize(1366, 768);
        page.show();
        auto *email = child<QLineEdit>(page, "customerEmail");
        QTest::keyClicks(child<QLineEdit>(page, "amount"), QStringLiteral("500"));
        QTest::keyClicks(email, QStringLiteral("asha@example"));
        QTest::keyClick(email, Qt::Key_Return);
        QCOMPARE(page.flow()->stage(), SaleFlow::Stage::Form);
        QVERIFY(page.flow()->form()->errorLabel(QStringLiteral("customer_email"))->isVisible());
        QTest::keyClicks(email, QStringLiteral(".in"));
        QTest::keyClick(email, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->confirmPanel()->walletAfterLabel()->text(), QStringLiteral("₹9,505.00"),
                                  kTimeoutMs);
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = page.flow()->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("SUCCESS"));
        const QString code = result->redeemCodeLabel()->text();
        QVERIFY2(QRegularExpression(QStringLiteral("^[A-Za-z0-9]{4}(-[A-Za-z0-9]{4}){3}$")).match(code).hasMatch(),
                 qPrintable(code));
        QVERIFY(result->redeemCodeLabel()->isVisible());
        // The whole code is on screen: the label is as wide as its text needs (it was cut after 15 characters).
        settleLayouts();
        QVERIFY2(result->redeemCodeLabel()->width() >= result->redeemCodeLabel()->sizeHint().width(),
                 qPrintable(QStringLiteral("%1 px shown of %2 px")
                                .arg(result->redeemCodeLabel()->width())
                                .arg(result->redeemCodeLabel()->sizeHint().width())));
        QCOMPARE(result->detail(QStringLiteral("customer_email"))->text(), QStringLiteral("asha@example.in"));
        QCOMPARE(result->detail(QStringLiteral("paid"))->text(), QStringLiteral("₹495.00"));
        // The code on screen is the server's code.
        const HttpResult stored =
            t.server.http().get(t.server.url(QStringLiteral("/api/v1/transactions/%1")
                                                 .arg(result->detail(QStringLiteral("transaction_id"))->text())),
                                t.server.admin());
        QCOMPARE(SaleChecks::groupRedeemCode(stored.data().value(QStringLiteral("redeem_code")).toString()), code);
        QApplication::clipboard()->clear();
        QTest::mouseClick(result->copyButton(), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), code);
        shot(page, QStringLiteral("voucher_result"));

        // Receipts from the result panel: the first is the original, the next one a DUPLICATE
        // (taller: a banner at the top and the bottom).
        QTemporaryDir dir;
        result->setReceiptWidth(ReceiptWidth::Mm58);
        const QString first = dir.filePath(QStringLiteral("first.pdf"));
        const QString second = dir.filePath(QStringLiteral("second.pdf"));
        QVERIFY(!result->receiptIssued());
        QVERIFY(result->savePdf(first));
        QVERIFY(result->receiptIssued());
        QVERIFY(result->savePdf(second));
        const auto mediaBox = [](const QString &path) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                return QSizeF();
            const QRegularExpressionMatch m =
                QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"))
                    .match(QString::fromLatin1(file.readAll()));
            return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
        };
        QVERIFY(qAbs(mediaBox(first).width() - 58 / 25.4 * 72) < 1);
        QVERIFY(mediaBox(second).height() > mediaBox(first).height());
    }

    void pendingVoucherGetsItsCode()
    {
        Terminal t;
        VoucherPage page(t.context);
        page.show();
        page.flow()->poller()->setFirstDelayMs(100);
        QTest::keyClicks(child<QLineEdit>(page, "amount"), QStringLiteral("100"));
        QTest::keyClicks(child<QLineEdit>(page, "customerEmail"), QStringLiteral("ravi+pending@example.in"));
        QTest::keyClick(child<QLineEdit>(page, "customerEmail"), Qt::Key_Return);
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = page.flow()->resultPanel();
        QCOMPARE(result->badge()->status(), QStringLiteral("PENDING"));
        QVERIFY(!result->copyButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(result->badge()->status(), QStringLiteral("SUCCESS"), kTimeoutMs);
        QVERIFY(result->copyButton()->isEnabled());
        QVERIFY(result->redeemCodeLabel()->text().count(QLatin1Char('-')) == 3);
    }

    // Issue 10: "49.50" used to lose its dot and confirm ₹4,950.
    void amountRefusesPaiseAtTheKeystroke()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        showActive(page);
        fillMobile(page, QStringLiteral("9876543210"), QStringLiteral("RJ"), QStringLiteral("49.50"));
        auto *amount = child<QLineEdit>(page, "amount");
        QCOMPARE(amount->text(), QStringLiteral("49"));
        QVERIFY2(fieldError(page, QStringLiteral("amount")).contains(QStringLiteral("Whole rupees only")),
                 qPrintable(fieldError(page, QStringLiteral("amount"))));
        shot(page, QStringLiteral("amount_refused"));

        // Enter does not sell ₹49 behind the clerk's back: the reason stays until the amount is fixed.
        QTest::keyClick(amount, Qt::Key_Return);
        QCOMPARE(page.flow()->stage(), SaleFlow::Stage::Form);
        QVERIFY(fieldError(page, QStringLiteral("amount")).contains(QStringLiteral("Whole rupees only")));
        QTest::keyClick(amount, Qt::Key_Backspace);
        QTest::keyClicks(amount, QStringLiteral("9"));
        QCOMPARE(amount->text(), QStringLiteral("49"));
        QVERIFY(fieldError(page, QStringLiteral("amount")).isEmpty());
        QTest::keyClick(amount, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        const QString bill = page.flow()->confirmPanel()->findChild<QLabel *>(QStringLiteral("confirmBill"))->text();
        QVERIFY2(bill.contains(QStringLiteral("49")) && !bill.contains(QStringLiteral("4950")) &&
                     !bill.contains(QStringLiteral("4,950")),
                 qPrintable(bill));

        // A comma and letters are refused with a reason too.
        QTest::keyClick(page.flow()->confirmPanel()->confirmButton(), Qt::Key_Escape);
        amount->clear();
        QTest::keyClicks(amount, QStringLiteral("1,5"));
        QCOMPARE(amount->text(), QStringLiteral("1"));
        QVERIFY(fieldError(page, QStringLiteral("amount")).contains(QStringLiteral("Whole rupees only")));
        amount->clear();
        QTest::keyClicks(amount, QStringLiteral("2x"));
        QCOMPARE(amount->text(), QStringLiteral("2"));
        QVERIFY(fieldError(page, QStringLiteral("amount")).contains(QStringLiteral("Digits only")));
    }

    void pastingDecimalsIsRefused()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        showActive(page);
        auto *amount = child<QLineEdit>(page, "amount");
        amount->setFocus();
        QApplication::clipboard()->setText(QStringLiteral("49.50"));
        QTest::keyClick(amount, Qt::Key_V, Qt::ControlModifier);
        QVERIFY(amount->text().isEmpty());
        QVERIFY(fieldError(page, QStringLiteral("amount")).contains(QStringLiteral("Whole rupees only")));
        // The context menu's Paste goes through the same refusal.
        amount->paste();
        QVERIFY(amount->text().isEmpty());
        QApplication::clipboard()->setText(QStringLiteral("299"));
        QTest::keyClick(amount, Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(amount->text(), QStringLiteral("299"));

        // The number refuses a pasted number with spaces, unchanged, saying why.
        auto *number = child<QLineEdit>(page, "phoneNumber");
        number->setFocus();
        QApplication::clipboard()->setText(QStringLiteral("98765 43210"));
        QTest::keyClick(number, Qt::Key_V, Qt::ControlModifier);
        QVERIFY(number->text().isEmpty());
        QVERIFY(fieldError(page, QStringLiteral("phone_number")).contains(QStringLiteral("Digits only")));
    }

    void dthAndVoucherAmountsAreWholeRupees()
    {
        Terminal t;
        DthRechargePage dth(t.context);
        showActive(dth);
        auto *dthAmount = child<DigitsLineEdit>(dth, "amount");
        QTest::keyClicks(dthAmount, QStringLiteral("350.75"));
        QCOMPARE(dthAmount->text(), QStringLiteral("350"));
        QVERIFY(dth.flow()->form()->errorLabel(QStringLiteral("amount"))->isVisible());
        QVERIFY(dth.flow()
                    ->form()
                    ->errorLabel(QStringLiteral("amount"))
                    ->text()
                    .contains(QStringLiteral("Whole rupees only")));
        dth.hide();

        VoucherPage voucher(t.context);
        showActive(voucher);
        auto *voucherAmount = child<DigitsLineEdit>(voucher, "amount");
        QTest::keyClicks(voucherAmount, QStringLiteral("10.5"));
        QCOMPARE(voucherAmount->text(), QStringLiteral("10"));
        QVERIFY(voucherAmount->refusalPending());
        QTest::keyClick(voucherAmount, Qt::Key_Return);
        QCOMPARE(voucher.flow()->stage(), SaleFlow::Stage::Form);
    }

    // Issue 10: the same number and amount within 10 minutes asks before the confirmation.
    void repeatSaleWithinTenMinutesAsks()
    {
        Terminal t;
        const QJsonObject earlier =
            t.sellOverHttp(QStringLiteral("9876543210"), QStringLiteral("RJ"), QStringLiteral("299"));
        QCOMPARE(earlier.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        MobileRechargePage page(t.context);
        showActive(page);
        SaleFlow *flow = page.flow();
        fillMobile(page, QStringLiteral("9876543210"), QStringLiteral("RJ"), QStringLiteral("299"));
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::RepeatWarning, kTimeoutMs);

        // The time is the sale's IST time (the test machine may run on UTC).
        const QString time = earlier.value(QStringLiteral("datetime")).toString().mid(11, 5);
        const QDateTime ist = QDateTime::currentDateTimeUtc().addSecs(5 * 3600 + 30 * 60);
        QVERIFY2(time == ist.toString(QStringLiteral("HH:mm")) ||
                     time == ist.addSecs(-60).toString(QStringLiteral("HH:mm")),
                 qPrintable(time));
        QCOMPARE(flow->repeatPanel()->questionLabel()->text(),
                 QStringLiteral("Sold ₹299 to 98765 43210 at %1 — sell again?").arg(time));
        QVERIFY(flow->repeatPanel()->questionLabel()->isVisible());
        shot(page, QStringLiteral("repeat_warning"));

        // Enter is the safe answer: back to the form, everything kept, nothing sold.
        QCOMPARE(focused(), flow->repeatPanel()->noButton());
        QTest::keyClick(focused(), Qt::Key_Return);
        QCOMPARE(flow->stage(), SaleFlow::Stage::Form);
        QCOMPARE(child<QLineEdit>(page, "amount")->text(), QStringLiteral("299"));
        QCOMPARE(t.transactionCount(), 1);

        // Y sells again: on to the confirmation.
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::RepeatWarning, kTimeoutMs);
        QTest::keyClick(focused(), Qt::Key_Y);
        QCOMPARE(flow->stage(), SaleFlow::Stage::Confirm);
        QCOMPARE(focused(), flow->confirmPanel()->confirmButton());

        // Another amount is no repeat.
        QTest::keyClick(focused(), Qt::Key_Escape);
        auto *amount = child<QLineEdit>(page, "amount");
        amount->clear();
        QTest::keyClicks(amount, QStringLiteral("199"));
        QTest::keyClick(amount, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);

        // Eleven minutes later the same sale is no longer asked about.
        QTest::keyClick(focused(), Qt::Key_Escape);
        t.backdateSales(11);
        amount->clear();
        QTest::keyClicks(amount, QStringLiteral("299"));
        QTest::keyClick(amount, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
    }

    void failedSaleIsNoRepeat()
    {
        Terminal t;
        // BSNL sales fail in the sandbox: the customer got nothing, selling again is expected.
        t.sellOverHttp(QStringLiteral("9876540000"), QStringLiteral("BS"), QStringLiteral("100"));
        MobileRechargePage page(t.context);
        showActive(page);
        fillMobile(page, QStringLiteral("9876540000"), QStringLiteral("BS"), QStringLiteral("100"));
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
    }

    // Issue 10: extra Enter presses after confirming stay on the result of that sale.
    void extraEnterAfterConfirmStaysOnTheResult()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        showActive(page);
        SaleFlow *flow = page.flow();
        fillMobile(page, QStringLiteral("9123456789"), QStringLiteral("AT"), QStringLiteral("149"));
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        // Confirm with Enter and keep pressing it, as a hurried clerk does.
        QTest::keyClick(focused(), Qt::Key_Return);
        for (int i = 0; i < 3; ++i)
            QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        SaleResultPanel *result = flow->resultPanel();
        const QString transactionId = result->detail(QStringLiteral("transaction_id"))->text();
        QVERIFY(result->enterPauseLabel()->isVisible());
        QCOMPARE(focused(), result->printButton());
        shot(page, QStringLiteral("result_enter_paused"));
        for (int i = 0; i < 3; ++i)
            QTest::keyClick(focused(), Qt::Key_Return);
        QCOMPARE(flow->stage(), SaleFlow::Stage::Result);
        QCOMPARE(result->detail(QStringLiteral("transaction_id"))->text(), transactionId);
        QCOMPARE(focused(), result->printButton());
        QCOMPARE(t.transactionCount(), 1);
        // The pause ends by itself; New sale stays on Ctrl+N.
        QTRY_VERIFY_WITH_TIMEOUT(!result->enterPauseLabel()->isVisible(), kTimeoutMs);
        QCOMPARE(flow->stage(), SaleFlow::Stage::Result);
        QTest::keyClick(focused(), Qt::Key_N, Qt::ControlModifier);
        QCOMPARE(flow->stage(), SaleFlow::Stage::Form);
        QCOMPARE(t.transactionCount(), 1);
    }

    // Issue 10: "Repeat last: ₹299 Jio (Enter)" once the number is typed.
    void repeatLastIsOfferedForAKnownNumber()
    {
        Terminal t;
        t.sellOverHttp(QStringLiteral("9876512345"), QStringLiteral("RJ"), QStringLiteral("299"));
        t.backdateSales(60);
        MobileRechargePage page(t.context);
        showActive(page);
        auto *number = child<QLineEdit>(page, "phoneNumber");
        QTest::keyClicks(number, QStringLiteral("987651234"));
        auto *offer = child<QPushButton>(page, "repeatLast");
        QVERIFY(!offer->isVisible());
        QTest::keyClicks(number, QStringLiteral("5"));
        QTRY_VERIFY_WITH_TIMEOUT(offer->isVisible(), kTimeoutMs);
        QVERIFY2(offer->text().startsWith(QStringLiteral("Repeat last: ₹299 Jio (Enter)")), qPrintable(offer->text()));
        shot(page, QStringLiteral("repeat_offer"));

        // An amount typed by the clerk wins over the offer.
        auto *amount = child<QLineEdit>(page, "amount");
        QTest::keyClicks(amount, QStringLiteral("1"));
        QVERIFY(!offer->isVisible());
        QTest::keyClick(amount, Qt::Key_Backspace);
        QVERIFY(offer->isVisible());
        // So does another operator (a ported number).
        auto *op = child<QComboBox>(page, "operator");
        op->setCurrentIndex(op->findData(QStringLiteral("AT")));
        QVERIFY(!offer->isVisible());
        op->setCurrentIndex(-1);
        QVERIFY(offer->isVisible());

        // Enter takes it: operator and amount of the last sale, straight to the confirmation.
        QTest::keyClick(number, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QCOMPARE(child<QComboBox>(page, "operator")->currentData().toString(), QStringLiteral("RJ"));
        QCOMPARE(amount->text(), QStringLiteral("299"));

        // Another number drops the offer.
        QTest::keyClick(focused(), Qt::Key_Escape);
        QTest::keyClick(number, Qt::Key_Backspace);
        QVERIFY(!offer->isVisible());
    }

    void operatorAndCircleFromTheNumber()
    {
        // Two terminals of one shop on one server: the counter (page) and a second terminal (other).
        Terminal t;
        ApiClient otherApi(t.server.baseUrl(), t.key.keyId, t.key.secret);
        TerminalContext otherContext(otherApi, t.dir.filePath(QStringLiteral("other.ini")));
        MobileRechargePage page(t.context);
        MobileRechargePage other(otherContext);
        const QString customer = QStringLiteral("9812345670");

        // Sold with Jio in Karnataka at the counter, by the keyboard.
        showActive(page);
        QTest::keyClicks(focused(), customer);
        QSignalSpy counterAnswered(&page, &MobileRechargePage::numberLookupAnswered);
        QTRY_COMPARE_WITH_TIMEOUT(counterAnswered.count(), 1, kTimeoutMs);
        QCOMPARE(counterAnswered.last().at(1).toBool(), false); // never sold: nothing filled, nothing said
        QCOMPARE(child<QComboBox>(page, "operator")->currentIndex(), -1);
        QCOMPARE(page.operatorHint()->text(), QString());
        QTest::keyClick(focused(), Qt::Key_Tab);
        QTest::keyClicks(focused(), QStringLiteral("J"));
        QTest::keyClick(focused(), Qt::Key_Tab);
        QTest::keyClicks(focused(), QStringLiteral("K"));
        QTest::keyClick(focused(), Qt::Key_Tab);
        QTest::keyClicks(focused(), QStringLiteral("299"));
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        QCOMPARE(page.flow()->resultPanel()->badge()->status(), QStringLiteral("SUCCESS"));
        page.hide();

        // The other terminal fills Jio and Karnataka as the tenth digit is typed, and says where from.
        showActive(other);
        auto *number = child<QLineEdit>(other, "phoneNumber");
        auto *op = child<QComboBox>(other, "operator");
        auto *circle = child<QComboBox>(other, "circle");
        QLabel *hint = other.operatorHint();
        QTest::keyClicks(number, customer.left(9));
        QCOMPARE(op->currentIndex(), -1);
        QTest::keyClicks(number, customer.right(1));
        QTRY_COMPARE_WITH_TIMEOUT(op->currentData().toString(), QStringLiteral("RJ"), kTimeoutMs);
        QCOMPARE(circle->currentData().toString(), QStringLiteral("KA"));
        QTRY_COMPARE_WITH_TIMEOUT(hint->text(), QStringLiteral("Last recharged with Jio today."), kTimeoutMs);
        settleLayouts();
        other.grab().save(QStringLiteral("/tmp/i28/shots/i29_number_known.png"));
        // One key changes it, as before: the operator by its first letter.
        QTest::keyClick(number, Qt::Key_Tab);
        QCOMPARE(focused(), op);
        QTest::keyClicks(focused(), QStringLiteral("V"));
        QCOMPARE(op->currentData().toString(), QStringLiteral("VI"));

        // Ported: a later successful sale with Airtel (from yet another terminal, over HTTP) wins.
        const QJsonObject ported = t.sellOverHttp(customer, QStringLiteral("AT"), QStringLiteral("199"));
        QCOMPARE(ported.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        number->clear();
        QCOMPARE(op->currentData().toString(), QStringLiteral("VI")); // the clerk's choice stays until an answer
        op->setCurrentIndex(-1);
        QTest::keyClicks(number, customer);
        QTRY_COMPARE_WITH_TIMEOUT(op->currentData().toString(), QStringLiteral("AT"), kTimeoutMs);
        QCOMPARE(circle->currentData().toString(), QStringLiteral("KA")); // the Airtel sale named no circle
        QTRY_COMPARE_WITH_TIMEOUT(hint->text(), QStringLiteral("Last recharged with Airtel today."), kTimeoutMs);
        // Another day: the date of that sale.
        t.backdateSales(3 * 24 * 60);
        number->clear();
        QTest::keyClicks(number, customer);
        const QString day =
            IstTime::toIst(QDateTime::currentDateTimeUtc().addDays(-3)).toString(QStringLiteral("d MMM"));
        QTRY_COMPARE_WITH_TIMEOUT(hint->text(), QStringLiteral("Last recharged with Airtel on %1.").arg(day),
                                  kTimeoutMs);

        // A choice the clerk makes while the answer travels is not overruled.
        QSignalSpy answered(&other, &MobileRechargePage::numberLookupAnswered);
        number->clear();
        op->setCurrentIndex(-1);
        QTest::keyClicks(number, customer);
        op->setCurrentIndex(op->findData(QStringLiteral("BS")));
        QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, kTimeoutMs);
        QCOMPARE(answered.last().at(1).toBool(), true);
        QCOMPARE(op->currentData().toString(), QStringLiteral("BS"));
    }

    void operatorAndCircleFromTheDistributor()
    {
        // The shop never sold to the number; its upstream RechargeDesk (the distributor) did, with Airtel in Delhi.
        QTemporaryDir dir;
        DistributorKnowsServer server;
        const QDateTime soldAt = QDateTime::currentDateTimeUtc().addDays(-5);
        const NumberInfo::Sighting sighting{QStringLiteral("AT"), QStringLiteral("DL"), soldAt, 3,
                                            QStringLiteral("upstream")};
        server.known = NumberInfo{QStringLiteral("9812345670"), sighting, sighting};
        ApiClient api(server.baseUrl(), QStringLiteral("test_counter1"), QStringLiteral("secret"));
        TerminalContext context(api, dir.filePath(QStringLiteral("prefs.ini")));
        MobileRechargePage page(context);
        showActive(page);
        auto *number = child<QLineEdit>(page, "phoneNumber");
        auto *op = child<QComboBox>(page, "operator");
        auto *circle = child<QComboBox>(page, "circle");
        QSignalSpy answered(&page, &MobileRechargePage::numberLookupAnswered);

        // Another number: 404, nothing filled, nothing said.
        QTest::keyClicks(number, QStringLiteral("9812345671"));
        QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, kTimeoutMs);
        QCOMPARE(answered.last().at(1).toBool(), false);
        QCOMPARE(op->currentIndex(), -1);
        QVERIFY(page.operatorHint()->text().isEmpty());
        const QString circleBefore = circle->currentData().toString();
        QVERIFY(circleBefore != QLatin1String("DL"));

        // The known number, typed to its tenth digit: Airtel and Delhi filled, and where they came from.
        QTest::keyClick(number, Qt::Key_Backspace);
        QTest::keyClicks(number, QStringLiteral("0"));
        QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 2, kTimeoutMs);
        QCOMPARE(answered.last().at(0).toString(), QStringLiteral("9812345670"));
        QCOMPARE(answered.last().at(1).toBool(), true);
        QCOMPARE(op->currentData().toString(), QStringLiteral("AT"));
        QCOMPARE(circle->currentData().toString(), QStringLiteral("DL"));
        const QString day = IstTime::toIst(soldAt).toString(QStringLiteral("d MMM"));
        QCOMPARE(page.operatorHint()->text(),
                 QStringLiteral("Last recharged with Airtel on %1, from the distributor.").arg(day));
        QCOMPARE(server.requests(QStringLiteral("GET"), QStringLiteral("/api/v1/numbers/9812345670")).size(), 1);
        settleLayouts();
        page.grab().save(QStringLiteral("/tmp/i28/shots/i29_number_from_distributor.png"));
    }

    void numberLookupFailureBlocksNothing()
    {
        RelayedTerminal t;
        t.relay.goOffline();
        MobileRechargePage page(t.context);
        showActive(page);
        QSignalSpy answered(&page, &MobileRechargePage::numberLookupAnswered);
        QTest::keyClicks(focused(), QStringLiteral("9812345670"));
        QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, kTimeoutMs);
        QCOMPARE(answered.last().at(1).toBool(), false);
        auto *op = child<QComboBox>(page, "operator");
        QCOMPARE(op->currentIndex(), -1);
        QVERIFY(page.operatorHint()->text().isEmpty());
        QVERIFY(fieldError(page, QStringLiteral("phone_number")).isEmpty());
        // The clerk goes on by the keyboard as ever.
        QTest::keyClick(focused(), Qt::Key_Tab);
        QCOMPARE(focused(), op);
        QTest::keyClicks(focused(), QStringLiteral("J"));
        QCOMPARE(op->currentData().toString(), QStringLiteral("RJ"));
    }

    void raiseComplaintFromTheResult()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        showActive(page);
        fillMobile(page, QStringLiteral("9812300002"), QStringLiteral("AT"), QStringLiteral("249"));
        QTest::keyClick(focused(), Qt::Key_Return);
        SaleFlow *flow = page.flow();
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        QCOMPARE(flow->resultPanel()->badge()->status(), QStringLiteral("SUCCESS"));
        ComplaintSection *section = flow->resultPanel()->complaints();
        QTRY_VERIFY_WITH_TIMEOUT(section->raiseButton()->isVisible(), kTimeoutMs);

        // Alt+C, then Enter: "Not received" is chosen first.
        QTest::keyClick(focused(), Qt::Key_C, Qt::AltModifier);
        RaiseComplaintDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = page.findChild<RaiseComplaintDialog *>()) && dialog->isVisible(),
                                 kTimeoutMs);
        QTRY_COMPARE(focused(), dialog->findChild<QWidget *>(QStringLiteral("complaintReason")));
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(section->stateLabel()->isVisible(), kTimeoutMs);
        QVERIFY2(section->stateLabel()->text().contains(QLatin1String("(Not received)")),
                 qPrintable(section->stateLabel()->text()));
        QCOMPARE(t.sql(QStringLiteral("SELECT COUNT(*) FROM complaints WHERE reason = 'not_received'")), 1);
        QVERIFY(!section->raiseButton()->isVisible());
        settleLayouts();
        page.grab().save(QStringLiteral("/tmp/i28/shots/i29_result_complaint.png"));
    }

    void repeatLastWithinTenMinutesStillAsks()
    {
        Terminal t;
        t.sellOverHttp(QStringLiteral("9876512345"), QStringLiteral("RJ"), QStringLiteral("299"));
        MobileRechargePage page(t.context);
        showActive(page);
        QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876512345"));
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(page, "repeatLast")->isVisible(), kTimeoutMs);
        QTest::keyClick(focused(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(page.flow()->stage(), SaleFlow::Stage::RepeatWarning, kTimeoutMs);
        QTest::keyClick(focused(), Qt::Key_Y);
        QCOMPARE(page.flow()->stage(), SaleFlow::Stage::Confirm);
    }

    void kioskSizesStillFit()
    {
        Terminal t;
        MobileRechargePage page(t.context);
        page.setProperty("kiosk", true);
        page.setStyleSheet(QStringLiteral(" ")); // re-polish with the kiosk rules
        // Kiosk navigation is 260 px wide on a 1366 px screen.
        page.resize(1366 - 260, 768);
        page.show();
        QTest::keyClick(child<QLineEdit>(page, "phoneNumber"), Qt::Key_Return);
        QVERIFY(page.flow()->form()->errorLabel(QStringLiteral("amount"))->isVisible());
        QVERIFY(page.flow()->form()->minimumSizeHint().width() <= page.width());
        QVERIFY(child<QLineEdit>(page, "phoneNumber")->height() >= 56);
        shot(page, QStringLiteral("mobile_kiosk_errors"));
    }

    void networkErrorRetryReusesReference()
    {
        RelayedTerminal terminal;
        TestServer &server = terminal.server;
        FlakyRelay &relay = terminal.relay;
        TerminalContext &context = terminal.context;
        const auto balance = [&server] {
            return server.http()
                .get(server.url(QStringLiteral("/api/v1/wallet")), server.admin())
                .data()
                .value(QStringLiteral("balance"))
                .toString();
        };

        MobileRechargePage page(context);
        page.resize(1366, 768);
        page.show();
        QTest::keyClicks(child<QLineEdit>(page, "phoneNumber"), QStringLiteral("9876543210"));
        auto *op = child<QComboBox>(page, "operator");
        op->setCurrentIndex(op->findData(QStringLiteral("AT")));
        QTest::keyClicks(child<QLineEdit>(page, "amount"), QStringLiteral("100"));
        QTest::keyClick(child<QLineEdit>(page, "amount"), Qt::Key_Return);
        SaleFlow *flow = page.flow();
        SaleConfirmPanel *confirm = flow->confirmPanel();
        QTRY_COMPARE_WITH_TIMEOUT(confirm->walletAfterLabel()->text(), QStringLiteral("₹9,902.00"), kTimeoutMs);
        const QString reference = flow->referenceId();

        // The sale reaches the server but its answer is lost: Retry, same reference.
        relay.mode = FlakyRelay::Mode::DropAnswers;
        QTest::keyClick(confirm->confirmButton(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(confirm->problemLabel()->isVisible(), kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QVERIFY(confirm->confirmButton()->text().contains(QLatin1String("Retry")));
        QCOMPARE(balance(), QStringLiteral("₹9902.00")); // the server did sell it
        shot(page, QStringLiteral("mobile_retry"));

        // Server unreachable: still the same reference.
        relay.mode = FlakyRelay::Mode::Refuse;
        QTest::keyClick(confirm->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Confirm, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(confirm->problemLabel()->isVisible(), kTimeoutMs);
        QCOMPARE(flow->referenceId(), reference);

        // Back online: the retry returns the original transaction; the wallet was debited once.
        relay.mode = FlakyRelay::Mode::Forward;
        QTest::keyClick(confirm->confirmButton(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(flow->stage(), SaleFlow::Stage::Result, kTimeoutMs);
        QCOMPARE(flow->resultPanel()->badge()->status(), QStringLiteral("SUCCESS"));
        QCOMPARE(flow->resultPanel()->detail(QStringLiteral("reference_id"))->text(), reference);
        QCOMPARE(balance(), QStringLiteral("₹9902.00"));
        const HttpResult list = server.http().get(server.url(QStringLiteral("/api/v1/transactions")), server.admin());
        QCOMPARE(list.data().value(QStringLiteral("count")).toInteger(), 1);
    }
};

QTEST_MAIN(TestUiSales)
#include "tst_ui_sales.moc"
