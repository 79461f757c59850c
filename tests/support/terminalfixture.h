#pragma once

// For GUI tests only (they link rechargedesk_ui), the one fixture of the tst_ui_* suites: the real
// server on port 0 plus what a back-office or counter screen needs to talk to it (TerminalFixture),
// the terminal window's options against that server (terminalOptions()), and the helpers to show a
// page, sign in by typing, read the window's current page and let layouts settle.

#include "apiclient.h"
#include "apierror.h"
#include "clock.h"
#include "httpclient.h"
#include "mainwindow.h"
#include "operatorcatalog.h"
#include "services/historyseeder.h"
#include "signinpage.h"
#include "store/accountrepository.h"
#include "terminalcontext.h"
#include "terminalview.h"
#include "testserver.h"
#include "users/pinhasher.h"
#include "users/shopsetup.h"
#include "users/userrepository.h"

#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSqlQuery>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QWidget>

#include <memory>

/// The real server on port 0, a test key of `scope` (admin: a terminal.ini of before issue 12;
/// pos: as `setup` makes now, see signInAdmin()), the terminal's ApiClient (to the server, or
/// to `via` — a proxy in front of it) and a TerminalContext with preferences in a temporary
/// folder. The shop is named as on the screenshots.
struct TerminalFixture
{
    /// What a suite may change: the server's options and clock (not owned; null: the system
    /// clock), the key's mode and scope, and a proxy the terminal talks through.
    struct Setup
    {
        QUrl via;
        Mode mode = Mode::Test;
        Scope scope = Scope::Admin;
        const Clock *clock = nullptr;
        ServerOptions server = TestServer::defaultOptions();
    };

    explicit TerminalFixture(const QUrl &via = {}, Scope scope = Scope::Admin)
        : TerminalFixture(Setup{via, Mode::Test, scope})
    {}
    explicit TerminalFixture(const Setup &setup)
        : server(setup.server, setup.clock), key(server.createKeyPair(setup.mode, setup.scope)),
          api(setup.via.isEmpty() ? server.baseUrl() : setup.via, key.keyId, key.secret),
          context(api, dir.filePath(QStringLiteral("prefs.ini")))
    {
        context.setShop(QStringLiteral("Sharma Mobile Point"), QStringLiteral("12 Station Road, Jaipur"));
    }

    /// The terminal's key as an Authorization header value.
    QByteArray auth() const { return HttpClient::basic(key.keyId, key.secret); }

    /// Adds the user `name` with `pin` straight into the database (no audit entry, as an older
    /// install would have it) and signs the terminal in as that person the way the sign-in page
    /// does: every later call of `api` carries the session token. Returns the token (empty on
    /// failure, with a warning).
    QByteArray signInAs(const QString &name, const QString &pin, UserRole role)
    {
        const std::optional<qint64> account = AccountRepository(server.db()).findAccount(QStringLiteral("shop"));
        {
            UserRepository users(server.db());
            WriteTransaction transaction(server.db());
            users.insert(account.value_or(0), name, role, PinHasher::hash(pin), QDateTime::currentMSecsSinceEpoch());
            transaction.commit();
        }
        const HttpResult result =
            server.http().postJson(server.url(QStringLiteral("/api/v1/users/sign-in")),
                                   QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("pin"), pin}}, auth());
        const QJsonObject user = result.data().value(QStringLiteral("user")).toObject();
        const QString token = result.data().value(QStringLiteral("session_token")).toString();
        if (token.isEmpty())
            qWarning("sign-in of %s failed: %d %s", qPrintable(name), result.status, result.body.constData());
        api.setSessionToken(token);
        context.setUser(
            SignedInUser{user.value(QStringLiteral("id")).toInteger(), name, role == UserRole::Admin, token});
        return token.toLatin1();
    }
    /// signInAs() the shop's owner, an admin: back-office power from a session, as at a terminal
    /// with a pos key (issue 12).
    QByteArray signInAdmin() { return signInAs(QStringLiteral("Owner"), QStringLiteral("246802"), UserRole::Admin); }

    /// Fills the shop's test history with `count` sales over two years up to now (clerks Asha
    /// and Ravi), as `rechargedesk dev seed` does.
    void seedHistory(int count)
    {
        const std::optional<qint64> account = AccountRepository(server.db()).findAccount(QStringLiteral("shop"));
        if (!account)
            qFatal("no account \"shop\"");
        HistorySeeder(server.db(), OperatorCatalog::builtIn())
            .seed(*account, Mode::Test, count, QDateTime::currentMSecsSinceEpoch(),
                  {QStringLiteral("Asha"), QStringLiteral("Ravi")}, 1, {});
    }

    /// One number from SQL over the server's database (-1 when there is no row).
    qint64 sql(const QString &select, const QVariantList &values = {})
    {
        QSqlQuery &query = server.db().run(select, values);
        const qint64 value = query.next() ? query.value(0).toLongLong() : -1;
        query.finish();
        return value;
    }

    QTemporaryDir dir;
    TestServer server;
    CreatedKey key;
    ApiClient api;
    TerminalContext context;
};

