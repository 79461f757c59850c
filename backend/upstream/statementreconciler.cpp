#include "statementreconciler.h"

#include "clock.h"
#include "money.h"
#include "statementrunrepository.h"
#include "store/transactionrepository.h"
#include "upstreamdispatcher.h"
#include "upstreamsalerepository.h"

#include <QLoggingCategory>
#include <QTimer>

Q_LOGGING_CATEGORY(lcStatement, "rechargedesk.upstream.statement")

namespace {

/// Longest text of a statement kept in a line, in characters.
constexpr int kMaxText = 200;

/// Text of the statement as a line keeps it: control characters as spaces, at most kMaxText characters.
QString kept(const QString &text)
{
    QString out = text.left(kMaxText);
    for (QChar &c : out) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            c = QLatin1Char(' ');
    }
    return out.simplified();
}

/// What a row says, for people: "Completed, ₹249.00, transaction 88812, 2024-04-01 10:00".
QString rowSays(const StatementRow &row)
{
    QStringList parts{row.statusText.isEmpty() ? QStringLiteral("(no status)") : row.statusText};
    if (row.amount)
        parts.append(Money::format(*row.amount));
    else if (!row.amountText.isEmpty())
        parts.append(row.amountText);
    if (!row.transactionId.isEmpty())
        parts.append(QStringLiteral("transaction ") + row.transactionId);
    if (!row.date.isEmpty())
        parts.append(row.date);
    return kept(parts.join(QStringLiteral(", ")));
}

/// What we hold about a sale, for people: "FAILED ₹249.00".
QString held(const TransactionRecord &record)
{
    return TransactionNames::status(record.status) + QLatin1Char(' ') + Money::format(record.billAmount);
}

} // namespace

struct StatementReconciler::Progress
{
    QString upstream;
    UpstreamStatement statement;
    QString fileName;
    QString actor;
    qsizetype next = 0;
    StatementRun run;
};

StatementRun StatementReconciler::reconcile(const QString &upstream, const UpstreamStatement &statement,
                                            const QString &fileName, const QString &actor)
{
    Progress progress{upstream, statement, fileName, actor, 0, {}};
    while (!step(progress, kRowsPerStep)) {
    }
    return finish(progress);
}

void StatementReconciler::reconcileInSteps(const QString &upstream, UpstreamStatement statement,
                                           const QString &fileName, const QString &actor, Done done)
{
    auto progress = std::make_shared<Progress>(Progress{upstream, std::move(statement), fileName, actor, 0, {}});
    nextStep(std::move(progress), std::move(done));
}

void StatementReconciler::nextStep(std::shared_ptr<Progress> progress, Done done)
{
    QTimer::singleShot(0, &m_dispatcher, [this, progress, done = std::move(done)]() mutable {
        try {
            if (!step(*progress, kRowsPerStep))
                return nextStep(std::move(progress), std::move(done));
            const StatementRun run = finish(*progress);
            done(run, nullptr);
        } catch (...) {
            done(std::nullopt, std::current_exception());
        }
    });
}

bool StatementReconciler::step(Progress &progress, int rows)
{
    const QList<StatementRow> &all = progress.statement.rows();
    for (int i = 0; i < rows && progress.next < all.size(); ++i)
        takeOver(progress.upstream, all.at(progress.next++), progress.run);
    return progress.next >= all.size();
}

StatementRun StatementReconciler::finish(Progress &progress)
{
    StatementRun &run = progress.run;
    run.upstream = progress.upstream;
    run.fileName = progress.fileName;
    run.actor = progress.actor;
    run.createdAtMs = m_clock.nowMs();
    run.linesTotal = qMax(run.linesTotal, qint64(run.lines.size()));
    run.id = StatementRunRepository(m_db).insert(run);
    run.withLines = true;
    const StatementCounts &c = run.counts;
    qCInfo(lcStatement,
           "statement %s of upstream %s by %s: %lld rows, %lld matched, %lld settled, %lld reversed, %lld mismatched, "
           "%lld unchanged, %lld unknown, %lld unreadable",
           qPrintable(run.fileName), qPrintable(run.upstream), qPrintable(run.actor), c.rows, c.matched, c.settled,
           c.reversed, c.mismatched, c.unchanged, c.unknown, c.unreadable);
    return run;
}

