#include "shiftwords.h"

#include "clock.h"

#include <QStringList>

QString ShiftWords::soFar(const Shift &shift)
{
    const auto sum = [](const QString &words, const Shift::TenderTotal &total) {
        return words.arg(Money::formatIndian(total.amount)).arg(total.count);
    };
    QStringList parts{
        tr("Opened %1 with %2").arg(IstTime::timeOfDay(shift.openedAt), Money::formatIndian(shift.openingCash)),
        sum(tr("cash sales %1 (%2)"), shift.sales.cash), sum(tr("UPI %1 (%2)"), shift.sales.upi)};
    if (shift.sales.unrecorded.count > 0)
        parts << sum(tr("no tender recorded %1 (%2)"), shift.sales.unrecorded);
    if (shift.cashRefunds.count > 0)
        parts << sum(tr("cash given back %1 (%2)"), shift.cashRefunds);
    if (shift.cashIn > 0)
        parts << tr("cash in %1").arg(Money::formatIndian(shift.cashIn));
    if (shift.cashOut > 0)
        parts << tr("cash out %1").arg(Money::formatIndian(shift.cashOut));
    return parts.join(QStringLiteral(" · "));
}

QString ShiftWords::statusLine(const Shift &shift)
{
    return tr("Shift: %1 since %2 (%3)").arg(shift.clerk, IstTime::timeOfDay(shift.openedAt), shift.terminal);
}
