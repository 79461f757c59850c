#include "addressguard.h"

#include <QList>

#include <optional>
#include <utility>

namespace AddressGuard {

namespace {

struct Range
{
    QHostAddress network;
    int prefix;
    const char *reason;
};

QList<Range> makeRanges(std::initializer_list<std::pair<const char *, const char *>> list)
{
    QList<Range> ranges;
    for (const auto &[subnet, reason] : list) {
        const auto parsed = QHostAddress::parseSubnet(QString::fromLatin1(subnet));
        ranges.append(Range{parsed.first, parsed.second, reason});
    }
    return ranges;
}

const QList<Range> &ipv4Ranges()
{
    static const QList<Range> ranges = makeRanges({
        {"0.0.0.0/8", "unspecified"},
        {"10.0.0.0/8", "private"},
        {"100.64.0.0/10", "carrier-grade NAT"},
        {"127.0.0.0/8", "loopback"},
        {"169.254.0.0/16", "link-local"},
        {"172.16.0.0/12", "private"},
        {"192.0.0.0/24", "reserved"},
        {"192.0.2.0/24", "documentation"},
        {"192.88.99.0/24", "reserved"},
        {"192.168.0.0/16", "private"},
        {"198.18.0.0/15", "benchmarking"},
        {"198.51.100.0/24", "documentation"},
        {"203.0.113.0/24", "documentation"},
        {"224.0.0.0/4", "multicast"},
        {"255.255.255.255/32", "broadcast"},
        {"240.0.0.0/4", "reserved"},
    });
    return ranges;
}

const QList<Range> &ipv6Ranges()
{
    static const QList<Range> ranges = makeRanges({
        {"::/128", "unspecified"},
        {"::1/128", "loopback"},
        {"100::/64", "reserved"},
        {"64:ff9b:1::/48", "reserved"},
        {"2001::/32", "Teredo"},
        {"2001:2::/48", "benchmarking"},
        {"2001::/23", "reserved"},
        {"2001:db8::/32", "documentation"},
        {"3fff::/20", "documentation"},
        {"5f00::/16", "reserved"},
        {"fe80::/10", "link-local"},
        {"fc00::/7", "unique-local"},
        {"ff00::/8", "multicast"},
        {"fec0::/10", "reserved"},
    });
    return ranges;
}

/// The IPv4 address an IPv6 address carries in bytes [from, from + 4), as a QHostAddress.
QHostAddress embeddedIpv4(const Q_IPV6ADDR &bytes, int from)
{
    return QHostAddress(quint32(bytes[from]) << 24 | quint32(bytes[from + 1]) << 16 | quint32(bytes[from + 2]) << 8 |
                        quint32(bytes[from + 3]));
}

/// The IPv4 address inside `address` when it is one of the forms that carry one, else nullopt.
std::optional<QHostAddress> carriedIpv4(const QHostAddress &address)
{
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return std::nullopt;
    const Q_IPV6ADDR bytes = address.toIPv6Address();
    static const QList<std::pair<QHostAddress, int>> prefixes96{
        {QHostAddress(QStringLiteral("::ffff:0:0")), 96},   // IPv4-mapped
        {QHostAddress(QStringLiteral("::")), 96},           // IPv4-compatible (deprecated)
        {QHostAddress(QStringLiteral("::ffff:0:0:0")), 96}, // IPv4-translated (SIIT)
        {QHostAddress(QStringLiteral("64:ff9b::")), 96},    // NAT64
    };
    for (const auto &[network, prefix] : prefixes96) {
        if (address.isInSubnet(network, prefix))
            return embeddedIpv4(bytes, 12);
    }
    if (address.isInSubnet(QHostAddress(QStringLiteral("2002::")), 16)) // 6to4
        return embeddedIpv4(bytes, 2);
    return std::nullopt;
}

} // namespace

QString refusalReason(const QHostAddress &address)
{
    if (address.isNull())
        return QStringLiteral("unspecified");
    QHostAddress candidate = address;
    candidate.setScopeId(QString());
    const bool isV4 = candidate.protocol() == QAbstractSocket::IPv4Protocol;
    const QList<Range> &ranges = isV4 ? ipv4Ranges() : ipv6Ranges();
    for (const Range &range : ranges) {
        if (candidate.isInSubnet(range.network, range.prefix))
            return QString::fromLatin1(range.reason);
    }
    if (const std::optional<QHostAddress> inner = carriedIpv4(candidate))
        return refusalReason(*inner);
    return {};
}

QString testModeRefusalReason(const QHostAddress &address)
{
    const QString reason = refusalReason(address);
    return reason == QLatin1String("loopback") ? QString() : reason;
}

} // namespace AddressGuard