void StatementReconciler::takeOver(const QString &upstream, const StatementRow &row, StatementRun &run)
{
    StatementCounts &counts = run.counts;
    ++counts.rows;
    const auto listLine = [&run, &row](StatementLine::Kind kind, qint64 transactionId, const QString &holding,
                                       const char *reason, const QString &description) {
        ++run.linesTotal;
        if (run.lines.size() >= StatementRun::kMaxLines)
            return;
        StatementLine line;
        line.kind = kind;
        line.row = row.line;
        line.referenceId = kept(row.referenceId);
        line.transactionId = transactionId;
        line.statement = rowSays(row);
        line.held = holding;
        line.reason = QString::fromLatin1(reason);
        line.description = description;
        run.lines.append(line);
    };
    if (!row.problem.isEmpty() || !row.status) {
        ++counts.unreadable;
        listLine(StatementLine::Kind::Unreadable, 0, QString(), "unreadable_row", kept(row.problem));
        return;
    }

    // A reference given is the only key (the upstream's ids of another upstream may collide); the upstream's own id
    // only for a row without one.
    UpstreamSaleRepository sales(m_db);
    std::optional<UpstreamSale> sale;
    if (!row.referenceId.isEmpty())
        sale = sales.findByReference(row.referenceId);
    else
        sale = sales.findByUpstreamId(row.upstreamId());
    const std::optional<StoredTransaction> stored =
        sale ? TransactionRepository(m_db).findById(sale->transactionId) : std::nullopt;
    if (!sale || !stored) {
        ++counts.unknown;
        listLine(StatementLine::Kind::Unknown, 0, QString(), "no_such_sale",
                 row.referenceId.isEmpty()
                     ? QStringLiteral("no sale of ours has the upstream's transaction id %1").arg(row.upstreamId())
                     : QStringLiteral("no sale of ours has this reference id"));
        return;
    }
    if (sale->upstreamName != upstream) {
        ++counts.unknown;
        listLine(StatementLine::Kind::Unknown, stored->record.transactionId, held(stored->record), "other_upstream",
                 QStringLiteral("this sale was sent to the upstream \"%1\", not \"%2\": nothing was changed")
                     .arg(sale->upstreamName, upstream));
        return;
    }

    ++counts.matched;
    const TransactionRecord &record = stored->record;
    const TransactionStatus says = *row.status;
    const auto mismatch = [&](const char *reason, const QString &description) {
        ++counts.mismatched;
        listLine(StatementLine::Kind::Mismatch, record.transactionId, held(record), reason, description);
    };
    if (row.amount && *row.amount != record.billAmount) {
        mismatch("amount_differs", QStringLiteral("the statement's amount is %1 but the sale is for %2: nothing was "
                                                  "changed; check it with the upstream and resolve it by hand")
                                       .arg(Money::format(*row.amount), Money::format(record.billAmount)));
        return;
    }
    if (says == TransactionStatus::Success && record.type == TransactionType::Voucher && row.redeemCode.isEmpty() &&
        sale->waiting()) {
        mismatch(
            "voucher_code_missing",
            QStringLiteral("the voucher sold but the statement has no redeem code: resolve it by hand with the code "
                           "the upstream's dashboard shows"));
        return;
    }
    if (!sale->waiting() && record.status == says) { // nothing to take over: the sale already is what the row says
        ++counts.unchanged;
        return;
    }

    const UpstreamDispatcher::Report report = m_dispatcher.takeOverReport(sale->referenceId, row.upstreamId(), says,
                                                                          row.redeemCode, QStringLiteral("statement"));
    switch (report) {
    case UpstreamDispatcher::Report::Settled:
        ++counts.settled;
        return;
    case UpstreamDispatcher::Report::Reversed:
        ++counts.reversed;
        return;
    case UpstreamDispatcher::Report::Mismatch:
        mismatch("status_differs", QStringLiteral("the statement says %1 but the sale is %2 here: no money was moved; "
                                                  "check it with the upstream")
                                       .arg(TransactionNames::status(says), TransactionNames::status(record.status)));
        return;
    case UpstreamDispatcher::Report::NotOurs: // gone between the look-up and the take-over: never seen in practice
        --counts.matched;
        ++counts.unknown;
        listLine(StatementLine::Kind::Unknown, 0, QString(), "no_such_sale",
                 QStringLiteral("no sale of ours has this reference id"));
        return;
    case UpstreamDispatcher::Report::Unchanged:
        break;
    }
    // Unchanged: still a mismatch when the sale is final and the statement says otherwise (reported before).
    const std::optional<StoredTransaction> now = TransactionRepository(m_db).findById(record.transactionId);
    const TransactionStatus holding = now ? now->record.status : record.status;
    if (says != TransactionStatus::Pending && holding != TransactionStatus::Pending && holding != says) {
        ++counts.mismatched;
        listLine(StatementLine::Kind::Mismatch, record.transactionId, now ? held(now->record) : held(record),
                 "status_differs",
                 QStringLiteral("the statement says %1 but the sale is %2 here (reported before): no money was moved; "
                                "check it with the upstream")
                     .arg(TransactionNames::status(says), TransactionNames::status(holding)));
        return;
    }
    ++counts.unchanged;
}
