// The terminal shell over the real server: first run, sign-in, TEST MODE banner, status bar,
// lock (Ctrl+L and idle), typed into the real widgets on the offscreen platform.
#include "apierror.h"
#include "backoffice/backofficeview.h"
#include "backoffice/collectionmodel.h"
#include "backoffice/userspage.h"
#include "mainwindow.h"
#include "signinpage.h"
#include "statuspanel.h"
#include "terminal/planspage.h"
#include "terminalfixture.h"
#include "terminalview.h"
#include "users/shopsetup.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QStackedWidget>
#include <QTest>
#include <QTimer>

class TestUiTerminal final : public QObject
{
    Q_OBJECT

private:
    /// terminalOptions() of a shop already set up (first run done) with admin `adminName` / `adminPin`: the terminal
    /// starts at the sign-in page with the key setup made.
    static TerminalOptions setUpShopOptions(TestServer &server, const QString &dir, const QString &adminName,
                                            const QString &adminPin)
    {
        return ::setUpShopOptions(
            server, dir, ShopSetupParams{QStringLiteral("Shop"), QString(), adminName, adminPin, QString()}, 120);
    }

    /// The focus is inside the screen `id`, on a field, and not on the Lock button.
    static void checkFocusOnScreen(MainWindow &window, const QString &id)
    {
        QWidget *screen = window.terminalView()->screen(id);
        QVERIFY(screen && screen->isVisible());
        QWidget *lock = window.terminalView()->findChild<QWidget *>(QStringLiteral("lockButton"));
        QVERIFY(lock);
        QTRY_VERIFY(QApplication::focusWidget());
        QVERIFY2(QApplication::focusWidget() != lock, "focus is on the Lock button");
        QVERIFY2(screen->isAncestorOf(QApplication::focusWidget()),
                 qPrintable(QApplication::focusWidget()->objectName()));
    }

private slots:
    void firstRunThenSignInThenLock()
    {
        TestServer server;
        QTemporaryDir dir;
        MainWindow window(terminalOptions(server, dir.path(), 120));
        window.resize(1366, 768);
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.firstRunPage());
        QCOMPARE(currentPage(window), window.firstRunPage());

        // A PIN mismatch is caught on the screen, nothing is sent.
        const QList<QLineEdit *> edits = window.firstRunPage()->findChildren<QLineEdit *>();
        QCOMPARE(edits.size(), 5);
        QTest::keyClicks(edits.at(0), QStringLiteral("Sharma Mobile Point"));
        QTest::keyClicks(edits.at(1), QStringLiteral("Shop 4, MG Road, Pune"));
        QTest::keyClicks(edits.at(2), QStringLiteral("Asha"));
        QTest::keyClicks(edits.at(3), QStringLiteral("482193"));
        QTest::keyClicks(edits.at(4), QStringLiteral("482194"));
        QTest::keyClick(edits.at(4), Qt::Key_Return);
        QCOMPARE(currentPage(window), window.firstRunPage());
        QVERIFY(!ShopSetup::isDone(server.db()));
        // Issue 27: the shop's home circle is asked for (the Plans screen opens on it), chosen by typing.
        auto *circle = window.firstRunPage()->findChild<QComboBox *>(QStringLiteral("homeCircle"));
        QVERIFY(circle);
        const auto circleError = [&window] {
            const QList<QLabel *> errors = window.firstRunPage()->findChildren<QLabel *>(QStringLiteral("fieldError"));
            return std::any_of(errors.cbegin(), errors.cend(), [](const QLabel *label) {
                return label->isVisible() && label->text().contains(QStringLiteral("circle"));
            });
        };
        QVERIFY(circleError());
        circle->setFocus();
        QTest::keyClicks(circle, QStringLiteral("Karn"));
        QCOMPARE(circle->currentData().toString(), QStringLiteral("KA"));
        window.grab().save(QStringLiteral("/tmp/roles_firstrun_circle.png"));

