#include "mainwindow.h"

#include "apiclient.h"
#include "counterprefs.h"
#include "customerdisplay/customerdisplay.h"
#include "receipts/cashdrawer.h"
#include "shift/shiftcontroller.h"
#include "signinpage.h"
#include "statuspanel.h"
#include "terminal/planspage.h"
#include "terminalview.h"
#include "tlspin.h"
#include "usersapi.h"
#include "widgets/look.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QFormLayout>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>
#include <QWindow>

MainWindow::MainWindow(TerminalOptions options, QWidget *parent)
    : QMainWindow(parent), m_options(std::move(options)), m_pages(new QStackedWidget(this))
{
    setWindowTitle(tr("RechargeDesk"));
    setCentralWidget(m_pages);
    // The banner sits where a menu bar would (the window has none), above every page.
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("connectionBanner"));
    Look::set(m_banner, "connectionBanner");
    m_banner->setWordWrap(true);
    m_banner->hide();
    setMenuWidget(m_banner);
    const QHostAddress serverAddress(m_options.serverUrl.host());
    const bool loopback = m_options.serverUrl.host() == QLatin1String("localhost") ||
                          (!serverAddress.isNull() && serverAddress.isLoopback());
    if (m_options.serverUrl.scheme() == QLatin1String("http") && !loopback)
        showBanner(tr("Connection to the shop server is not encrypted: anyone on this network can read and change "
                      "sales, PINs and keys. Ask an admin to start the server with --tls and connect with "
                      "https://."));
    setProperty("kiosk", m_options.kiosk);
    if (m_options.kiosk) {
        // No title bar, so no window-manager minimize or close button, and full screen from the
        // first show(). Not "stay on top": the admin PIN, print and file dialogs must come above it.
        setWindowFlag(Qt::FramelessWindowHint);
        setWindowState(Qt::WindowFullScreen);
    }
    m_idleTimer.setSingleShot(true);
    connect(&m_idleTimer, &QTimer::timeout, this, &MainWindow::lock);
    qApp->installEventFilter(this);
    if (m_options.keyId.isEmpty()) {
        m_firstRun = new FirstRunPage(m_options.serverUrl, m_options.setupToken, this);
        m_pages->addWidget(m_firstRun);
        connect(m_firstRun, &FirstRunPage::shopCreated, this, &MainWindow::onShopCreated);
    } else {
        connectToServer();
    }
}

MainWindow::~MainWindow()
{
    qApp->removeEventFilter(this);
    // Screens hold references to the context: delete them before it.
    delete m_pages;
}

void MainWindow::onShopCreated(const QString &keyId, const QString &keySecret, const QString &adminName,
                               const QString &circleCode)
{
    m_options.keyId = keyId;
    m_options.keySecret = keySecret;
    // The home circle chosen at first run: where the Plans screen and the sale forms start (issue 27). Written
    // before the screens are made, since they read the circle they start on when made.
    if (!circleCode.isEmpty())
        QSettings(m_options.settingsPath, QSettings::IniFormat).setValue(PlansPage::circleSettingsKey(), circleCode);
    connectToServer();
    m_signIn->prepare(adminName);
}

