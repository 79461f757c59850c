#include "auditlogrepository.h"

#include "store/database.h"

qint64 AuditLogRepository::insert(qint64 accountId, const QString &actor, const QString &action, const QString &detail,
                                  qint64 createdAtMs)
{
    QSqlQuery &q = m_db.run(QStringLiteral("INSERT INTO audit_log (account_id, actor, action, detail, created_at)"
                                           " VALUES (?, ?, ?, ?, ?) RETURNING id"),
                            {accountId, textValue(actor), textValue(action), textValue(detail), createdAtMs});
    if (!q.next())
        throw DatabaseError(QStringLiteral("audit insert returned no id"));
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

QList<AuditEntry> AuditLogRepository::listBefore(qint64 accountId, qint64 beforeId, int limit)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT id, actor, action, detail, created_at FROM audit_log"
                                           " WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?"),
                            {accountId, beforeId, limit});
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
