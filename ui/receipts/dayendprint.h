#pragma once

#include "entities/dayendreportdata.h"
#include "reportsections.h"

#include <QCoreApplication>
#include <QString>

class DayEndReportModel;
class OperatorCatalog;
class QPrinter;
class QGraphicsView;

/// The printable form of the day-end (Z) report (issue 6 item 2), beside the receipts: the report's model
/// (DayEndReportModel, the same the screen shows) as an HTML document with the shop's name and address on top, and
/// its painting on a printer or PDF with the sales-by-hour chart below.
class DayEndPrint
{
    Q_DECLARE_TR_FUNCTIONS(DayEndPrint)

public:
    /// The report as an HTML document for printing (shop name and address on top; the chart is drawn separately
    /// below it): each section of `model` in order, a shortfall in red and an excess in amber (the words say so too).
    static QString toHtml(const DayEndReportModel &model, const QString &shopName, const QString &shopAddress);
    /// The same for `report`, operator codes shown by name from `catalog`.
    static QString toHtml(const DayEndReportData &report, const OperatorCatalog &catalog, const QString &shopName,
                          const QString &shopAddress);
    /// The HTML of `sections` alone (each one's title, then its figures, table or warning; charts are left out), as
    /// toHtml() lays them out: for other reports printed the same way (a shop's statement, issue 30).
    static QString sectionsHtml(const QList<ReportSection> &sections);
    /// Draws `html` (toHtml()) on `printer`'s pages, then `chart` (if not null) below the text on the last page or
    /// on a page of its own; false if painting fails.
    static bool paint(QPrinter &printer, const QString &html, QGraphicsView *chart);
};
