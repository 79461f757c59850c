#pragma once

#include <QWidget>

#include <memory>
#include <utility>

class FormErrors;
class QStackedWidget;
class QTabBar;
class SaleTermsCard;
class TerminalContext;
class UpstreamsPage;

namespace Ui {
class SettingsPage;
}

/// Back office: settings (issue 6, item 7). Shop settings kept by the server (GET/PUT
/// /api/v1/shop: name and address for receipts, low-balance threshold in rupees, idle lock in
/// seconds, the shop's telecom circle the Plans screen opens on); terminal-local settings kept in terminal.ini next to
/// the terminal's preferences file
/// ([server] listen=ADDR:PORT and database=path or postgres:// URL, [terminal] language=en|hi, read
/// at the next start); and
/// the sale terms kept by the server (SaleTermsCard: discount rate per operator, sandbox settle delay).
/// Issue 28: the shop's shifts and cash-up (on/off, blind count; admin) and its UPI ID (VPA, name@handle) and
/// payee name (live authority only: otherwise shown, disabled, with a note), and "This terminal"'s counter
/// preferences kept in the preferences file and used at once (CounterPrefs: the terminal's name for shifts, the cash
/// drawer, the customer display's screen, the UPI QR on receipts).
/// Issue 29: the shop's complaint deadline in hours (1-720, complaint_deadline_hours; admin), checked here before
/// saving. These make the section General; the section Upstreams (UpstreamsPage, issue 26) lists the upstreams live
/// sales go to and imports their statements. A bar at the top switches the sections (Alt+G, Alt+U; arrow keys on the
/// bar).
class SettingsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsPage)

public:
    SettingsPage(TerminalContext &context, QWidget *parent = nullptr);
    ~SettingsPage() override;

    /// The terminal.ini this page writes (same directory as the preferences file).
    QString terminalIniPath() const;
    /// The sale terms card (discount rates, sandbox settle delay).
    SaleTermsCard *saleTerms() const { return m_terms; }
    /// The sections of the page.
    enum class Section
    {
        General,
        Upstreams
    };
    /// Shows a section (as its tab on the bar does).
    void showSection(Section section);
    Section section() const;
    /// The section Upstreams: the upstreams (Add, Edit, Check, Remove) and their statements.
    UpstreamsPage *upstreams() const { return m_upstreams; }
    /// The bar switching the sections.
    QTabBar *sectionBar() const { return m_sections; }
    /// Reloads the shop settings from the server and terminal.ini.
    void refresh();

    /// Checks an ADDR:PORT listen value by the rule `rechargedesk` reads it with (ListenAddress: e.g.
    /// 0.0.0.0:8080 or [::1]:8080, port 0–65535); empty is valid and means the default (127.0.0.1, any free
    /// port). Returns an error message or empty.
    static QString checkListen(const QString &listen);
    /// Checks a database location: empty (default file), a file path, or a postgres:// or
    /// postgresql:// URL with a host. Returns an error message or empty.
    static QString checkDatabase(const QString &database);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void loadShop();
    void onSaveShopClicked();
    void loadTerminal();
    /// Shows whether the shop server speaks TLS and its certificate's SHA-256 fingerprint (GET /api/v1/server/tls,
    /// issue 12): what a terminal asks an admin to compare on first contact.
    void loadTls();
    void onSaveTerminalClicked();
    /// Issue 28: this terminal's counter preferences (CounterPrefs), read and written at once.
    void loadCounter();
    void onSaveCounterClicked();
    /// True when the server lets this terminal change what live money uses (the UPI ID): an admin signed in with a
    /// PIN, or a live key without a session (the server's AuthContext::hasLiveAuthority).
    bool hasLiveAuthority() const;
    void onBrowseClicked();

    TerminalContext &m_context;
    std::unique_ptr<Ui::SettingsPage> m_ui; ///< the form of settingspage.ui (shop and terminal cards)
    SaleTermsCard *m_terms;
    UpstreamsPage *m_upstreams;
    QTabBar *m_sections;
    QStackedWidget *m_stack;
    std::unique_ptr<FormErrors> m_shopErrors;
    std::unique_ptr<FormErrors> m_terminalErrors;
    std::unique_ptr<FormErrors> m_counterErrors;
    std::pair<QString, QString> m_loadedUpi; ///< the UPI ID and payee name as the server last said
};