        // An admin PIN of 4 digits is too short (issue 12): said at the PIN, nothing is sent.
        const auto firstRunError = [&window]() -> QString {
            for (QLabel *label : window.firstRunPage()->findChildren<QLabel *>(QStringLiteral("fieldError"))) {
                if (label->isVisible())
                    return label->text();
            }
            return QString();
        };
        edits.at(3)->clear();
        edits.at(4)->clear();
        QTest::keyClicks(edits.at(3), QStringLiteral("4821"));
        QTest::keyClicks(edits.at(4), QStringLiteral("4821"));
        QTest::keyClick(edits.at(4), Qt::Key_Return);
        QVERIFY2(firstRunError().contains(QStringLiteral("6 to 8 digits")), qPrintable(firstRunError()));
        window.grab().save(QStringLiteral("/tmp/roles_firstrun_short_pin.png"));
        QCOMPARE(currentPage(window), window.firstRunPage());
        QVERIFY(!ShopSetup::isDone(server.db()));

        edits.at(3)->clear();
        edits.at(4)->clear();
        QTest::keyClicks(edits.at(3), QStringLiteral("482193"));
        QTest::keyClicks(edits.at(4), QStringLiteral("482193"));
        QTest::keyClick(edits.at(4), Qt::Key_Return);
        QTRY_COMPARE(currentPage(window), window.signInPage());
        QVERIFY(ShopSetup::isDone(server.db()));
        // Nobody has used the terminal yet: the page says "Sign in", not "Locked" (issue 27).
        QCOMPARE(window.signInPage()->findChild<QLabel *>(QStringLiteral("pageTitle"))->text(),
                 QStringLiteral("Sign in"));
        // The terminal now holds a pos key: no back-office power without an admin's session.
        const QList<ApiKeyRow> keys = ApiKeyService(server.db(), SystemClock()).list();
        const auto terminalKey = std::find_if(keys.cbegin(), keys.cend(),
                                              [](const ApiKeyRow &key) { return key.name == ShopSetup::keyName(); });
        QVERIFY(terminalKey != keys.cend());
        QCOMPARE(terminalKey->scope, Scope::Pos);

