#include "terminalcontext.h"

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
