// The terminal's wiring (issue 14): ServerHost runs the embedded server on its own thread, and openTerminal()
// (what `rechargedesk` runs) reads the command line, starts that server on port 0 and opens the window
// against it; first run goes through the API. Also `rechargedesk --version`.
#include "clock.h"
#include "customerdisplay/customerdisplay.h"
#include "httpclient.h"
#include "serverhost.h"
#include "serverprocess.h"
#include "signinpage.h"
#include "store/database.h"
#include "terminalcommand.h"
#include "terminalview.h"
#include "users/shopsetup.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

namespace {

QWidget *currentPage(MainWindow &window)
{
    return qobject_cast<QStackedWidget *>(window.centralWidget())->currentWidget();
}

QStringList terminalArguments(const QString &dataDir, const QStringList &more = {})
{
    return QStringList{QStringLiteral("rechargedesk"), QStringLiteral("--data-dir"), dataDir} + more;
}

} // namespace

class TestServerHost final : public QObject
{
    Q_OBJECT

private slots:
    void startsOnPortZeroOnItsOwnThread()
    {
        QTemporaryDir dir;
        ServerOptions options;
        options.port = 0;
        options.dataDir = dir.path();
        ServerHost host(dir.filePath(QStringLiteral("rechargedesk.db")), options);
        QString error;
        QVERIFY2(host.startAndWait(&error), qPrintable(error));
        QVERIFY(host.isRunning());
        QCOMPARE(host.url().host(), QStringLiteral("127.0.0.1"));
        QVERIFY(host.url().port() > 0);
        HttpClient http;
        const HttpResult health = http.get(host.url().resolved(QUrl(QStringLiteral("/healthz"))));
        QCOMPARE(health.status, 200);
    }

    /// Fills the first-run page as the shopkeeper does (shop name, home circle chosen by typing, admin name, PIN
    /// twice) and presses Enter.
    static void typeFirstRun(MainWindow &window)
    {
        const QList<QLineEdit *> edits = window.firstRunPage()->findChildren<QLineEdit *>();
        QTest::keyClicks(edits.at(0), QStringLiteral("Sharma Mobile Point"));
        auto *circle = window.firstRunPage()->findChild<QComboBox *>(QStringLiteral("homeCircle"));
        QVERIFY(circle);
        circle->setFocus();
        QTest::keyClicks(circle, QStringLiteral("Raj"));
        QCOMPARE(circle->currentData().toString(), QStringLiteral("RJ"));
        QTest::keyClicks(edits.at(2), QStringLiteral("Asha"));
        QTest::keyClicks(edits.at(3), QStringLiteral("482193"));
        QTest::keyClicks(edits.at(4), QStringLiteral("482193"));
        QTest::keyClick(edits.at(4), Qt::Key_Return);
    }

    void aBusyPortIsAnError()
    {
        QTcpServer busy;
        QVERIFY(busy.listen(QHostAddress::LocalHost, 0));
        QTemporaryDir dir;
        ServerOptions options;
        options.port = busy.serverPort();
        options.dataDir = dir.path();
        ServerHost host(dir.filePath(QStringLiteral("rechargedesk.db")), options);
        QString error;
        QVERIFY(!host.startAndWait(&error));
        QVERIFY2(error.contains(QStringLiteral("cannot listen")), qPrintable(error));
        QVERIFY(host.isFinished());
    }

    void firstRunThroughTheEmbeddedServer()
    {
        QTemporaryDir dir;
        int exitCode = -1;
        std::optional<TerminalSession> session = openTerminal(terminalArguments(dir.path()), &exitCode);
        QVERIFY(session);
        QVERIFY(session->host);
        MainWindow &window = *session->window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.firstRunPage());
        QCOMPARE(currentPage(window), window.firstRunPage());

