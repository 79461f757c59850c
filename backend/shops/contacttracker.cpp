#include "shops/contacttracker.h"

#include "clock.h"
#include "shops/shoprepository.h"
#include "store/database.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcContacts, "rechargedesk.shops")

void ContactTracker::mark(qint64 accountId)
{
    const qint64 now = m_clock.nowMs();
    const QMutexLocker lock(&m_mutex);
    qint64 &latest = m_latest[accountId];
    if (now > latest) {
        latest = now;
        m_dirty.insert(accountId, now);
    }
}

std::optional<qint64> ContactTracker::lastContactMs(qint64 accountId) const
{
    const QMutexLocker lock(&m_mutex);
    const auto found = m_latest.constFind(accountId);
    return found == m_latest.cend() ? std::nullopt : std::optional<qint64>(*found);
}

void ContactTracker::flush(Database &db)
{
    QHash<qint64, qint64> pending;
    {
        const QMutexLocker lock(&m_mutex);
        pending.swap(m_dirty);
    }
    if (pending.isEmpty())
        return;
    try {
        ShopRepository shops(db);
        WriteTransaction transaction(db);
        for (auto it = pending.cbegin(); it != pending.cend(); ++it)
            shops.touchContact(it.key(), it.value());
        transaction.commit();
    } catch (const DatabaseError &e) {
        qCWarning(lcContacts, "last contacts not written (kept for the next try): %s", e.what());
        const QMutexLocker lock(&m_mutex);
        for (auto it = pending.cbegin(); it != pending.cend(); ++it)
            if (!m_dirty.contains(it.key()))
                m_dirty.insert(it.key(), it.value());
    }
}
