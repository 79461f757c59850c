#include "reportrepository.h"

#include "database.h"
#include "shiftrepository.h"

#include <algorithm>

DayEndReport::Line DayEndReport::total() const
{
    Line sum;
    for (const Line &line : lines) {
        sum.success += line.success;
        sum.pending += line.pending;
        sum.failed += line.failed;
        sum.billAmount += line.billAmount;
        sum.discount += line.discount;
        sum.paid += line.paid;
    }
    return sum;
}

void ReportRepository::fillDayEnd(qint64 accountId, qint64 fromMs, qint64 toMs, DayEndReport *report)
{
    const QString modeName = ModeNames::mode(report->mode);
    QSqlQuery &lines = m_db.run(
        QStringLiteral("SELECT type, operator_code,"
                       " SUM(CASE WHEN status = 'SUCCESS' THEN 1 ELSE 0 END),"
                       " SUM(CASE WHEN status = 'PENDING' THEN 1 ELSE 0 END),"
                       " SUM(CASE WHEN status = 'FAILED' THEN 1 ELSE 0 END),"
                       " SUM(CASE WHEN status = 'SUCCESS' THEN bill_amount ELSE 0 END),"
                       " SUM(CASE WHEN status = 'SUCCESS' THEN discount ELSE 0 END),"
                       " SUM(CASE WHEN status = 'SUCCESS' THEN paid ELSE 0 END)"
                       " FROM transactions WHERE account_id = ? AND mode = ? AND created_at >= ? AND created_at < ?"
                       " GROUP BY type, operator_code ORDER BY type, operator_code"),
        {accountId, modeName, fromMs, toMs});
    while (lines.next()) {
        report->lines.append({lines.value(0).toString(), lines.value(1).toString(), lines.value(2).toLongLong(),
                              lines.value(3).toLongLong(), lines.value(4).toLongLong(), lines.value(5).toLongLong(),
                              lines.value(6).toLongLong(), lines.value(7).toLongLong()});
    }
    lines.finish();

    QSqlQuery &clerks =
        m_db.run(QStringLiteral(
                     "SELECT clerk, COUNT(*), SUM(bill_amount), SUM(discount) FROM transactions"
                     " WHERE account_id = ? AND mode = ? AND created_at >= ? AND created_at < ? AND status = 'SUCCESS'"
                     " GROUP BY clerk ORDER BY clerk"),
                 {accountId, modeName, fromMs, toMs});
    while (clerks.next()) {
        report->clerks.append({clerks.value(0).toString(), clerks.value(1).toLongLong(), clerks.value(2).toLongLong(),
                               clerks.value(3).toLongLong()});
    }
    clerks.finish();

    for (int hour = 0; hour < 24; ++hour)
        report->hours.append({hour, 0, 0});
    QSqlQuery &hours = m_db.run(
        // GROUP BY 1, not the expression again: PostgreSQL sees `created_at - $1` and `created_at - $6` as
        // different expressions and refuses the query.
        QStringLiteral(
            "SELECT (created_at - ?) / 3600000, COUNT(*), SUM(bill_amount) FROM transactions"
            " WHERE account_id = ? AND mode = ? AND created_at >= ? AND created_at < ? AND status = 'SUCCESS'"
            " GROUP BY 1"),
        {fromMs, accountId, modeName, fromMs, toMs});
    while (hours.next()) {
        const int hour = hours.value(0).toInt();
        if (hour >= 0 && hour < 24)
            report->hours[hour] = {hour, hours.value(1).toLongLong(), hours.value(2).toLongLong()};
    }
    hours.finish();

    QSqlQuery &wallet = m_db.run(
        QStringLiteral(
            "SELECT"
            " COALESCE(SUM(CASE WHEN created_at < ? THEN amount ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN created_at < ? THEN amount ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN created_at >= ? AND created_at < ? AND kind IN ('topup', 'opening')"
            " THEN amount ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN created_at >= ? AND created_at < ? AND kind = 'debit' THEN amount ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN created_at >= ? AND created_at < ? AND kind = 'refund' THEN amount ELSE 0 END), 0)"
            " FROM wallet_ledger WHERE account_id = ? AND mode = ?"),
        {fromMs, toMs, fromMs, toMs, fromMs, toMs, fromMs, toMs, accountId, modeName});
    if (wallet.next()) {
        report->walletOpening = wallet.value(0).toLongLong();
        report->walletClosing = wallet.value(1).toLongLong();
        report->topups = wallet.value(2).toLongLong();
        report->debits = wallet.value(3).toLongLong();
        report->refunds = wallet.value(4).toLongLong();
    }
    wallet.finish();

    QSqlQuery &unknown = m_db.run(
        QStringLiteral("SELECT COUNT(*), COALESCE(SUM(t.paid), 0) FROM transactions t JOIN upstream_sales u ON"
                       " u.transaction_id = t.id WHERE t.account_id = ? AND t.mode = ? AND t.created_at >= ? AND"
                       " t.created_at < ? AND u.state IN ('queued', 'sent', 'unknown')"),
        {accountId, modeName, fromMs, toMs});
    if (unknown.next()) {
        report->unknownAtUpstream = unknown.value(0).toLongLong();
        report->unknownAtUpstreamPaid = unknown.value(1).toLongLong();
    }
    unknown.finish();
    fillShifts(accountId, fromMs, toMs, report);
}

void ReportRepository::fillShifts(qint64 accountId, qint64 fromMs, qint64 toMs, DayEndReport *report)
{
    QSqlQuery &tenders =
        m_db.run(QStringLiteral(
                     "SELECT COALESCE(tender, ''), COUNT(*), SUM(bill_amount) FROM transactions"
                     " WHERE account_id = ? AND mode = ? AND created_at >= ? AND created_at < ? AND status = 'SUCCESS'"
                     " GROUP BY 1"),
                 {accountId, ModeNames::mode(report->mode), fromMs, toMs});
    while (tenders.next()) {
        const QString tender = tenders.value(0).toString();
        const Shift::TenderTotal total{tenders.value(1).toLongLong(), tenders.value(2).toLongLong()};
        (tender == QLatin1String("cash")  ? report->tenders.cash
         : tender == QLatin1String("upi") ? report->tenders.upi
                                          : report->tenders.unrecorded) = total;
    }
    tenders.finish();

    ShiftRepository shifts(m_db);
    ShiftFilter day;
    day.openedFromMs = fromMs;
    day.openedToMs = toMs;
    day.limit = 1000; // a shop opens a few shifts a day
    QList<StoredShift> opened = shifts.list(accountId, report->mode, day);
    std::reverse(opened.begin(), opened.end()); // oldest first
    for (const StoredShift &shift : opened) {
        DayEndReportData::ShiftLine line;
        line.id = shift.id;
        line.terminal = shift.terminal;
        line.clerk = shift.clerk;
        line.state = shift.open ? QStringLiteral("open") : QStringLiteral("closed");
        line.openedAt = QDateTime::fromMSecsSinceEpoch(shift.openedAtMs, Qt::UTC);
        if (!shift.open)
            line.closedAt = QDateTime::fromMSecsSinceEpoch(shift.closedAtMs, Qt::UTC);
        line.openingCash = shift.openingCash;
        line.expectedCash =
            shift.open ? shifts.takings(shift.id).expectedCash(shift.openingCash) : shift.expectedCash.value_or(0);
        line.countedCash = shift.countedCash;
        if (shift.countedCash)
            line.difference = *shift.countedCash - line.expectedCash;
        report->shifts.append(line);
    }
}
