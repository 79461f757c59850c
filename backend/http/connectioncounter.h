#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QMutex>
#include <QtNetwork/QHostAddress>

/// Counts a server's open connections, in total and per client address, against two caps.
///
/// Addresses are grouped as a shop LAN sees clients: an IPv4 address (also when written IPv4-mapped, ::ffff:a.b.c.d)
/// counts on its own; IPv6 addresses count per /64 prefix, since one host can pick any address of its prefix.
/// Thread-safe: the LimitedTcpServers of the HTTP worker threads share one counter (HttpWorkerPool), so the caps
/// hold for the server as a whole.
class ConnectionCounter
{
public:
    /// Why a connection was (not) admitted.
    enum class Admission
    {
        Admitted,    ///< counted; call remove() when it closes
        TotalFull,   ///< maxTotal connections are open
        AddressFull, ///< maxPerAddress connections from this address (group) are open
    };

    /// Creates a counter; caps below 1 are treated as 1.
    ConnectionCounter(int maxTotal, int maxPerAddress);

    /// Counts one more connection from `peer` unless a cap is reached.
    Admission tryAdd(const QHostAddress &peer);

    /// Forgets one connection from `peer` that tryAdd() admitted.
    void remove(const QHostAddress &peer);

    /// Connections open in total.
    int total() const;

    /// Connections open from `peer`'s address group.
    int countFor(const QHostAddress &peer) const;

    /// Changes the caps; connections already counted stay counted.
    void setLimits(int maxTotal, int maxPerAddress);

    int maxTotal() const;
    int maxPerAddress() const;

private:
    static QByteArray groupKey(const QHostAddress &peer);

    mutable QMutex m_mutex;
    int m_maxTotal;
    int m_maxPerAddress;
    int m_total = 0;
    QHash<QByteArray, int> m_perAddress;
};
