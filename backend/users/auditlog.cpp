#include "auditlog.h"

#include "auditlogrepository.h"
#include "clock.h"

#include <limits>

qint64 AuditLog::record(qint64 accountId, const QString &actor, const QString &action, const QString &detail)
{
    return AuditLogRepository(m_db).insert(accountId, actor, action, detail.left(kMaxDetail), m_clock.nowMs());
}

QList<AuditEntry> AuditLog::list(qint64 accountId, int limit, qint64 beforeId)
{
    return AuditLogRepository(m_db).listBefore(accountId, beforeId > 0 ? beforeId : std::numeric_limits<qint64>::max(),
                                               limit);
}
