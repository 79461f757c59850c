#pragma once

#include "entities/statementrun.h"
#include "upstreamstatement.h"

#include <QString>

#include <exception>
#include <functional>
#include <memory>
#include <optional>

class Clock;
class Database;
class UpstreamDispatcher;

/// Reconciles an upstream's statement with the sales sent to it (issue 26, "By the upstream's statement";
/// api-conventions.md "Leaving SUCCESS or FAILED"). Each readable row is matched to a sale of ours by its reference_id
/// (else, for a row without one, by the upstream's transaction id) and taken over through
/// UpstreamDispatcher::takeOverReport() with source "statement":
///
/// - a sale still waiting on the upstream whose row is final settles exactly once (FAILED refunds once);
/// - FAILED for a sale we hold SUCCESS is a reversal (refunded once, audit-logged, our webhook sent again);
/// - SUCCESS for a sale we hold FAILED is a mismatch for a person: no money moves;
/// - a row whose amount differs from the sale's bill amount is a mismatch for a person and moves no money either, nor
///   does a voucher reported SUCCESS without its code (a person resolves it with the code);
/// - a PENDING row, or a final one the sale already has, changes nothing.
///
/// Rows of no sale of ours (or of a sale sent to another upstream) are listed as unknown, unreadable rows as
/// unreadable. Each run is stored (StatementRunRepository) with its counts, who ran it and the lines for a person.
/// Taking a row over twice changes nothing, so a statement may be imported again; rows are taken over in the order of
/// the file. Used by the server (POST /api/v1/upstreams/{name}/statements) and by `rechargedesk upstream reconcile` on
/// the same database.
class StatementReconciler
{
public:
    /// Rows taken over per event-loop turn by reconcileInSteps().
    static constexpr int kRowsPerStep = 200;

    /// Takes rows over through `dispatcher` (its database is `db`); `clock` stamps the runs.
    StatementReconciler(Database &db, UpstreamDispatcher &dispatcher, const Clock &clock)
        : m_db(db), m_dispatcher(dispatcher), m_clock(clock)
    {}

    /// Takes over every row of `statement` for the upstream `upstream` (its name; the caller checked it exists), then
    /// stores the run with `fileName` and `actor` and returns it with its id and lines. Throws DatabaseError.
    StatementRun reconcile(const QString &upstream, const UpstreamStatement &statement, const QString &fileName,
                           const QString &actor);

    /// The result of reconcileInSteps(): the stored run, or the error that stopped it (rows taken over before it stay
    /// taken over; a new import of the statement finishes them).
    using Done = std::function<void(const std::optional<StatementRun> &run, std::exception_ptr error)>;
    /// As reconcile(), kRowsPerStep rows per turn of the event loop of the dispatcher's thread, so that the server
    /// keeps answering while a long statement is reconciled; `done` runs once at the end (not if the dispatcher is
    /// destroyed first).
    void reconcileInSteps(const QString &upstream, UpstreamStatement statement, const QString &fileName,
                          const QString &actor, Done done);

private:
    struct Progress;
    /// Takes over up to `rows` more rows of `progress`; true when none is left.
    bool step(Progress &progress, int rows);
    /// Takes over one row into `run`.
    void takeOver(const QString &upstream, const StatementRow &row, StatementRun &run);
    /// Stores the run of `progress` and returns it.
    StatementRun finish(Progress &progress);
    void nextStep(std::shared_ptr<Progress> progress, Done done);

    Database &m_db;
    UpstreamDispatcher &m_dispatcher;
    const Clock &m_clock;
};
