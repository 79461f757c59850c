#include "addressguard.h"

#include <QList>

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
        {"192.168.0.0/16", "private"},
        {"198.18.0.0/15", "reserved"},
        {"224.0.0.0/4", "multicast"},
        {"240.0.0.0/4", "reserved"},
    });
    return ranges;
}

const QList<Range> &ipv6Ranges()
{
    static const QList<Range> ranges = makeRanges({
        {"::/128", "unspecified"},
        {"::1/128", "loopback"},
        {"fe80::/10", "link-local"},
        {"fc00::/7", "unique-local"},
        {"ff00::/8", "multicast"},
        {"fec0::/10", "reserved"},
    });
    return ranges;
}

} // namespace

QString refusalReason(const QHostAddress &address)
{
    if (address.isNull())
        return QStringLiteral("unspecified");
    QHostAddress candidate = address;
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4); // also unwraps ::ffff:a.b.c.d
    if (isV4)
        candidate = QHostAddress(v4);
    const QList<Range> &ranges = isV4 ? ipv4Ranges() : ipv6Ranges();
    for (const Range &range : ranges) {
        if (candidate.isInSubnet(range.network, range.prefix))
            return QString::fromLatin1(range.reason);
    }
    if (!isV4) {
        // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 address: judge that one.
        const Q_IPV6ADDR bytes = candidate.toIPv6Address();
        if (candidate.isInSubnet(QHostAddress(QStringLiteral("64:ff9b::")), 96)) {
            const quint32 embedded =
                quint32(bytes[12]) << 24 | quint32(bytes[13]) << 16 | quint32(bytes[14]) << 8 | bytes[15];
            return refusalReason(QHostAddress(embedded));
        }
        if (candidate.isInSubnet(QHostAddress(QStringLiteral("2002::")), 16)) {
            const quint32 embedded =
                quint32(bytes[2]) << 24 | quint32(bytes[3]) << 16 | quint32(bytes[4]) << 8 | bytes[5];
            return refusalReason(QHostAddress(embedded));
        }
    }
    if (address == QHostAddress::Broadcast)
        return QStringLiteral("reserved");
    return {};
}

} // namespace AddressGuard
