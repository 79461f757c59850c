#include "money.h"

#include <QRegularExpression>

namespace Money {

namespace {
const QChar kRupeeSign(0x20B9);
}

QString format(Paise amount)
{
    const bool negative = amount < 0;
    const quint64 magnitude = negative ? quint64(0) - quint64(amount) : quint64(amount);
    const QString text = QString::number(magnitude / 100) + QLatin1Char('.') +
                         QStringLiteral("%1").arg(magnitude % 100, 2, 10, QLatin1Char('0'));
    return negative ? QString(QLatin1Char('-') + kRupeeSign + text) : QString(kRupeeSign + text);
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