/// The child widget named `name`; warns (and returns nullptr) when there is none.
template <typename T> T *child(QWidget &parent, const char *name)
{
    T *widget = parent.findChild<T *>(QLatin1String(name));
    if (!widget)
        qWarning("no child %s", name);
    return widget;
}

/// The terminal's look as `rechargedesk` sets it (the Fusion style and ui/style.qss), so sizes
/// measured in a test are the terminal's; false if the style sheet cannot be read.
inline bool applyTerminalStyle()
{
    QApplication::setStyle(QStringLiteral("Fusion"));
    QFile style(QStringLiteral(":/ui/style.qss"));
    if (!style.open(QIODevice::ReadOnly))
        return false;
    qApp->setStyleSheet(QString::fromUtf8(style.readAll()));
    return true;
}

/// The terminal window's options against `server`, preferences in `dir`, locking after
/// `idleLockSeconds`: a terminal not set up yet, whose first-run page sets the shop up through the API
/// with the test server's setup token (POST /api/v1/setup, as the embedded server's terminal does).
inline TerminalOptions terminalOptions(TestServer &server, const QString &dir, int idleLockSeconds = 600)
{
    TerminalOptions options;
    options.serverUrl = server.baseUrl();
    options.settingsPath = dir + QStringLiteral("/prefs.ini");
    options.idleLockSeconds = idleLockSeconds;
    options.setupToken = TestServer::defaultOptions().setupToken;
    return options;
}

/// terminalOptions() of a shop `rechargedesk setup` has already set up with `shop` (first run
/// done): the window starts at the sign-in page, with the key the setup made.
inline TerminalOptions setUpShopOptions(TestServer &server, const QString &dir, const ShopSetupParams &shop,
                                        int idleLockSeconds = 600)
{
    TerminalOptions options = terminalOptions(server, dir, idleLockSeconds);
    SystemClock clock;
    const CreatedKey key = ShopSetup::run(server.db(), clock, shop);
    options.keyId = key.keyId;
    options.keySecret = key.secret;
    return options;
}

/// A shop as `rechargedesk setup` leaves it (admin Asha, PIN 482193, idle lock after an hour) with 200 seeded test
/// sales by `sellers`, for the suites that open the whole window against real data (tst_ui_layout, tst_ui_fit).
struct SeededShop
{
    explicit SeededShop(const QStringList &sellers = {QStringLiteral("Asha")})
        : options(
              setUpShopOptions(server, dir.path(),
                               ShopSetupParams{QStringLiteral("Sharma Mobile Point"), QStringLiteral("12 Station Road"),
                                               QStringLiteral("Asha"), QStringLiteral("482193"), QString()},
                               3600))
    {
        const std::optional<qint64> account = AccountRepository(server.db()).findAccount(QStringLiteral("shop"));
        HistorySeeder(server.db(), OperatorCatalog::builtIn())
            .seed(*account, Mode::Test, 200, QDateTime::currentMSecsSinceEpoch(), sellers, 1, {});
    }

    /// The terminal's key as an Authorization header value.
    QByteArray auth() const { return HttpClient::basic(options.keyId, options.keySecret); }
    /// The window's options, in kiosk mode or not.
    TerminalOptions windowOptions(bool kiosk) const
    {
        TerminalOptions kept = options;
        kept.kiosk = kiosk;
        return kept;
    }

