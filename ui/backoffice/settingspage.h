#pragma once

#include <QWidget>

#include <memory>

class FormErrors;
class SaleTermsCard;
class TerminalContext;
class UpstreamCard;

namespace Ui {
class SettingsPage;
}

/// Back office: settings (issue 6, item 7). Shop settings kept by the server (GET/PUT
/// /api/v1/shop: name and address for receipts, low-balance threshold in rupees, idle lock in
/// seconds, the shop's telecom circle the Plans screen opens on); terminal-local settings kept in terminal.ini next to
/// the terminal's preferences file
/// ([server] listen=ADDR:PORT and database=path or postgres:// URL, [terminal] language=en|hi, read
/// at the next start); and
/// the sale terms kept by the server (SaleTermsCard: discount rate per operator, sandbox settle delay);
/// and the upstream live sales go to (UpstreamCard, issue 11).
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
    /// The upstream card (URL, key, webhook password; Save, Check, Clear).
    UpstreamCard *upstream() const { return m_upstream; }
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
    void onBrowseClicked();

    TerminalContext &m_context;
    std::unique_ptr<Ui::SettingsPage> m_ui; ///< the form of settingspage.ui (shop and terminal cards)
    SaleTermsCard *m_terms;
    UpstreamCard *m_upstream;
    std::unique_ptr<FormErrors> m_shopErrors;
    std::unique_ptr<FormErrors> m_terminalErrors;
};