void MainWindow::connectToServer()
{
    m_api = std::make_unique<ApiClient>(m_options.serverUrl, m_options.keyId, m_options.keySecret);
    m_api->setPinnedFingerprint(TlsPin::readPin(terminalIniPath()));
    connect(m_api.get(), &ApiClient::certificateNeedsConfirmation, this, &MainWindow::onCertificateNeedsConfirmation);
    connect(m_api.get(), &ApiClient::certificateChanged, this, &MainWindow::onCertificateChanged);
    m_context = std::make_unique<TerminalContext>(*m_api, m_options.settingsPath);
    openCustomerDisplay();
    // A kiosk on one screen has no customer window: the customer reads the confirmation itself (issue 28).
    m_context->setCustomerPanelOnConfirm(m_options.kiosk && !m_customerDisplay);
    m_signIn = new SignInPage(*m_context, this);
    m_terminal = new TerminalView(*m_context, m_options.kiosk, this);
    m_status = new StatusPanel(*m_context, statusBar(), this);
    m_shifts = new ShiftController(*m_context, this, statusBar(), this);
    connect(m_shifts, &ShiftController::signOutRequested, this, &MainWindow::signOut);
    connect(m_context.get(), &TerminalContext::cashDrawerNeeded, this, &MainWindow::openCashDrawer);
    m_pages->addWidget(m_signIn);
    m_pages->addWidget(m_terminal);
    m_pages->setCurrentWidget(m_signIn);
    m_signIn->prepare(QString());
    connect(m_signIn, &SignInPage::signedIn, this, &MainWindow::onSignedIn);
    connect(m_terminal, &TerminalView::lockRequested, this, &MainWindow::lock);
    // A session the server no longer accepts (expired, user deactivated) ends at the terminal too.
    connect(m_api.get(), &ApiClient::sessionRejected, this, &MainWindow::lock, Qt::QueuedConnection);
    if (m_options.idleLockSeconds <= 0) {
        connect(m_context.get(), &TerminalContext::idleLockSecondsChanged, this, [this](int seconds) {
            if (m_idleTimer.isActive())
                m_idleTimer.start(seconds * 1000);
        });
    }
    // An https server is checked at once, so first contact (or a changed certificate) shows before sign-in.
    if (m_options.serverUrl.scheme() == QLatin1String("https"))
        m_api->get(QStringLiteral("/healthz"));
    if (m_firstRun) {
        m_pages->removeWidget(m_firstRun);
        m_firstRun->deleteLater();
        m_firstRun = nullptr;
    }
}

QString MainWindow::terminalIniPath() const
{
    return QFileInfo(m_options.settingsPath).absoluteDir().filePath(QStringLiteral("terminal.ini"));
}

void MainWindow::showBanner(const QString &text)
{
    m_banner->setText(text);
    m_banner->setVisible(!text.isEmpty());
}

