#pragma once

#include "entities/statementrun.h"

#include <QList>
#include <QString>

#include <optional>

class Database;

/// The statement_runs and statement_run_lines tables (migration 15; issue 26, "By the upstream's statement"): each
/// reconciliation of an upstream's statement with its counts and the lines a person must look at. insert() commits a
/// write transaction of its own (call it outside one). Throws DatabaseError.
class StatementRunRepository
{
public:
    explicit StatementRunRepository(Database &db) : m_db(db) {}

    /// Stores `run` (its id and withLines ignored) with its lines, at most StatementRun::kMaxLines of them, in one
    /// write transaction of its own; returns the new run's id.
    qint64 insert(const StatementRun &run);
    /// The runs of the upstream `upstream`, newest first, at most `limit`, without their lines.
    QList<StatementRun> list(const QString &upstream, int limit);
    /// The run `id` of the upstream `upstream` with its lines (in the order of the file); nullopt when that upstream
    /// has no such run.
    std::optional<StatementRun> find(const QString &upstream, qint64 id);

private:
    Database &m_db;
};
