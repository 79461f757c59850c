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
/// opening and closing balances with the day's movements, sales per clerk and per hour.
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

    /// Sums over `lines`.
    Line total() const;
};

/// The aggregate queries of the reports (no row is loaded into memory). Every call throws DatabaseError.
class ReportRepository
{
public:
    explicit ReportRepository(Database &db) : m_db(db) {}

    /// Fills `report` (its date and mode already set) with the figures of [fromMs, toMs), UTC
    /// milliseconds: the lines, clerks, hours (IST hours counted from fromMs), wallet and unknown-at-upstream.
    void fillDayEnd(qint64 accountId, qint64 fromMs, qint64 toMs, DayEndReport *report);

private:
    Database &m_db;
};
