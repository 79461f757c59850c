#pragma once

#include <QHostAddress>
#include <QString>

/// The SSRF guard of live-mode webhooks (api-conventions.md, "Webhooks"): which resolved
/// addresses a webhook may not be sent to. Applied to the address actually connected to.
namespace AddressGuard {

/// Why `address` is not a public unicast address ("loopback", "private", "link-local",
/// "carrier-grade NAT", "unique-local", "unspecified", "multicast", "reserved"); empty when a
/// live webhook may go there. IPv4-mapped IPv6 addresses are judged as their IPv4 address.
QString refusalReason(const QHostAddress &address);

} // namespace AddressGuard
