#pragma once

#include "entities/upstreaminfo.h"

#include <QList>
#include <QString>

class Database;

/// Records every call to the upstream and reads them back for a sale. Throws DatabaseError.
class UpstreamCallLog
{
public:
    explicit UpstreamCallLog(Database &db) : m_db(db) {}
    void record(const UpstreamCall &call);
    /// The calls made for a sale, oldest first.
    QList<UpstreamCall> forTransaction(qint64 transactionId);

private:
    Database &m_db;
};
