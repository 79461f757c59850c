#pragma once

#include "clock.h"
#include "entities/shopinfo.h"
#include "entities/transactionrecord.h"
#include "operatorcatalog.h"

#include <QJsonObject>
#include <QObject>
#include <QSettings>
#include <QString>

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
    /// confirmation screen shows the discount the server will charge.
    void applyShop(const ShopInfo &shop);
    /// Seconds of no input after which the terminal locks (the shop's setting).
    int idleLockSeconds() const { return m_idleLockSeconds; }
    void setIdleLockSeconds(int seconds);

    /// The operator this phone number was last recharged with at this terminal, if any.
    QString rememberedOperator(const QString &phoneNumber);
    void rememberOperator(const QString &phoneNumber, const QString &operatorCode);

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
    int m_idleLockSeconds = 120;
};