void MainWindow::onCertificateNeedsConfirmation(const QString &fingerprint)
{
    if (m_tlsQuestionShown)
        return;
    m_tlsQuestionShown = true;
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Confirm the shop server"),
        tr("This terminal is connecting to the shop server at %1 for the first time.\n\n"
           "The server's certificate has this SHA-256 fingerprint:\n\n%2\n\n"
           "An admin must compare it with the fingerprint the shop server printed when it started (also shown "
           "in Back office → Settings on the server). Trust the server only if every pair of characters is the "
           "same; otherwise someone on the network may be pretending to be the shop server.")
            .arg(m_options.serverUrl.toString(QUrl::RemoveUserInfo | QUrl::RemovePath), fingerprint),
        QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("tlsConfirmBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPushButton *trust = box->addButton(tr("The fingerprints match — trust this server"), QMessageBox::AcceptRole);
    trust->setObjectName(QStringLiteral("tlsTrustButton"));
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    connect(box, &QMessageBox::buttonClicked, this, [this, trust, fingerprint](QAbstractButton *clicked) {
        if (clicked != trust) {
            showBanner(tr("Not connected: the shop server's certificate was not confirmed. Restart the terminal "
                          "to confirm it."));
            return;
        }
        if (!TlsPin::writePin(terminalIniPath(), fingerprint)) {
            showBanner(tr("The confirmed certificate could not be saved to %1.").arg(terminalIniPath()));
            return;
        }
        m_api->setPinnedFingerprint(fingerprint);
        showBanner(QString());
        if (m_status)
            m_status->refresh();
    });
    box->open();
}

void MainWindow::onCertificateChanged(const QString &pinned, const QString &presented)
{
    const QString explanation =
        tr("The shop server's certificate has changed, so this terminal refuses to connect.\n\n"
           "Confirmed on this terminal:\n%1\n\nPresented now:\n%2\n\n"
           "Someone on the network may be pretending to be the shop server. If the certificate was replaced on "
           "purpose (a new server, or its tls folder was deleted), an admin checks the new fingerprint the server "
           "prints at start, removes the line tls_fingerprint_sha256 from %3 and restarts the terminal to confirm "
           "it again.")
            .arg(pinned, presented, QDir::toNativeSeparators(terminalIniPath()));
    showBanner(tr("Not connected: the shop server's certificate has changed (see the message)."));
    if (m_tlsQuestionShown)
        return;
    m_tlsQuestionShown = true;
    auto *box = new QMessageBox(QMessageBox::Critical, tr("Shop server certificate changed"), explanation,
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("tlsChangedBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MainWindow::onSignedIn(const SignedInUser &user)
{
    m_api->setSessionToken(user.sessionToken);
    m_context->setUser(user);
    m_terminal->applyUser();
    m_pages->setCurrentWidget(m_terminal);
    m_terminal->focusCurrentScreen();
    m_status->refresh();
    m_shifts->start(); // resumes the person's open shift, or asks for one when the shop needs it
    m_idleTimer.start((m_options.idleLockSeconds > 0 ? m_options.idleLockSeconds : m_context->idleLockSeconds()) *
                      1000);
}

void MainWindow::lock()
{
    if (!m_terminal || m_pages->currentWidget() != m_terminal)
        return;
    endSession(m_context->user().name, SignInPage::Reason::Locked);
}

void MainWindow::signOut()
{
    if (!m_terminal || m_pages->currentWidget() != m_terminal)
        return;
    endSession(QString(), SignInPage::Reason::SignIn);
}

void MainWindow::endSession(QString name, SignInPage::Reason reason)
{
    m_idleTimer.stop();
    UsersApi(*m_api).signOut(); // fire and forget: the session ends here whatever the server answers
    m_api->setSessionToken(QString());
    m_context->setUser(SignedInUser{});
    m_pages->setCurrentWidget(m_signIn);
    m_signIn->prepare(name, reason);
}

void MainWindow::openCustomerDisplay()
{
    const int screen =
        m_options.customerDisplayScreen.value_or(CounterPrefs(m_context->settings()).customerDisplayScreen());
    if (screen < 0)
        return;
    m_customerDisplay = std::make_unique<CustomerDisplayWindow>();
    CustomerDisplayWindow *display = m_customerDisplay.get();
    display->setWindowTitle(tr("RechargeDesk — customer display"));
    connect(m_context.get(), &TerminalContext::customerViewChanged, display->panel(), &CustomerDisplayPanel::setState);
    connect(m_context.get(), &TerminalContext::shopChanged, display, [this, display] {
        // The idle screen greets with the shop's name once it is known.
        if (display->panel()->state().stage == CustomerDisplayState::Stage::Idle) {
            CustomerDisplayState idle;
            idle.shopName = m_context->shopName();
            display->panel()->setState(idle);
        }
    });
    if (screen < QGuiApplication::screens().size()) {
        display->showOnScreen(screen);
    } else {
        // No such screen (unplugged?): a window of its own rather than full screen over the terminal.
        qWarning("customer display: no screen %d (there are %d); shown as a window", screen,
                 int(QGuiApplication::screens().size()));
        display->resize(1024, 600);
        display->show();
    }
}

void MainWindow::openCashDrawer()
{
    const QString target = CounterPrefs(m_context->settings()).cashDrawer();
    if (target.isEmpty())
        return;
    if (!m_drawer || m_drawer->target() != target) {
        m_drawer = std::make_unique<CashDrawer>(target);
        connect(m_drawer.get(), &CashDrawer::failed, this, [this](const QString &message) {
            statusBar()->showMessage(tr("Cash drawer: %1").arg(message), 10'000);
        });
    }
    m_drawer->open();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::KeyPress:
    case QEvent::MouseButtonPress:
    case QEvent::TouchBegin:
    case QEvent::Wheel:
        if (m_idleTimer.isActive())
            m_idleTimer.start();
        break;
    default:
        break;
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    // Undone once the state change is complete (not from inside it).
    if (m_options.kiosk && event->type() == QEvent::WindowStateChange)
        QMetaObject::invokeMethod(this, &MainWindow::keepFullScreen, Qt::QueuedConnection);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // The platform window's own state too: it can change without the widget's (a stale or
    // window-manager-made change arriving after ours).
    if (m_options.kiosk && windowHandle())
        connect(windowHandle(), &QWindow::windowStateChanged, this, &MainWindow::keepFullScreen,
                Qt::ConnectionType(Qt::QueuedConnection | Qt::UniqueConnection));
}

void MainWindow::keepFullScreen()
{
    if (!m_options.kiosk || m_allowClose)
        return;
    const auto fullScreen = [](Qt::WindowStates states) {
        return (states & (Qt::WindowFullScreen | Qt::WindowMinimized)) == Qt::WindowFullScreen;
    };
    QWindow *window = windowHandle();
    const bool platformFullScreen = !window || fullScreen(window->windowStates());
    if (fullScreen(windowState()) && platformFullScreen)
        return;
    setWindowState(Qt::WindowFullScreen);
    if (window && !fullScreen(window->windowStates()))
        window->setWindowStates(Qt::WindowFullScreen);
    show();
    raise();
    activateWindow();
    // Look again shortly: the platform may still deliver an older state change after this one.
    QTimer::singleShot(250, this, &MainWindow::keepFullScreen);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_options.kiosk && !m_allowClose && !confirmAdminExit()) {
        event->ignore();
        return;
    }
    event->accept();
}

bool MainWindow::confirmAdminExit()
{
    if (!m_api)
        return true;
    // A dialog in the terminal's own looks (issue 27): a title, what it is for, the error in red at the top, fields
    // as tall as the sign-in page's, and a blue button that says what it does.
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("adminExitDialog"));
    dialog.setWindowTitle(tr("Admin PIN needed"));
    Look::set(&dialog, "page");
    dialog.setMinimumWidth(520);
    auto *title = new QLabel(tr("Admin PIN needed"), &dialog);
    Look::set(title, "pageTitle");
    auto *message = new QLabel(tr("Closing the kiosk needs an admin."), &dialog);
    message->setWordWrap(true);
    Look::set(message, "hint");
    auto *error = new QLabel(&dialog);
    error->setObjectName(QStringLiteral("adminExitError"));
    error->setWordWrap(true);
    Look::set(error, "generalError");
    error->hide();
    auto *name = new QLineEdit(&dialog);
    name->setObjectName(QStringLiteral("adminExitName"));
    name->setPlaceholderText(tr("Admin name"));
    auto *pin = new QLineEdit(&dialog);
    pin->setObjectName(QStringLiteral("adminExitPin"));
    pin->setEchoMode(QLineEdit::Password);
    pin->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,8}")), pin));
    for (QLineEdit *edit : {name, pin})
        edit->setMinimumHeight(42); // as the sign-in page's fields
    auto *buttons = new QDialogButtonBox(&dialog);
    QPushButton *confirm = buttons->addButton(tr("Close the kiosk"), QDialogButtonBox::AcceptRole);
    confirm->setObjectName(QStringLiteral("adminExitConfirm"));
    Look::set(confirm, "primary");
    confirm->setDefault(true);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("adminExitCancel"));
    auto *form = new QFormLayout;
    form->setVerticalSpacing(10);
    form->setHorizontalSpacing(16);
    form->addRow(tr("Admin name"), name);
    form->addRow(tr("PIN"), pin);
    auto *layout = new QVBoxLayout(&dialog);
    layout->setContentsMargins(28, 24, 28, 24);
    layout->setSpacing(12);
    layout->addWidget(title);
    layout->addWidget(message);
    layout->addWidget(error);
    layout->addLayout(form);
    layout->addWidget(buttons);
    name->setFocus();
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        UsersApi(*m_api).signIn(name->text(), pin->text()).then(&dialog, [&](const Answer<UserSignIn> &answer) {
            if (answer.ok() && answer.value->user.isAdmin()) {
                dialog.accept();
            } else {
                error->setText(answer.ok() ? tr("That user is not an admin.") : answer.error->description());
                error->show();
                pin->clear();
                pin->setFocus();
            }
        });
    });
    m_allowClose = dialog.exec() == QDialog::Accepted;
    return m_allowClose;
}
