#include "counterprefs.h"

#include <QSettings>
#include <QSysInfo>

namespace {

const QString kTerminalName = QStringLiteral("counter/terminal_name");
const QString kCashDrawer = QStringLiteral("counter/cash_drawer");
const QString kDisplayScreen = QStringLiteral("counter/customer_display_screen");
const QString kLastTender = QStringLiteral("counter/last_tender");
const QString kPrintUpiQr = QStringLiteral("receipts/print_upi_qr");
constexpr int kMaxTerminalName = 40;

} // namespace

QString CounterPrefs::terminalName() const
{
    QString name = m_settings.value(kTerminalName).toString().trimmed();
    if (name.isEmpty())
        name = QSysInfo::machineHostName().trimmed();
    if (name.isEmpty())
        name = QStringLiteral("Terminal");
    return name.left(kMaxTerminalName);
}

QString CounterPrefs::cashDrawer() const
{
    return m_settings.value(kCashDrawer).toString().trimmed();
}

int CounterPrefs::customerDisplayScreen() const
{
    bool ok = false;
    const int screen = m_settings.value(kDisplayScreen, -1).toInt(&ok);
    return ok && screen >= 0 ? screen : -1;
}

Tender CounterPrefs::lastTender() const
{
    return Tenders::fromWireName(m_settings.value(kLastTender).toString(), Tender::Cash);
}

void CounterPrefs::setLastTender(Tender tender)
{
    m_settings.setValue(kLastTender, Tenders::wireName(tender));
}

bool CounterPrefs::printUpiQr() const
{
    return m_settings.value(kPrintUpiQr, false).toBool();
}

void CounterPrefs::setTerminalName(const QString &name)
{
    if (name.trimmed().isEmpty())
        m_settings.remove(kTerminalName);
    else
        m_settings.setValue(kTerminalName, name.trimmed());
}

void CounterPrefs::setCashDrawer(const QString &target)
{
    if (target.trimmed().isEmpty())
        m_settings.remove(kCashDrawer);
    else
        m_settings.setValue(kCashDrawer, target.trimmed());
}

void CounterPrefs::setCustomerDisplayScreen(int screen)
{
    if (screen < 0)
        m_settings.remove(kDisplayScreen);
    else
        m_settings.setValue(kDisplayScreen, screen);
}

void CounterPrefs::setPrintUpiQr(bool on)
{
    m_settings.setValue(kPrintUpiQr, on);
}