        // Typed as the shopkeeper does; the page sends it to the server and the sign-in page follows.
        QCOMPARE(window.firstRunPage()->findChildren<QLineEdit *>().size(), 5);
        typeFirstRun(window);
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.signInPage(), 10000);

        // The server wrote the terminal's key to the data directory: the next start signs in with it.
        QSettings ini(dir.filePath(ShopSetup::terminalConfigFileName()), QSettings::IniFormat);
        const QString keyId = ini.value(QStringLiteral("server/key_id")).toString();
        const QString secret = ini.value(QStringLiteral("server/key_secret")).toString();
        QVERIFY(keyId.startsWith(QLatin1String("test_")));
        HttpClient http;
        QCOMPARE(http.get(session->host->url().resolved(QUrl(QStringLiteral("/api/v1/wallet"))),
                          HttpClient::basic(keyId, secret))
                     .status,
                 200);
        // Sign in as the admin just created.
        SignInPage *signIn = window.signInPage();
        const QList<QLineEdit *> signInEdits = signIn->findChildren<QLineEdit *>();
        QTest::keyClicks(signInEdits.at(1), QStringLiteral("482193"));
        QTest::keyClick(signInEdits.at(1), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), 10000);
    }

    void theServersRefusalShowsOnTheFirstRunScreen()
    {
        QTemporaryDir dir;
        int exitCode = -1;
        std::optional<TerminalSession> session = openTerminal(terminalArguments(dir.path()), &exitCode);
        QVERIFY(session);
        MainWindow &window = *session->window;
        loadTerminalStyle(*qApp);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Someone set the shop up meanwhile (`rechargedesk setup` on the same data directory).
        {
            QString error;
            std::unique_ptr<Database> db = Database::open(dir.filePath(QStringLiteral("rechargedesk.db")), &error);
            QVERIFY2(db, qPrintable(error));
            SystemClock clock;
            ShopSetup::run(*db, clock,
                           ShopSetupParams{QStringLiteral("Shop"), QString(), QStringLiteral("Ravi"),
                                           QStringLiteral("135790"), QString()});
        }
        typeFirstRun(window);
        auto *general = window.firstRunPage()->findChild<QLabel *>(QStringLiteral("generalError"));
        QVERIFY(general);
        QTRY_VERIFY_WITH_TIMEOUT(general->isVisible(), 10000);
        QVERIFY2(general->text().contains(QStringLiteral("already set up")), qPrintable(general->text()));
        QCOMPARE(currentPage(window), window.firstRunPage());
        auto *create = window.firstRunPage()->findChild<QPushButton *>(QStringLiteral("primary"));
        QVERIFY(create && create->isEnabled());
        if (!qEnvironmentVariableIsEmpty("RECHARGEDESK_SHOTS_DIR"))
            window.grab().save(qEnvironmentVariable("RECHARGEDESK_SHOTS_DIR") +
                               QStringLiteral("/firstrun_refused.png"));
    }

    void secondStartUsesTheKeyAndOffersNoSetup()
    {
        QTemporaryDir dir;
        {
            int exitCode = -1;
            std::optional<TerminalSession> first = openTerminal(terminalArguments(dir.path()), &exitCode);
            QVERIFY(first);
            QVERIFY(first->window->firstRunPage());
        }
        // A shop set up meanwhile (as `rechargedesk setup` does, same data directory) opens at sign-in.
        {
            QString error;
            std::unique_ptr<Database> db = Database::open(dir.filePath(QStringLiteral("rechargedesk.db")), &error);
            QVERIFY2(db, qPrintable(error));
            SystemClock clock;
            ShopSetup::run(*db, clock,
                           ShopSetupParams{QStringLiteral("Shop"), QString(), QStringLiteral("Asha"),
                                           QStringLiteral("482193"), dir.path()});
        }
        int exitCode = -1;
        std::optional<TerminalSession> second = openTerminal(terminalArguments(dir.path()), &exitCode);
        QVERIFY(second);
        QVERIFY(!second->window->firstRunPage());
        QVERIFY(second->window->signInPage());
    }

    // Issue 28: --customer-display[=N] opens the customer display as a window of its own once the terminal is
    // connected (a bare option means the second screen, shown as a plain window when there is none); a screen that
    // is not a number is a usage error.
    void customerDisplayOption()
    {
        QTemporaryDir dir;
        int exitCode = -1;
        QVERIFY(!openTerminal(terminalArguments(dir.path(), {QStringLiteral("--customer-display=left")}), &exitCode));
        QCOMPARE(exitCode, 2);
        std::optional<TerminalSession> session =
            openTerminal(terminalArguments(dir.path(), {QStringLiteral("--customer-display")}), &exitCode);
        QVERIFY(session);
        MainWindow &window = *session->window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.customerDisplay()); // not before the shop exists
        typeFirstRun(window);
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.signInPage(), 10000);
        QVERIFY(window.customerDisplay());
        QVERIFY(window.customerDisplay()->isVisible());
        QCOMPARE(window.customerDisplay()->panel()->state().stage, CustomerDisplayState::Stage::Idle);
    }

    void listenUsesTheOneRule()
    {
        QTemporaryDir dir;
        int exitCode = -1;
        std::optional<TerminalSession> v6 = openTerminal(
            terminalArguments(dir.path(), {QStringLiteral("--listen"), QStringLiteral("[::1]:0")}), &exitCode);
        QVERIFY(v6);
        QCOMPARE(v6->host->url().host(), QStringLiteral("::1"));
        v6.reset();

        // What serve refuses the terminal refuses too: usage error 2, no server, no window.
        for (const QString &bad :
             {QStringLiteral("::1:0"), QStringLiteral("127.0.0.1:65536"), QStringLiteral("shop.lan:8080")}) {
            exitCode = -1;
            QVERIFY2(!openTerminal(terminalArguments(dir.path(), {QStringLiteral("--listen"), bad}), &exitCode),
                     qPrintable(bad));
            QCOMPARE(exitCode, 2);
        }
    }

    void versionCommand()
    {
        QProcess program;
        program.start(ServerProcess::binary(), {QStringLiteral("--version")});
        QVERIFY(program.waitForFinished(30000));
        QCOMPARE(program.exitCode(), 0);
        QCOMPARE(program.readAllStandardOutput(), QByteArray("rechargedesk " RECHARGEDESK_EXPECTED_VERSION "\n"));
    }
};

QTEST_MAIN(TestServerHost)
#include "tst_serverhost.moc"
