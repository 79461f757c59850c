#include "money.h"

#include <QRegularExpression>

namespace Money {

namespace {
const QChar kRupeeSign(0x20B9);

/// "1,00,000" for 100000: the last three digits, then groups of two.
QString groupIndian(quint64 number)
{
    QString digits = QString::number(number);
    for (qsizetype comma = digits.size() - 3; comma > 0; comma -= 2)
        digits.insert(comma, QLatin1Char(','));
    return digits;
}

quint64 magnitudeOf(qint64 amount)
{
    return amount < 0 ? quint64(0) - quint64(amount) : quint64(amount);
}

QString withSign(bool negative, const QString &text)
{
    return negative ? QString(QLatin1Char('-') + kRupeeSign + text) : QString(kRupeeSign + text);
}

QString decimals(quint64 magnitude)
{
    return QStringLiteral(".%1").arg(magnitude % 100, 2, 10, QLatin1Char('0'));
}
} // namespace

QString format(Paise amount)
{
    const quint64 magnitude = magnitudeOf(amount);
    return withSign(amount < 0, QString::number(magnitude / 100) + decimals(magnitude));
}

QString formatIndian(Paise amount)
{
    const quint64 magnitude = magnitudeOf(amount);
    return withSign(amount < 0, groupIndian(magnitude / 100) + decimals(magnitude));
}

QString formatIndianRupees(qint64 rupees)
{
    return withSign(rupees < 0, groupIndian(magnitudeOf(rupees)));
}

QString displayText(const QString &specText)
{
    const std::optional<Paise> paise = parse(specText);
    return paise ? formatIndian(*paise) : specText;
}

std::optional<Paise> parse(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^(-?)\\x{20B9}([0-9]{1,15})\\.([0-9]{2})$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    const Paise value = match.captured(2).toLongLong() * kPaisePerRupee + match.captured(3).toLongLong();
    return match.captured(1).isEmpty() ? value : -value;
}

Paise percentageOf(Paise amount, int basisPoints)
{
    Q_ASSERT(basisPoints >= 0);
    const Paise product = amount * basisPoints;
    return product >= 0 ? (product + 5000) / 10000 : -((-product + 5000) / 10000);
}

QString formatRate(int basisPoints)
{
    QString text = QString::number(basisPoints / 100) + QLatin1Char('.') + QString::number(basisPoints % 100 / 10);
    if (basisPoints % 10 != 0)
        text += QString::number(basisPoints % 10);
    return text + QStringLiteral(" %");
}

} // namespace Money
