#include "terminalcontext.h"

#include <QJsonArray>

TerminalContext::TerminalContext(ApiClient &api, const QString &settingsPath, QObject *parent)
    : QObject(parent), m_api(api), m_catalog(OperatorCatalog::builtIn()), m_settings(settingsPath, QSettings::IniFormat)
{}

void TerminalContext::setUser(const SignedInUser &user)
{
    m_user = user;
    emit userChanged();
}

void TerminalContext::setShop(const QString &name, const QString &address)
{
    m_shopName = name;
    m_shopAddress = address;
    emit shopChanged();
}

void TerminalContext::applyShop(const ShopInfo &shop)
{
    for (const DiscountRate &rate : shop.discountRates)
        m_catalog.setDiscount(rate.operatorCode, rate.basisPoints);
    m_shop = shop;
    setIdleLockSeconds(shop.idleLockSeconds);
    m_shopCircle = shop.circleCode;
    setShop(shop.name, shop.address);
}

void TerminalContext::setCurrentShift(const std::optional<Shift> &shift)
{
    m_currentShift = shift;
    emit shiftChanged();
}

void TerminalContext::setShopCircle(const QString &circleCode)
{
    m_shopCircle = circleCode;
    emit shopChanged();
}

void TerminalContext::setIdleLockSeconds(int seconds)
{
    if (seconds == m_idleLockSeconds || seconds <= 0)
        return;
    m_idleLockSeconds = seconds;
    emit idleLockSecondsChanged(seconds);
}
