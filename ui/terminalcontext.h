#pragma once

#include "clock.h"
#include "customerdisplay/customerdisplay.h"
#include "entities/shift.h"
#include "entities/shopinfo.h"
#include "entities/transactionrecord.h"
#include "operatorcatalog.h"

#include <QJsonObject>
#include <QObject>
#include <QSettings>
#include <QString>

#include <optional>

class ApiClient;

/// The signed-in person at the counter.
struct SignedInUser
{
    qint64 id = 0;
    QString name;
    bool isAdmin = false;
    QString sessionToken;
};

/// The number the Mobile recharge screen is selling now (its form holds a whole number), so the
/// Plans screen can open on its operator and circle. Codes are empty when not chosen.
struct MobileSaleInProgress
{
    QString phoneNumber;
    QString operatorCode;
    QString circleCode;
};

/// What every terminal screen shares: the API client, the operator tables, the shop's name and
/// address for receipts, the signed-in user, the terminal's remembered choices (circle,
/// operator per number) and the clock every screen reads the time from. Owned by MainWindow;
/// screens hold a reference.
class TerminalContext final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TerminalContext)

public:
    TerminalContext(ApiClient &api, const QString &settingsPath, QObject *parent = nullptr);

    ApiClient &api() { return m_api; }
    /// The time the screens go by (today's IST date, default date ranges, the repeat-sale window,
    /// waiting times): the system clock unless a test set another with setClock() before creating the screens.
    const Clock &clock() const { return *m_clock; }
    /// Uses `clock` (which must outlive this context) instead of the system clock.
    void setClock(const Clock &clock) { m_clock = &clock; }
    const OperatorCatalog &catalog() const { return m_catalog; }
    /// Terminal-local preferences (remembered circle, operator per number), an INI file.
    QSettings &settings() { return m_settings; }

    const SignedInUser &user() const { return m_user; }
    void setUser(const SignedInUser &user);
    const QString &shopName() const { return m_shopName; }
    const QString &shopAddress() const { return m_shopAddress; }
    void setShop(const QString &name, const QString &address);
    /// The shop's own telecom circle (shop setting circle_code), empty when not set.
    const QString &shopCircle() const { return m_shopCircle; }
    void setShopCircle(const QString &circleCode);
    /// Takes what a GET/PUT /api/v1/shop answer says about this shop: name, address and circle
    /// (shopChanged), idle lock, and the discount rate per operator into catalog(), so the
    /// confirmation screen shows the discount the server will charge; the whole answer stays in shop().
    void applyShop(const ShopInfo &shop);
    /// The shop's settings as the server last answered them (defaults until then): shifts on, blind count, the
    /// shop's UPI ID and payee name (issue 28).
    const ShopInfo &shop() const { return m_shop; }

    /// The signed-in person's open shift (issue 28) as the server last answered it; nullopt when none is open (or
    /// not known yet, or nobody is signed in).
    const std::optional<Shift> &currentShift() const { return m_currentShift; }
    /// Sets (nullopt: clears) the open shift and emits shiftChanged().
    void setCurrentShift(const std::optional<Shift> &shift);
    /// True when the shop sells only within an open shift (shop setting shifts_enabled) and this person has none.
    bool needsShift() const { return m_shop.shiftsEnabled && !m_currentShift; }
    /// Kiosk on one screen (issue 28): the sale screens show the customer's panel on their confirmation, there
    /// being no customer display window. Set before the screens are made.
    bool customerPanelOnConfirm() const { return m_customerPanelOnConfirm; }
    void setCustomerPanelOnConfirm(bool on) { m_customerPanelOnConfirm = on; }
    /// Seconds of no input after which the terminal locks (the shop's setting).
    int idleLockSeconds() const { return m_idleLockSeconds; }
    void setIdleLockSeconds(int seconds);

    /// The number being sold on the Mobile recharge screen (empty phoneNumber: none).
    const MobileSaleInProgress &mobileSale() const { return m_mobileSale; }
    void setMobileSale(const MobileSaleInProgress &sale) { m_mobileSale = sale; }

signals:
    void userChanged();
    void shopChanged();
    void idleLockSecondsChanged(int seconds);
    /// A sale finished or settled: wallet and pending counts may have changed.
    void salesChanged();
    /// The clerk moved on from a sale the screen showed PENDING ("Collect …"): the status bar follows it and says
    /// "Give ₹… back" if it fails (issue 27). `record` is the sale as last shown.
    void saleLeftPending(const TransactionRecord &record);
    /// The open shift changed (opened, resumed, cash moved, closed or the person signed out).
    void shiftChanged();
    /// A sale needs an open shift and there is none (the shop turned shifts on, or the server answered 409
    /// no_open_shift): whoever handles shifts asks the clerk to open one.
    void shiftNeeded();
    /// Cash goes into or out of the drawer (a cash sale taken, cash in or out, a shift's count): the cash drawer
    /// opens, if this terminal has one (issue 28).
    void cashDrawerNeeded();
    /// What the customer should see now (issue 28): the sale to pay, its outcome, or idle. The customer display
    /// (a window of its own, or the kiosk's confirmation) follows it.
    void customerViewChanged(const CustomerDisplayState &state);

private:
    ApiClient &m_api;
    SystemClock m_systemClock;
    const Clock *m_clock = &m_systemClock;
    OperatorCatalog m_catalog;
    QSettings m_settings;
    SignedInUser m_user;
    QString m_shopName;
    QString m_shopAddress;
    QString m_shopCircle;
    MobileSaleInProgress m_mobileSale;
    ShopInfo m_shop;
    std::optional<Shift> m_currentShift;
    bool m_customerPanelOnConfirm = false;
    int m_idleLockSeconds = 120;
};
