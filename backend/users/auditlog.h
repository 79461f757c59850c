#pragma once

#include "entities/auditentry.h"

#include <QList>
#include <QString>

class Clock;
class Database;

/// The shop's append-only log of admin actions (issue 6, item 6): who did what, when. Any
/// service may record into it; the back office reads it through GET /api/v1/audit-log.
class AuditLog
{
public:
    /// Longest stored detail, in characters (longer text is cut).
    static constexpr int kMaxDetail = 1000;

    AuditLog(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}

    /// Appends an entry stamped with the clock's now. Runs inside the caller's transaction if
    /// one is open (so the entry commits or rolls back with the change it describes), else on
    /// its own. Returns the entry id. Throws DatabaseError.
    qint64 record(qint64 accountId, const QString &actor, const QString &action, const QString &detail);
    /// Entries of the account newest first, at most `limit`, with id < `beforeId` when it is > 0
    /// (keyset pagination). Throws DatabaseError.
    QList<AuditEntry> list(qint64 accountId, int limit, qint64 beforeId);

private:
    Database &m_db;
    const Clock &m_clock;
};
