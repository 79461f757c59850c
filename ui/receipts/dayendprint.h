#pragma once

#include "entities/dayendreportdata.h"

#include <QCoreApplication>
#include <QString>

class OperatorCatalog;
class QPrinter;
class QGraphicsView;

/// The printable form of the day-end (Z) report (issue 6 item 2), beside the receipts: the
/// report as an HTML document (shop name and address on top) and its painting on a printer or
/// PDF with the sales-by-hour chart below, plus the names the page and the paper both show.
class DayEndPrint
{
    Q_DECLARE_TR_FUNCTIONS(DayEndPrint)

public:
    /// The report as an HTML document for printing (shop name and address on top; the chart is
    /// drawn separately below it). Operator codes are shown by name from `catalog`.
    static QString toHtml(const DayEndReportData &report, const OperatorCatalog &catalog, const QString &shopName,
                          const QString &shopAddress);
    /// Draws `html` (toHtml()) on `printer`'s pages, then `chart` below the text on the last page or
    /// on a page of its own; false if painting fails.
    static bool paint(QPrinter &printer, const QString &html, QGraphicsView *chart);

    /// "Mobile", "DTH", "Voucher" for the API's type.
    static QString typeName(const QString &type);
    /// The operator's name, or the code if unknown.
    static QString operatorName(const OperatorCatalog &catalog, const QString &code);
    /// "Counter (API)" for an empty clerk, else the name.
    static QString clerkName(const QString &clerk);
    /// The sentence about the sales still unknown at the upstream; empty when there are none.
    static QString unknownAtUpstreamText(const DayEndReportData &report);
};