        // Wrong PIN: an error in words, still on the sign-in page.
        signIn(window, QStringLiteral("Asha"), QStringLiteral("0000"));
        const auto visibleError = [&window]() -> QString {
            for (QLabel *label : window.signInPage()->findChildren<QLabel *>()) {
                if ((label->objectName() == QLatin1String("fieldError") ||
                     label->objectName() == QLatin1String("generalError")) &&
                    label->isVisible())
                    return label->text();
            }
            return QString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(!visibleError().isEmpty(), 10000);
        QVERIFY2(visibleError().contains(QStringLiteral("attempt")), qPrintable(visibleError()));
        QCOMPARE(currentPage(window), window.signInPage());

        signIn(window, QStringLiteral("Asha"), QStringLiteral("482193"));
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), 10000);
        QVERIFY(visibleError().isEmpty());
        QCOMPARE(window.context()->user().name, QStringLiteral("Asha"));
        QVERIFY(window.context()->user().isAdmin);
        auto *banner = window.terminalView()->findChild<QLabel *>(QStringLiteral("testModeBanner"));
        QVERIFY(banner && banner->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(window.statusPanel()->walletText().contains(QStringLiteral("₹")), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusPanel()->serverText().contains(QStringLiteral("online")), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(window.context()->shopName(), QStringLiteral("Sharma Mobile Point"), 10000);
        // Issue 10: focus lands on the first field of the screen shown, never on Lock.
        checkFocusOnScreen(window, QStringLiteral("verify"));
        // Plans opens on the home circle chosen at first run (issue 27).
        QVERIFY(window.terminalView()->showScreen(QStringLiteral("plans")));
        auto *plans = qobject_cast<PlansPage *>(window.terminalView()->screen(QStringLiteral("plans")));
        QVERIFY(plans);
        QTRY_COMPARE(plans->circleCode(), QStringLiteral("KA"));

        // Locked on the mobile sale: after signing in again the number is ready for typing.
        QVERIFY(window.terminalView()->showScreen(QStringLiteral("mobile")));
        QTest::keyClick(&window, Qt::Key_L, Qt::ControlModifier);
        QTRY_COMPARE(currentPage(window), window.signInPage());
        signIn(window, QStringLiteral("Asha"), QStringLiteral("482193"));
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), 10000);
        checkFocusOnScreen(window, QStringLiteral("mobile"));
        QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("phoneNumber"));

        // With the pos key and Asha's session the back office works: its admin-only lists load.
        QVERIFY(window.terminalView()->showScreen(QStringLiteral("backoffice")));
        auto *backOffice = qobject_cast<BackOfficeView *>(window.terminalView()->screen(QStringLiteral("backoffice")));
        QVERIFY(backOffice);
        backOffice->setCurrentWidget(backOffice->usersPage());
        QTRY_VERIFY_WITH_TIMEOUT(backOffice->usersPage()->usersModel()->isComplete() &&
                                     backOffice->usersPage()->usersModel()->rowCount() == 1,
                                 10000);
        QVERIFY(window.terminalView()->showScreen(QStringLiteral("mobile")));

        // Ctrl+L locks; the PIN screen keeps the name.
        QTest::keyClick(&window, Qt::Key_L, Qt::ControlModifier);
        QTRY_COMPARE(currentPage(window), window.signInPage());
        QCOMPARE(window.signInPage()->findChildren<QLineEdit *>().at(0)->text(), QStringLiteral("Asha"));
        QVERIFY(window.signInPage()
                    ->findChild<QLabel *>(QStringLiteral("pageTitle"))
                    ->text()
                    .startsWith(QStringLiteral("Locked")));
        QVERIFY(window.context()->user().name.isEmpty());

        // A clerk signed in at the same terminal has no back office.
        const HttpResult clerk = server.http().postJson(server.url(QStringLiteral("/api/v1/users")),
                                                        QJsonObject{{QStringLiteral("name"), QStringLiteral("Ravi")},
                                                                    {QStringLiteral("role"), QStringLiteral("clerk")},
                                                                    {QStringLiteral("pin"), QStringLiteral("1357")}},
                                                        server.liveAdmin());
        QCOMPARE(clerk.status, 201);
        window.signInPage()->findChildren<QLineEdit *>().at(0)->clear();
        signIn(window, QStringLiteral("Ravi"), QStringLiteral("1357"));
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), 10000);
        QVERIFY(!window.context()->user().isAdmin);
        QVERIFY(!window.terminalView()->showScreen(QStringLiteral("backoffice")));
    }

    void kioskAdminPinDialogIsStyled()
    {
        // Issue 27: closing the kiosk asks for an admin in a dialog of the terminal's looks: a title, tall fields, the
        // error in red, a blue button that says what it does. A clerk's PIN is refused there; Cancel keeps the kiosk.
        TestServer server;
        QTemporaryDir dir;
        TerminalOptions options =
            setUpShopOptions(server, dir.path(), QStringLiteral("Asha"), QStringLiteral("482193"));
        options.kiosk = true;
        MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setGeometry(QRect(0, 0, 1366, 768));
        const HttpResult clerk = server.http().postJson(server.url(QStringLiteral("/api/v1/users")),
                                                        QJsonObject{{QStringLiteral("name"), QStringLiteral("Ravi")},
                                                                    {QStringLiteral("role"), QStringLiteral("clerk")},
                                                                    {QStringLiteral("pin"), QStringLiteral("1357")}},
                                                        server.liveAdmin());
        QCOMPARE(clerk.status, 201);
        QVERIFY(applyTerminalStyle()); // the looks of style.qss, for the colours below and the screenshot
        const auto plainAgain = qScopeGuard([] { qApp->setStyleSheet(QString()); });
        bool checked = false;
        // The dialog runs its own event loop inside close(): it is looked at from a timer that fires in that loop,
        // and closed whatever the checks find (a failed check returns from the lambda).
        QTimer::singleShot(0, &window, [&] {
            QDialog *dialog = nullptr;
            QTRY_VERIFY((dialog = window.findChild<QDialog *>(QStringLiteral("adminExitDialog"))) &&
                        dialog->isVisible());
            const auto closeIt = qScopeGuard([dialog] { dialog->reject(); });
            auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("adminExitName"));
            auto *pin = dialog->findChild<QLineEdit *>(QStringLiteral("adminExitPin"));
            auto *confirm = dialog->findChild<QPushButton *>(QStringLiteral("adminExitConfirm"));
            auto *error = dialog->findChild<QLabel *>(QStringLiteral("adminExitError"));
            QVERIFY(name && pin && confirm && error);
            QVERIFY2(dialog->width() >= 520, qPrintable(QString::number(dialog->width())));
            QVERIFY(name->height() >= 42 && pin->height() >= 42);
            QCOMPARE(confirm->text(), QStringLiteral("Close the kiosk"));
            QCOMPARE(confirm->palette().color(QPalette::Button), QColor(0x15, 0x70, 0xef)); // look "primary"
            QTRY_VERIFY(name->hasFocus());
            QTest::keyClicks(name, QStringLiteral("Ravi"));
            QTest::keyClicks(pin, QStringLiteral("1357"));
            QTest::keyClick(pin, Qt::Key_Return);
            QTRY_VERIFY_WITH_TIMEOUT(error->isVisible(), 10000);
            QCOMPARE(error->text(), QStringLiteral("That user is not an admin."));
            QCOMPARE(error->palette().color(QPalette::Window), QColor(0xb4, 0x23, 0x18)); // look "generalError"
            dialog->grab().save(QStringLiteral("/tmp/agentC/kiosk_admin_pin.png"));
            checked = true;
        });
        window.close();
        QVERIFY(checked);
        QVERIFY(window.isVisible()); // Cancel: the kiosk stays
    }

    void idleLock()
    {
        TestServer server;
        QTemporaryDir dir;
        TerminalOptions options =
            setUpShopOptions(server, dir.path(), QStringLiteral("Ravi"), QStringLiteral("135790"));
        options.idleLockSeconds = 1;
        MainWindow window(options);
        window.show();
        QCOMPARE(currentPage(window), window.signInPage());
        signIn(window, QStringLiteral("Ravi"), QStringLiteral("135790"));
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.signInPage(), 10000);
    }

    void sessionEndedByTheServerLocksTheTerminal()
    {
        // The server no longer accepts the session (here: every session removed, as when the user is
        // deactivated or 12 hours pass): the next call answers 401 session_invalid and the terminal
        // goes back to the sign-in page instead of running on without a person.
        TestServer server;
        QTemporaryDir dir;
        TerminalOptions options =
            setUpShopOptions(server, dir.path(), QStringLiteral("Asha"), QStringLiteral("482193"));
        MainWindow window(options);
        window.show();
        signIn(window, QStringLiteral("Asha"), QStringLiteral("482193"));
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.terminalView(), 10000);
        server.db().run(QStringLiteral("DELETE FROM user_sessions")).finish();
        QVERIFY(window.terminalView()->showScreen(QStringLiteral("backoffice")));
        auto *backOffice = qobject_cast<BackOfficeView *>(window.terminalView()->screen(QStringLiteral("backoffice")));
        QVERIFY(backOffice);
        backOffice->setCurrentWidget(backOffice->usersPage());
        backOffice->usersPage()->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(currentPage(window), window.signInPage(), 10000);
        QVERIFY(window.context()->user().name.isEmpty());
    }
};

QTEST_MAIN(TestUiTerminal)
#include "tst_ui_terminal.moc"
