#include "connectioncounter.h"

#include <QtCore/QtEndian>

#include <algorithm>

ConnectionCounter::ConnectionCounter(int maxTotal, int maxPerAddress)
    : m_maxTotal(std::max(maxTotal, 1)), m_maxPerAddress(std::max(maxPerAddress, 1))
{}

void ConnectionCounter::setLimits(int maxTotal, int maxPerAddress)
{
    const QMutexLocker lock(&m_mutex);
    m_maxTotal = std::max(maxTotal, 1);
    m_maxPerAddress = std::max(maxPerAddress, 1);
}

ConnectionCounter::Admission ConnectionCounter::tryAdd(const QHostAddress &peer)
{
    const QByteArray key = groupKey(peer);
    const QMutexLocker lock(&m_mutex);
    if (m_total >= m_maxTotal)
        return Admission::TotalFull;
    int &count = m_perAddress[key];
    if (count >= m_maxPerAddress)
        return Admission::AddressFull;
    ++count;
    ++m_total;
    return Admission::Admitted;
}

void ConnectionCounter::remove(const QHostAddress &peer)
{
    const QByteArray key = groupKey(peer);
    const QMutexLocker lock(&m_mutex);
    const auto it = m_perAddress.find(key);
    if (it == m_perAddress.end())
        return;
    --m_total;
    if (--*it <= 0)
        m_perAddress.erase(it);
}

int ConnectionCounter::total() const
{
    const QMutexLocker lock(&m_mutex);
    return m_total;
}

int ConnectionCounter::countFor(const QHostAddress &peer) const
{
    const QByteArray key = groupKey(peer);
    const QMutexLocker lock(&m_mutex);
    return m_perAddress.value(key);
}

int ConnectionCounter::maxTotal() const
{
    const QMutexLocker lock(&m_mutex);
    return m_maxTotal;
}

int ConnectionCounter::maxPerAddress() const
{
    const QMutexLocker lock(&m_mutex);
    return m_maxPerAddress;
}

QByteArray ConnectionCounter::groupKey(const QHostAddress &peer)
{
    bool isIpv4 = false;
    const quint32 ipv4 = peer.toIPv4Address(&isIpv4);
    if (isIpv4) {
        const quint32 bigEndian = qToBigEndian(ipv4);
        return QByteArray(reinterpret_cast<const char *>(&bigEndian), sizeof bigEndian);
    }
    const Q_IPV6ADDR ipv6 = peer.toIPv6Address();
    return QByteArray(reinterpret_cast<const char *>(ipv6.c), 8); // the /64 prefix
}