    QTemporaryDir dir;
    TestServer server;
    TerminalOptions options; ///< the window's, kiosk off
};

/// The page the terminal window shows now (first run, sign-in or the terminal).
inline QWidget *currentPage(MainWindow &window)
{
    return qobject_cast<QStackedWidget *>(window.centralWidget())->currentWidget();
}

/// Signs in at the window's sign-in page as a person does: types `name`, Enter, `pin`, Enter.
inline void signIn(MainWindow &window, const QString &name, const QString &pin)
{
    const QList<QLineEdit *> edits = window.signInPage()->findChildren<QLineEdit *>();
    QLineEdit *nameEdit = edits.at(0);
    QLineEdit *pinEdit = edits.at(1);
    nameEdit->clear();
    QTest::keyClicks(nameEdit, name);
    QTest::keyClick(nameEdit, Qt::Key_Return);
    QTest::keyClicks(pinEdit, pin);
    QTest::keyClick(pinEdit, Qt::Key_Return);
}

/// The terminal window of `shop` at `screen` (kiosk or not), active, signed in as its admin; nullptr (with a
/// warning) when signing in does not finish.
inline std::unique_ptr<MainWindow> openSignedIn(const SeededShop &shop, bool kiosk, const QSize &screen)
{
    auto window = std::make_unique<MainWindow>(shop.windowOptions(kiosk));
    window->resize(screen);
    window->show();
    QApplication::setActiveWindow(window.get());
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    if (kiosk) // offscreen "full screen" is the platform's 800×600 screen: use the size under test
        window->setGeometry(QRect(QPoint(0, 0), screen));
    window->setProperty("screenSize", screen);
    signIn(*window, QStringLiteral("Asha"), QStringLiteral("482193"));
    if (!QTest::qWaitFor([&] { return currentPage(*window) == window->terminalView(); }, 10'000)) {
        qWarning("sign-in did not finish");
        return nullptr;
    }
    return window;
}

/// Shows `page` at a laptop screen's size as the active window (shortcuts and focus need it);
/// a failed check of the test if it does not become active.
inline void showActive(QWidget &page)
{
    page.resize(1366, 768);
    page.show();
    QApplication::setActiveWindow(&page);
    QVERIFY(QTest::qWaitForWindowActive(&page));
}

/// The object names of `page`'s widgets in the order Tab visits them (those that take focus by Tab, shown or not),
/// starting after `page` itself: a page's tab order as the clerk meets it.
inline QStringList tabOrder(QWidget &page)
{
    QStringList names;
    for (QWidget *w = page.nextInFocusChain(); w && w != &page; w = w->nextInFocusChain()) {
        if ((w->focusPolicy() & Qt::TabFocus) && page.isAncestorOf(w))
            names << w->objectName();
    }
    return names;
}

/// Saves `page` as NAME.png in $RECHARGEDESK_SCREENSHOT_DIR when that is set (for the README's
/// screenshots); does nothing otherwise.
inline void screenshot(QWidget &page, const QString &name)
{
    const QString dir = qEnvironmentVariable("RECHARGEDESK_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(page.grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

/// Runs the layout requests already posted (a layout that activates may post one for its parent,
/// hence a few rounds), as the screen would before its next paint: a grab() or a measurement
/// then sees the final layout. It waits for nothing else.
inline void settleLayouts()
{
    for (int round = 0; round < 4; ++round)
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
}

/// Waits (up to 10 s) for the "are you sure" box BackOfficeUi::confirm() opens under `parent` and
/// presses its confirming button; false if none appears.
inline bool pressConfirm(QWidget &parent)
{
    QMessageBox *box = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                box = parent.findChild<QMessageBox *>(QStringLiteral("confirmBox"));
                return box && box->isVisible();
            },
            10'000))
        return false;
    auto *yes = box->findChild<QPushButton *>(QStringLiteral("confirmButton"));
    if (!yes)
        return false;
    QTest::mouseClick(yes, Qt::LeftButton);
    return true;
}
