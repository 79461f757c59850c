#pragma once

#include "auditlog.h"

#include <QList>
#include <QString>

class Database;

/// The audit_log table: the rows AuditLog appends and lists. Runs inside the caller's
/// transaction if one is open, else on its own. Throws DatabaseError.
class AuditLogRepository
{
public:
    explicit AuditLogRepository(Database &db) : m_db(db) {}

    /// Inserts one entry (`createdAtMs` UTC milliseconds) as given and returns its id.
    qint64 insert(qint64 accountId, const QString &actor, const QString &action, const QString &detail,
                  qint64 createdAtMs);
    /// Entries of the account with id < `beforeId`, newest first, at most `limit`.
    QList<AuditEntry> listBefore(qint64 accountId, qint64 beforeId, int limit);

private:
    Database &m_db;
};
