#include "upilink.h"

#include "validators.h"

#include <QUrl>

namespace UpiLink {

namespace {

// RFC 3986 percent-encoding of `value`'s UTF-8, leaving `keep` (besides the unreserved set) as it is.
QString encoded(const QString &value, const QByteArray &keep = {})
{
    return QString::fromLatin1(QUrl::toPercentEncoding(value, keep));
}

// `text` cut to at most `length` UTF-16 code units, never between the two halves of a surrogate pair.
QString cut(const QString &text, qsizetype length)
{
    if (text.size() <= length)
        return text;
    if (text.at(length - 1).isHighSurrogate())
        --length;
    return text.left(length);
}

} // namespace

QString build(const QString &vpa, const QString &payeeName, Paise amount, const QString &note)
{
    if (!Validators::isUpiVpa(vpa) || payeeName.trimmed().isEmpty() || amount <= 0)
        return {};
    QString link = QStringLiteral("upi://pay?pa=") + encoded(vpa, QByteArrayLiteral("@")) + QStringLiteral("&pn=") +
                   encoded(payeeName) + QStringLiteral("&am=") + amountText(amount) + QStringLiteral("&cu=INR");
    const QString shortNote = cut(note, kMaxNoteLength);
    if (!shortNote.isEmpty())
        link += QStringLiteral("&tn=") + encoded(shortNote);
    return link;
}

QString amountText(Paise amount)
{
    return QStringLiteral("%1.%2")
        .arg(amount / Money::kPaisePerRupee)
        .arg(amount % Money::kPaisePerRupee, 2, 10, QLatin1Char('0'));
}

QString saleNote(const QString &number, const QString &reference)
{
    const QString full = number.isEmpty()
                             ? QString(QStringLiteral("Sale ref ") + reference)
                             : QString(QStringLiteral("Recharge ") + number + QStringLiteral(" ref ") + reference);
    if (full.size() <= kMaxNoteLength)
        return full;
    return QStringLiteral("ref ") + reference;
}

} // namespace UpiLink
