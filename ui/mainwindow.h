#pragma once

#include "firstrunpage.h"
#include "signinpage.h"
#include "terminalcontext.h"

#include <QMainWindow>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

class ApiClient;
class CashDrawer;
class CustomerDisplayWindow;
class QLabel;
class QStackedWidget;
class ShiftController;
class SignInPage;
class StatusPanel;
class TerminalView;

/// How the terminal starts: which server and key, kiosk or not, and (for the embedded server on
/// first run) how to create the shop.
struct TerminalOptions
{
    QUrl serverUrl;
    QString keyId; ///< empty until the shop is set up
    QString keySecret;
    bool kiosk = false;
    QString settingsPath; ///< terminal-local INI file (remembered circle, operators)
    /// Seconds of no input before the terminal locks; 0 follows the shop's setting (default 120).
    int idleLockSeconds = 0;
    /// The embedded server's setup token (ServerOptions::setupToken): the first-run screen creates the shop
    /// through POST /api/v1/setup with it. Empty when the terminal talks to a remote server.
    QByteArray setupToken;
    /// The screen of the customer display window (--customer-display[=N], issue 28), overriding the preference
    /// "counter/customer_display_screen"; nullopt follows the preference, -1 is none.
    std::optional<int> customerDisplayScreen;
};

/// The terminal window: first run, sign-in and lock, and the signed-in terminal. In kiosk mode
/// it is a frameless full-screen window at any resolution: a minimize (or any other state the
/// window manager sets) is undone, and closing needs an admin's PIN. Issue 28: it holds the counter's shifts
/// (ShiftController), opens the cash drawer ("counter/cash_drawer") when cash moves, and shows the customer display
/// as a window on the screen chosen (or, a kiosk without one, on the sale's confirmation).
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(TerminalOptions options, QWidget *parent = nullptr);
    ~MainWindow() override;

    /// For tests and screenshots: the parts of the window.
    FirstRunPage *firstRunPage() const { return m_firstRun; }
    SignInPage *signInPage() const { return m_signIn; }
    TerminalView *terminalView() const { return m_terminal; }
    TerminalContext *context() const { return m_context.get(); }
    StatusPanel *statusPanel() const { return m_status; }
    ShiftController *shifts() const { return m_shifts; }
    /// The customer display window, or nullptr when there is none.
    CustomerDisplayWindow *customerDisplay() const { return m_customerDisplay.get(); }
    /// Locks the terminal now (back to the PIN screen).
    void lock();
    /// Signs the person out (back to an empty sign-in page), e.g. after closing their shift.
    void signOut();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// The first-run screen created the shop: connects with the new key, the admin signs in.
    void onShopCreated(const QString &keyId, const QString &keySecret, const QString &adminName,
                       const QString &circleCode);
    /// terminal.ini, next to the preferences file: where the pinned TLS fingerprint of the shop server is kept.
    QString terminalIniPath() const;
    /// First contact with an https shop server: asks an admin to confirm the certificate's fingerprint and, if
    /// confirmed, pins it in terminal.ini (issue 12).
    void onCertificateNeedsConfirmation(const QString &fingerprint);
    /// The shop server presented a certificate other than the pinned one: refuses with an explanation.
    void onCertificateChanged(const QString &pinned, const QString &presented);
    /// Shows `text` in the banner above the pages (empty: hides it).
    void showBanner(const QString &text);
    void connectToServer();
    void onSignedIn(const SignedInUser &user);
    /// Ends the session at the terminal and shows the sign-in page, prepared with `name` for `reason`.
    void endSession(QString name, SignInPage::Reason reason); // by value: the user it names is cleared
    /// Opens the customer display window on the screen the options or the preferences name, if any.
    void openCustomerDisplay();
    /// Sends the drawer's pulse to the preference's target ("" = no drawer); a failure shows in the status bar.
    void openCashDrawer();
    bool confirmAdminExit();
    /// Kiosk: puts the window back to full screen if anything (the window manager, a shortcut)
    /// minimized it or took it out of full screen. Nothing once the admin PIN allowed closing.
    void keepFullScreen();

    TerminalOptions m_options;
    std::unique_ptr<ApiClient> m_api;
    std::unique_ptr<TerminalContext> m_context;
    QStackedWidget *m_pages;
    QLabel *m_banner = nullptr;
    bool m_tlsQuestionShown = false;
    FirstRunPage *m_firstRun = nullptr;
    SignInPage *m_signIn = nullptr;
    TerminalView *m_terminal = nullptr;
    StatusPanel *m_status = nullptr;
    ShiftController *m_shifts = nullptr;
    std::unique_ptr<CashDrawer> m_drawer;
    std::unique_ptr<CustomerDisplayWindow> m_customerDisplay;
    QTimer m_idleTimer;
    bool m_allowClose = false;
};
