#include "listenaddress.h"

#include <QRegularExpression>

namespace {

std::optional<ListenAddress> refuse(QString *why, const QString &reason)
{
    if (why)
        *why = reason;
    return std::nullopt;
}

/// The port in ASCII digits, 0-65535; nullopt otherwise.
std::optional<quint16> parsePort(const QString &text)
{
    static const QRegularExpression digits(QStringLiteral("^[0-9]{1,5}$"));
    if (!digits.match(text).hasMatch())
        return std::nullopt;
    const uint number = text.toUInt();
    if (number > 65535)
        return std::nullopt;
    return quint16(number);
}

/// A bracketed IPv6 address, a dotted IPv4 address or "localhost"; a null address otherwise.
QHostAddress parseHost(const QString &text, bool bracketed)
{
    QHostAddress address;
    if (bracketed) {
        if (address.setAddress(text) && address.protocol() == QAbstractSocket::IPv6Protocol)
            return address;
        return {};
    }
    if (text.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return QHostAddress(QHostAddress::LocalHost);
    // Four dotted parts only: QHostAddress also reads the short forms "127.1" and "2130706433".
    static const QRegularExpression dotted(QStringLiteral("^[0-9]{1,3}(\\.[0-9]{1,3}){3}$"));
    if (dotted.match(text).hasMatch() && address.setAddress(text) &&
        address.protocol() == QAbstractSocket::IPv4Protocol)
        return address;
    return {};
}

} // namespace

std::optional<ListenAddress> ListenAddress::parse(const QString &text, QString *why)
{
    const QString example = QStringLiteral("e.g. 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080");
    if (text.isEmpty())
        return refuse(why, QStringLiteral("no address given; write ADDR:PORT, ") + example);
    QString hostText;
    QString portText = text;
    bool bracketed = false;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1Char(']'));
        if (close < 0 || text.mid(close + 1, 1) != QLatin1String(":"))
            return refuse(why, QStringLiteral("write an IPv6 address and port as [ADDR]:PORT, e.g. [::1]:8080"));
        hostText = text.mid(1, close - 1);
        portText = text.mid(close + 2);
        bracketed = true;
    } else if (text.count(QLatin1Char(':')) > 1) {
        return refuse(why, QStringLiteral("put an IPv6 address in brackets, e.g. [::1]:8080"));
    } else if (text.contains(QLatin1Char(':'))) {
        hostText = text.section(QLatin1Char(':'), 0, 0);
        portText = text.section(QLatin1Char(':'), 1);
    } else {
        hostText = QStringLiteral("127.0.0.1"); // the port alone
    }
    const std::optional<quint16> port = parsePort(portText);
    if (!port)
        return refuse(why, QStringLiteral("the port must be a number from 0 to 65535 (0: any free port)"));
    const QHostAddress address = parseHost(hostText, bracketed);
    if (address.isNull())
        return refuse(why, QStringLiteral("\"%1\" is not an IP address; write ADDR:PORT, ").arg(hostText) + example);
    return ListenAddress{address, *port};
}

QString ListenAddress::toString() const
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                             ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
                             : address.toString();
    return host + QLatin1Char(':') + QString::number(port);
}
