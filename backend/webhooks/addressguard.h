#pragma once

#include <QHostAddress>
#include <QString>

/// The SSRF guard of webhooks (api-conventions.md, "Webhooks"; issue 12): which resolved
/// addresses a webhook may not be sent to. Applied to the address actually connected to.
namespace AddressGuard {

/// Why `address` is not a public unicast address ("loopback", "private", "link-local",
/// "carrier-grade NAT", "unique-local", "unspecified", "multicast", "broadcast",
/// "documentation", "benchmarking", "Teredo", "reserved"); empty when a live webhook may go
/// there. Covers the IANA IPv4 and IPv6 special-purpose registries. An IPv4 address carried in
/// IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, translated ::ffff:0:a.b.c.d, NAT64
/// 64:ff9b::/96, 6to4 2002::/16) is judged as that IPv4 address.
QString refusalReason(const QHostAddress &address);

/// The rule of test-mode endpoints: like refusalReason(), but loopback is allowed (a receiver
/// on the developer's machine); private, link-local and the other special ranges are not.
/// (The built-in inbox is this server itself and is not judged.)
QString testModeRefusalReason(const QHostAddress &address);

} // namespace AddressGuard
