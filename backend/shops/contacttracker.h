#pragma once

#include <QHash>
#include <QMutex>

#include <optional>

class Clock;
class Database;

/// The last time each shop's keys called this server (issue 30, "last contact"), kept in memory: mark() runs on
/// every authenticated call of a shop's key, on the server thread and on the HTTP worker threads alike (thread-safe),
/// and flush() writes what changed to shops.last_contact_at from the server thread, only forward in time (so
/// several servers sharing the database keep the latest). Times are UTC ms.
class ContactTracker
{
public:
    /// How often the server writes the marks: at most every 30 s.
    static constexpr int kFlushIntervalMs = 30'000;

    explicit ContactTracker(const Clock &clock) : m_clock(clock) {}

    /// Notes that the shop account `accountId` called now. Any thread.
    void mark(qint64 accountId);
    /// The latest mark of the account on this server; nullopt when it never called here. Any thread.
    std::optional<qint64> lastContactMs(qint64 accountId) const;
    /// Writes the marks made since the last flush (each in its own short statement, only when later than the stored
    /// value). Marks not written stay for the next flush when the database fails; throws nothing.
    void flush(Database &db);

private:
    const Clock &m_clock;
    mutable QMutex m_mutex;         ///< guards both maps
    QHash<qint64, qint64> m_latest; ///< account id → its latest mark
    QHash<qint64, qint64> m_dirty;  ///< marks not yet written
};
