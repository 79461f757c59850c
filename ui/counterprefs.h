#pragma once

#include "terminal/tender.h"

#include <QString>

class QSettings;

/// The counter's terminal-local preferences of issue 28 (TerminalContext::settings(), an INI; not on the server):
/// the terminal's name for shifts, the cash drawer, the customer display's screen, the last tender and whether a
/// receipt prints the UPI QR. Settings → This terminal writes them; the counter reads them through here.
class CounterPrefs
{
public:
    explicit CounterPrefs(QSettings &settings) : m_settings(settings) {}

    /// "counter/terminal_name": the `terminal` a shift is opened on; the computer's host name when unset, cut to
    /// 40 characters (the API's limit), "Terminal" if that is empty too.
    QString terminalName() const;
    /// "counter/cash_drawer": the drawer's device or file path ("/…") or raw printer queue; "" = no drawer.
    QString cashDrawer() const;
    /// "counter/customer_display_screen": the index of the customer display's screen; -1 = none.
    int customerDisplayScreen() const;
    /// "counter/last_tender" ("cash" / "upi"): the tender Enter keeps at the confirmation; cash when unset.
    Tender lastTender() const;
    void setLastTender(Tender tender);
    /// "receipts/print_upi_qr": a UPI sale's receipt prints the shop's UPI QR for its amount (default off).
    bool printUpiQr() const;

    /// The setters of Settings → This terminal (helper D): "" / -1 remove the setting (the default again).
    void setTerminalName(const QString &name);
    void setCashDrawer(const QString &target);
    void setCustomerDisplayScreen(int screen);
    void setPrintUpiQr(bool on);
    /// The longest terminal name the API takes (characters).
    static constexpr int kMaxTerminalNameLength = 40;

private:
    QSettings &m_settings;
};
