#pragma once

#include "entities/shopstatement.h"
#include "receipts/reportsections.h"

#include <QCoreApplication>

class OperatorCatalog;

/// A shop's statement (issue 30) as people read it, on screen and on paper alike: the balances (opening, closing,
/// lines), the totals per kind (top-ups, fund requests, sales, refunds, reversals, other) and every line (IST time,
/// kind, what it was, note, amount, running balance) as ReportSections — ReportView shows them, the PDF prints the same
/// through DayEndPrint's HTML and painting on A4.
class StatementReport
{
    Q_DECLARE_TR_FUNCTIONS(StatementReport)

public:
    /// The sections (keys "balances", "totals", "truncated" when `statement` holds fewer lines than its lineCount,
    /// "lines").
    static QList<ReportSection> sections(const ShopStatement &statement, const OperatorCatalog &catalog);
    /// A line's kind in words: "Top-up", "Fund request", "Sale", "Refund", "Reversal", "Other".
    static QString kindText(const QString &kind);
    /// "01 Nov 2026 – 28 Nov 2026".
    static QString rangeText(const ShopStatement &statement);
    /// The whole statement as an HTML document for paper: `distributor` and the shop on top, the range, the sections.
    static QString toHtml(const ShopStatement &statement, const OperatorCatalog &catalog, const QString &distributor);
    /// Writes toHtml() as an A4 PDF to `path`; false (and *error) when it cannot be written.
    static bool writePdf(const QString &path, const ShopStatement &statement, const OperatorCatalog &catalog,
                         const QString &distributor, QString *error = nullptr);
};
