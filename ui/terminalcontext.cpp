#include "terminalcontext.h"

#include <QJsonArray>

TerminalContext::TerminalContext(ApiClient &api, const QString &settingsPath, QObject *parent)
    : QObject(parent), m_api(api), m_catalog(OperatorCatalog::builtIn()), m_settings(settingsPath, QSettings::IniFormat)
{
}

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

void TerminalContext::applyShop(const QJsonObject &shop)
{
    for (const QJsonValue &value : shop.value(QStringLiteral("discount_rates")).toArray()) {
        const QJsonObject rate = value.toObject();
        const QJsonValue basisPoints = rate.value(QStringLiteral("basis_points"));
        if (basisPoints.isDouble())
            m_catalog.setDiscount(rate.value(QStringLiteral("operator_code")).toString(), basisPoints.toInt());
    }
    setIdleLockSeconds(shop.value(QStringLiteral("idle_lock_seconds")).toInt());
    m_shopCircle = shop.value(QStringLiteral("circle_code")).toString();
    setShop(shop.value(QStringLiteral("name")).toString(), shop.value(QStringLiteral("address")).toString());
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

QString TerminalContext::rememberedOperator(const QString &phoneNumber)
{
    return m_settings.value(QStringLiteral("operators/") + phoneNumber).toString();
}

void TerminalContext::rememberOperator(const QString &phoneNumber, const QString &operatorCode)
{
    m_settings.setValue(QStringLiteral("operators/") + phoneNumber, operatorCode);
}
