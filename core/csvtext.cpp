#include "csvtext.h"

namespace CsvText {

QString quote(const QString &field)
{
    const bool needsQuotes = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
                             field.contains(QLatin1Char('\r')) || field.contains(QLatin1Char('\n'));
    if (!needsQuotes)
        return field;
    QString doubled = field;
    doubled.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + doubled + QLatin1Char('"');
}

QString line(const QStringList &fields)
{
    QString out;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i > 0)
            out += QLatin1Char(',');
        QString field = fields.at(i);
        // Spreadsheets run cells starting with these as formulas (CSV injection).
        static const QString risky = QStringLiteral("=+-@");
        bool number = false;
        field.toDouble(&number);
        if (!field.isEmpty() && risky.contains(field.front()) && !number)
            field.prepend(QLatin1Char('\''));
        out += quote(field);
    }
    out += QLatin1String("\r\n");
    return out;
}

QString rupees(Paise amount)
{
    const Paise magnitude = amount < 0 ? -amount : amount;
    return (amount < 0 ? QStringLiteral("-") : QString()) + QString::number(magnitude / Money::kPaisePerRupee) +
           QLatin1Char('.') + QStringLiteral("%1").arg(magnitude % Money::kPaisePerRupee, 2, 10, QLatin1Char('0'));
}

} // namespace CsvText
