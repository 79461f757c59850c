#pragma once

#include "auth/authcontext.h"
#include "entities/dayendreportdata.h"
#include "money.h"

#include <QDate>
#include <QList>
#include <QString>

class Database;

/// Day-end (Z) report of one IST calendar day for one account and mode: sales per type and
/// operator by status, commission (the discount the shop earned on SUCCESS sales), the wallet
/// opening and closing balances with the day's movements, sales per clerk, per hour and per tender, and the
/// shifts of the day (issue 28).
struct DayEndReport
{
    using Line = DayEndReportData::Line;   ///< billAmount, discount, paid: SUCCESS sales only
    using Clerk = DayEndReportData::Clerk; ///< clerk "" for sales without a signed-in person (API clients)
    using Hour = DayEndReportData::Hour;   ///< hour 0-23, IST
    QDate date;
    Mode mode = Mode::Test;
    QList<Line> lines;
    QList<Clerk> clerks;
    QList<Hour> hours; ///< all 24 hours, zeros included
    Paise walletOpening = 0;
    Paise walletClosing = 0;
    Paise topups = 0; ///< top-ups and opening credits of the day
    Paise debits = 0; ///< negative
    Paise refunds = 0;
    /// Live sales of the day still unknown at the upstream (queued, sent, unknown; issue 11).
    qint64 unknownAtUpstream = 0;
    Paise unknownAtUpstreamPaid = 0;
    /// Issue 28: the day's SUCCESS sales by tender, and the shifts opened that day, oldest first (an open shift's
    /// expected cash as it stands).
    Shift::TenderTotals tenders;
    QList<DayEndReportData::ShiftLine> shifts;
    /// Issue 29: the day's complaints (ReportService fills them from ComplaintRepository).
    DayEndReportData::Complaints complaints;

    /// Sums over `lines`.
    Line total() const;
};

/// The aggregate queries of the reports (no row is loaded into memory). Every call throws DatabaseError.
class ReportRepository
{
public:
    explicit ReportRepository(Database &db) : m_db(db) {}

    /// Fills `report` (its date and mode already set) with the figures of [fromMs, toMs), UTC
    /// milliseconds: the lines, clerks, hours (IST hours counted from fromMs), wallet, unknown-at-upstream, tenders
    /// and shifts.
    void fillDayEnd(qint64 accountId, qint64 fromMs, qint64 toMs, DayEndReport *report);

private:
    /// The tenders and shifts of [fromMs, toMs) (issue 28).
    void fillShifts(qint64 accountId, qint64 fromMs, qint64 toMs, DayEndReport *report);

    Database &m_db;
};
