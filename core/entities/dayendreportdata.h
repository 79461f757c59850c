#pragma once

#include "entities/shift.h"
#include "money.h"

#include <QDate>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/// The day-end (Z) report of one IST day as GET /api/v1/reports/day-end answers it
/// (api-conventions.md "Beyond the spec"), money in paise. Money sums count SUCCESS sales
/// only; the commission earned is the discount on them. The server encodes it with toJson();
/// the back office reads it with fromJson() (printing: ui/receipts/dayendprint).
struct DayEndReportData
{
    /// Sales of one type and operator (or the totals, type and operator "").
    struct Line
    {
        QString type; ///< MOBILE / VOUCHER / DTH ("" for the totals)
        QString operatorCode;
        qint64 success = 0;
        qint64 pending = 0;
        qint64 failed = 0;
        Paise billAmount = 0;
        Paise discount = 0;
        Paise paid = 0;

        QJsonObject toJson() const;
        static std::optional<Line> fromJson(const QJsonObject &json, QString *error);
    };
    /// Successful sales of one person.
    struct Clerk
    {
        QString clerk; ///< "" for sales made by API clients without a signed-in person
        qint64 success = 0;
        Paise billAmount = 0;
        Paise discount = 0;

        QJsonObject toJson() const;
        static std::optional<Clerk> fromJson(const QJsonObject &json, QString *error);
    };
    /// Successful sales of one IST hour.
    struct Hour
    {
        int hour = 0; ///< 0-23 IST
        qint64 success = 0;
        Paise billAmount = 0;

        QJsonObject toJson() const;
        static std::optional<Hour> fromJson(const QJsonObject &json, QString *error);
    };

    /// A shift opened that IST day (issue 28), as the report lists it.
    struct ShiftLine
    {
        qint64 id = 0;
        QString terminal;
        QString clerk;
        QString state; ///< "open" / "closed"
        QDateTime openedAt;
        QDateTime closedAt; ///< invalid while open
        Paise openingCash = 0;
        Paise expectedCash = 0;           ///< frozen at the close; while open, as it stands now
        std::optional<Paise> countedCash; ///< nullopt while open
        std::optional<Paise> difference;  ///< counted - expected; nullopt while open

        friend bool operator==(const ShiftLine &, const ShiftLine &) = default;
        /// {id, terminal, clerk, state, opened_at, closed_at|null, opening_cash, expected_cash,
        /// counted_cash|null, difference|null}.
        QJsonObject toJson() const;
        static std::optional<ShiftLine> fromJson(const QJsonObject &json, QString *error);
    };

    /// Complaints of the day (issue 29).
    struct Complaints
    {
        qint64 raised = 0;   ///< raised that day
        qint64 open = 0;     ///< raised by the day's end and not resolved by then
        qint64 credited = 0; ///< resolved as credited that day
        qint64 rejected = 0; ///< resolved as rejected that day

        friend bool operator==(const Complaints &, const Complaints &) = default;
        /// {raised, open, credited, rejected}.
        QJsonObject toJson() const;
        static std::optional<Complaints> fromJson(const QJsonObject &json, QString *error);
    };

    QDate date;
    QString mode; ///< "test" / "live"
    Line totals;
    Paise commission = 0;
    QList<Line> lines;
    QList<Clerk> clerks;
    QList<Hour> hours; ///< 24 entries, hour 0 first
    Paise walletOpening = 0;
    Paise walletClosing = 0;
    Paise topups = 0;
    Paise debits = 0; ///< negative (money leaving the wallet)
    Paise refunds = 0;
    /// Live sales of the day still unknown at the upstream (issue 11: queued, sent or unknown;
    /// PENDING, so among `totals.pending`) and what the customers paid for them.
    qint64 unknownAtUpstream = 0;
    Paise unknownAtUpstreamPaid = 0;
    /// Issue 28: the day's SUCCESS sales by tender (bill amounts), and the shifts opened that day.
    Shift::TenderTotals tenders;
    QList<ShiftLine> shifts;
    /// Issue 29: the day's complaints.
    Complaints complaints;

    /// The endpoint's `data`: {entity "day_end_report", date "YYYY-MM-DD", mode, totals,
    /// commission_earned, lines, clerks, hours, unknown_at_upstream {count, paid}, wallet
    /// {opening, closing, topups, debits, refunds}, tenders {cash, upi, unrecorded: {count, amount}},
    /// shifts [ShiftLine], complaints {raised, open, credited, rejected}}, money as "₹249.00".
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly: a missing or mistyped field, or an hour outside 0-23, is
    /// an error naming it (never a zero). Hours the answer leaves out count zero sales.
    static std::optional<DayEndReportData> fromJson(const QJsonObject &json, QString *error);
};
