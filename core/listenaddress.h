#pragma once

#include <QHostAddress>
#include <QString>

#include <optional>

/// An address and port a server listens on, written ADDR:PORT on the command line (`serve --listen`,
/// the terminal's `--listen`) and in terminal.ini ([server] listen). One rule for every reader:
///
/// - `127.0.0.1:8080`, `0.0.0.0:8080`: a dotted IPv4 address (four parts), a colon, the port;
/// - `[::1]:8080`, `[::]:8080`, `[fe80::1%eth0]:8080`: an IPv6 address goes in brackets (RFC 3986), since
///   its own colons make `::1:8080` ambiguous; unbracketed IPv6 is refused;
/// - `localhost:8080`: 127.0.0.1 (no other host name: a listen address is never looked up in DNS);
/// - `8080`: the port alone, on 127.0.0.1;
/// - the port is 0 to 65535 in ASCII digits (no sign, no blanks); 0 picks any free port.
struct ListenAddress
{
    QHostAddress address;
    quint16 port = 0;

    /// Reads `text` by the rule above. nullopt, with *why (English, for the command line) when given,
    /// when it does not follow it.
    static std::optional<ListenAddress> parse(const QString &text, QString *why = nullptr);
    /// Back to text in the form parse() reads: "127.0.0.1:8080", "[::1]:8080".
    QString toString() const;
};
