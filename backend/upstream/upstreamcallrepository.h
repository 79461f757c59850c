#pragma once

#include "entities/upstreaminfo.h"

#include <QList>

class Database;

/// The upstream_calls table: one row per call this server made to its upstream. Runs inside the
/// caller's transaction if one is open. Throws DatabaseError.
class UpstreamCallRepository
{
public:
    explicit UpstreamCallRepository(Database &db) : m_db(db) {}

    /// Appends `call` as given.
    void insert(const UpstreamCall &call);
    /// The calls made for a sale, oldest first.
    QList<UpstreamCall> forTransaction(qint64 transactionId);

private:
    Database &m_db;
};
