#include "statementrunrepository.h"

#include "store/database.h"

namespace {

const QString kRunColumns =
    QStringLiteral("id, upstream_name, created_at, actor, file_name, row_count, matched, settled,"
                   " reversed, mismatched, unchanged, unknown_count, unreadable, lines_total");

StatementRun runFrom(const QSqlQuery &q)
{
    StatementRun run;
    run.id = q.value(0).toLongLong();
    run.upstream = q.value(1).toString();
    run.createdAtMs = q.value(2).toLongLong();
    run.actor = q.value(3).toString();
    run.fileName = q.value(4).toString();
    run.counts.rows = q.value(5).toLongLong();
    run.counts.matched = q.value(6).toLongLong();
    run.counts.settled = q.value(7).toLongLong();
    run.counts.reversed = q.value(8).toLongLong();
    run.counts.mismatched = q.value(9).toLongLong();
    run.counts.unchanged = q.value(10).toLongLong();
    run.counts.unknown = q.value(11).toLongLong();
    run.counts.unreadable = q.value(12).toLongLong();
    run.linesTotal = q.value(13).toLongLong();
    return run;
}

} // namespace

qint64 StatementRunRepository::insert(const StatementRun &run)
{
    WriteTransaction transaction(m_db);
    const StatementCounts &c = run.counts;
    const qint64 id = m_db.insertReturningId(
        QStringLiteral("INSERT INTO statement_runs (upstream_name, created_at, actor, file_name, row_count, matched,"
                       " settled, reversed, mismatched, unchanged, unknown_count, unreadable, lines_total)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {run.upstream, run.createdAtMs, textValue(run.actor), textValue(run.fileName), c.rows, c.matched, c.settled,
         c.reversed, c.mismatched, c.unchanged, c.unknown, c.unreadable,
         qMax(run.linesTotal, qint64(run.lines.size()))});
    const qsizetype kept = qMin<qsizetype>(run.lines.size(), StatementRun::kMaxLines);
    for (qsizetype i = 0; i < kept; ++i) {
        const StatementLine &line = run.lines.at(i);
        m_db.run(QStringLiteral("INSERT INTO statement_run_lines (run_id, seq, line_no, kind, reference_id,"
                                " transaction_id, statement, held, reason, description)"
                                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                 {id, qint64(i), line.row, StatementLine::kindName(line.kind), textValue(line.referenceId),
                  line.transactionId, textValue(line.statement), textValue(line.held), textValue(line.reason),
                  textValue(line.description)});
    }
    transaction.commit();
    return id;
}

QList<StatementRun> StatementRunRepository::list(const QString &upstream, int limit)
{
    QList<StatementRun> runs;
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT ") + kRunColumns +
                                QStringLiteral(" FROM statement_runs WHERE upstream_name = ? ORDER BY id DESC LIMIT ?"),
                            {upstream, limit});
    while (q.next())
        runs.append(runFrom(q));
    q.finish();
    return runs;
}

std::optional<StatementRun> StatementRunRepository::find(const QString &upstream, qint64 id)
{
    QSqlQuery &q = m_db.run(QStringLiteral("SELECT ") + kRunColumns +
                                QStringLiteral(" FROM statement_runs WHERE upstream_name = ? AND id = ?"),
                            {upstream, id});
    if (!q.next()) {
        q.finish();
        return std::nullopt;
    }
    StatementRun run = runFrom(q);
    q.finish();
    run.withLines = true;
    QSqlQuery &l =
        m_db.run(QStringLiteral("SELECT line_no, kind, reference_id, transaction_id, statement, held, reason,"
                                " description FROM statement_run_lines WHERE run_id = ? ORDER BY seq"),
                 {id});
    while (l.next()) {
        StatementLine line;
        line.row = l.value(0).toLongLong();
        line.kind = StatementLine::kindFromName(l.value(1).toString()).value_or(StatementLine::Kind::Unreadable);
        line.referenceId = l.value(2).toString();
        line.transactionId = l.value(3).toLongLong();
        line.statement = l.value(4).toString();
        line.held = l.value(5).toString();
        line.reason = l.value(6).toString();
        line.description = l.value(7).toString();
        run.lines.append(line);
    }
    l.finish();
    return run;
}
