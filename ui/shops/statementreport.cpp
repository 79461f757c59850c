#include "statementreport.h"

#include "clock.h"
#include "operatorcatalog.h"
#include "receipts/dayendprint.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QPageLayout>
#include <QPrinter>

namespace {

ReportFigure figure(const QString &key, const QString &label, Paise amount)
{
    return {key, label, Money::formatIndian(amount)};
}

QString dayText(const QDate &date)
{
    return date.toString(QStringLiteral("dd MMM yyyy"));
}

/// What a line was: the sale's number and operator, else the reference.
QString detailText(const ShopStatement::Line &line, const OperatorCatalog &catalog)
{
    QStringList parts;
    if (line.transactionId > 0)
        parts << StatementReport::tr("sale %1").arg(line.transactionId);
    if (!line.number.isEmpty()) {
        const OperatorInfo *op = catalog.findOperator(line.operatorCode);
        parts << (op ? QStringLiteral("%1 %2").arg(op->name, line.number) : line.number);
    }
    if (!line.reference.isEmpty())
        parts << StatementReport::tr("ref %1").arg(line.reference);
    return parts.join(QStringLiteral(" · "));
}

} // namespace

QString StatementReport::kindText(const QString &kind)
{
    if (kind == QLatin1String("topup"))
        return tr("Top-up");
    if (kind == QLatin1String("fund_request"))
        return tr("Fund request");
    if (kind == QLatin1String("sale"))
        return tr("Sale");
    if (kind == QLatin1String("refund"))
        return tr("Refund");
    if (kind == QLatin1String("reversal"))
        return tr("Reversal");
    return tr("Other");
}

QString StatementReport::rangeText(const ShopStatement &statement)
{
    return tr("%1 – %2").arg(dayText(statement.from), dayText(statement.to));
}

QList<ReportSection> StatementReport::sections(const ShopStatement &statement, const OperatorCatalog &catalog)
{
    QList<ReportSection> sections;
    sections << ReportSection::makeFigures(
        QStringLiteral("balances"), tr("Balance"),
        {figure(QStringLiteral("openingBalance"), tr("Opening, %1").arg(dayText(statement.from)), statement.opening),
         figure(QStringLiteral("closingBalance"), tr("Closing, %1").arg(dayText(statement.to)), statement.closing),
         {QStringLiteral("lineCount"), tr("Lines"), QLocale().toString(statement.lineCount)}});
    const ShopStatement::Totals &totals = statement.totals;
    sections << ReportSection::makeFigures(
        QStringLiteral("totals"), tr("Totals"),
        {figure(QStringLiteral("totalTopups"), tr("Top-ups"), totals.topups),
         figure(QStringLiteral("totalFundRequests"), tr("Fund requests"), totals.fundRequests),
         figure(QStringLiteral("totalSales"), tr("Sales"), totals.sales),
         figure(QStringLiteral("totalRefunds"), tr("Refunds"), totals.refunds),
         figure(QStringLiteral("totalReversals"), tr("Reversals"), totals.reversals),
         figure(QStringLiteral("totalOther"), tr("Other"), totals.other)});
    if (statement.lines.size() < statement.lineCount) {
        ReportSection warning;
        warning.kind = ReportSection::Kind::Warning;
        warning.key = QStringLiteral("truncated");
        warning.text = tr("Showing the first %1 of %2 lines. The CSV and the PDF have every line.")
                           .arg(QLocale().toString(statement.lines.size()), QLocale().toString(statement.lineCount));
        sections << warning;
    }
    ReportSection lines =
        ReportSection::makeTable(QStringLiteral("lines"), tr("Lines"),
                                 {tr("Time (IST)"), tr("Kind"), tr("Details"), tr("Note"), tr("Amount"), tr("Balance")},
                                 4, tr("Nothing moved in these days."));
    for (const ShopStatement::Line &line : statement.lines) {
        ReportRow row;
        row.cells = QStringList{IstTime::toIst(line.at).toString(QStringLiteral("dd MMM HH:mm")),
                                kindText(line.kind),
                                detailText(line, catalog),
                                line.note,
                                Money::formatIndian(line.amount),
                                Money::formatIndian(line.balance)};
        if (line.balance < 0) {
            row.toneColumn = 5;
            row.tone = ReportTone::Short;
        }
        lines.rows << row;
    }
    sections << lines;
    return sections;
}

QString StatementReport::toHtml(const ShopStatement &statement, const OperatorCatalog &catalog,
                                const QString &distributor)
{
    QString html = QStringLiteral("<html><body style='font-family: DejaVu Sans; font-size: 9pt; color: #101828'>");
    if (!distributor.isEmpty())
        html += QStringLiteral("<div>%1</div>").arg(distributor.toHtmlEscaped());
    html +=
        QStringLiteral("<h2 style='margin:0'>%1</h2>").arg(tr("Statement of %1").arg(statement.name).toHtmlEscaped());
    QStringList who;
    if (!statement.owner.isEmpty())
        who << statement.owner;
    if (!statement.mobile.isEmpty())
        who << statement.mobile;
    if (!statement.gstin.isEmpty())
        who << tr("GSTIN %1").arg(statement.gstin);
    if (!who.isEmpty())
        html += QStringLiteral("<div>%1</div>").arg(who.join(QStringLiteral(" · ")).toHtmlEscaped());
    html += QStringLiteral("<h3>%1</h3>").arg(rangeText(statement).toHtmlEscaped());
    return html + DayEndPrint::sectionsHtml(sections(statement, catalog)) + QStringLiteral("</body></html>");
}

bool StatementReport::writePdf(const QString &path, const ShopStatement &statement, const OperatorCatalog &catalog,
                               const QString &distributor, QString *error)
{
    QPrinter printer(QPrinter::HighResolution);
    printer.setOutputFormat(QPrinter::PdfFormat);
    printer.setOutputFileName(path);
    printer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(12, 12, 12, 12),
                                      QPageLayout::Millimeter));
    printer.setDocName(tr("Statement of %1").arg(statement.name));
    if (!DayEndPrint::paint(printer, toHtml(statement, catalog, distributor), nullptr) || !QFileInfo::exists(path)) {
        if (error)
            *error = tr("The PDF could not be written to %1.").arg(path);
        return false;
    }
    return true;
}
