#include "auditlog.h"

#include "clock.h"
#include "store/database.h"

#include <limits>

qint64 AuditLog::record(qint64 accountId, const QString &actor, const QString &action, const QString &detail)
{
    QSqlQuery &q =
        m_db.run(QStringLiteral("INSERT INTO audit_log (account_id, actor, action, detail, created_at)"
                                " VALUES (?, ?, ?, ?, ?) RETURNING id"),
                 {accountId, textValue(actor), textValue(action), textValue(detail.left(kMaxDetail)), m_clock.nowMs()});
    if (!q.next())
        throw DatabaseError(QStringLiteral("audit insert returned no id"));
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

QList<AuditEntry> AuditLog::list(qint64 accountId, int limit, qint64 beforeId)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT id, actor, action, detail, created_at FROM audit_log"
                                           " WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?"),
                            {accountId, beforeId > 0 ? beforeId : std::numeric_limits<qint64>::max(), limit});
    QList<AuditEntry> entries;
    while (q.next()) {
        AuditEntry entry;
        entry.id = q.value(0).toLongLong();
        entry.actor = q.value(1).toString();
        entry.action = q.value(2).toString();
        entry.detail = q.value(3).toString();
        entry.createdAtMs = q.value(4).toLongLong();
        entries.append(entry);
    }
    q.finish();
    return entries;
}
