#pragma once

#include "money.h"

#include <QCoreApplication>
#include <QDate>
#include <QJsonObject>
#include <QList>
#include <QString>

class OperatorCatalog;

/// The day-end (Z) report as GET /api/v1/reports/day-end returns it, read into numbers (money in
/// paise), plus its printable form. Money sums count SUCCESS sales only; the commission earned
/// is the discount on them.
struct DayEndReportData
{
    Q_DECLARE_TR_FUNCTIONS(DayEndReportData)

public:
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
    };
    struct Clerk
    {
        QString clerk; ///< "" for sales made by API clients without a signed-in person
        qint64 success = 0;
        Paise billAmount = 0;
        Paise discount = 0;
    };
    struct Hour
    {
        int hour = 0; ///< 0-23 IST
        qint64 success = 0;
        Paise billAmount = 0;
    };

    QDate date;
    QString mode; ///< "test" / "live"
    Line totals;
    Paise commission = 0;
    QList<Line> lines;
    QList<Clerk> clerks;
    QList<Hour> hours; ///< 24 entries
    Paise walletOpening = 0;
    Paise walletClosing = 0;
    Paise topups = 0;
    Paise debits = 0; ///< negative (money leaving the wallet)
    Paise refunds = 0;
    /// Live sales of the day still unknown at the upstream (issue 11: queued, sent or unknown;
    /// PENDING, so among `totals.pending`) and what the customers paid for them.
    qint64 unknownAtUpstream = 0;
    Paise unknownAtUpstreamPaid = 0;

    /// Reads the `data` object of the day-end endpoint; missing fields read as zero.
    static DayEndReportData fromJson(const QJsonObject &data);

    /// The report as an HTML document for printing (shop name and address on top; the chart is
    /// drawn separately below it). Operator codes are shown by name from `catalog`.
    QString toHtml(const OperatorCatalog &catalog, const QString &shopName, const QString &shopAddress) const;

    /// "Mobile", "DTH", "Voucher" for the API's type.
    static QString typeName(const QString &type);
    /// The operator's name, or the code if unknown.
    static QString operatorName(const OperatorCatalog &catalog, const QString &code);
    /// "Counter (API)" for an empty clerk, else the name.
    static QString clerkName(const QString &clerk);
    /// The sentence about the sales still unknown at the upstream; empty when there are none.
    QString unknownAtUpstreamText() const;
};
