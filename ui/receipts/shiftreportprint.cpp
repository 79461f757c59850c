#include "shiftreportprint.h"

#include "clock.h"
#include "shiftwording.h"
#include "widgets/dialogfocus.h"

#include <QLocale>
#include <QPrintPreviewDialog>
#include <QPrinter>
#include <QSettings>

#include <memory>

namespace {

QString money(Paise paise)
{
    return Money::formatIndian(paise);
}

QString count(qint64 n)
{
    return QLocale().toString(n);
}

/// "28 Nov 2026 09:02" (IST), the whole date: a slip may be read days later.
QString when(const QDateTime &instant)
{
    return ShiftWording::timeText(instant);
}

/// A table whose last column, the amount, is the number.
ReportSection table(const QString &key, const QString &title, const QStringList &headers, const QString &emptyText)
{
    return ReportSection::makeTable(key, title, headers, int(headers.size()) - 1, emptyText);
}

/// The figures a cash-up is about, printed large.
bool isStrong(const QString &key)
{
    return key == QLatin1String("expectedCash") || key == QLatin1String("countedCash") ||
           key == QLatin1String("difference");
}

/// A table row on a narrow roll: what it is on the left (its text cells joined), the amount (its last cell) right.
ReceiptBlock rowBlock(const ReportRow &row)
{
    QStringList label;
    for (qsizetype column = 0; column + 1 < row.cells.size(); ++column) {
        if (!row.cells.at(column).isEmpty())
            label << row.cells.at(column);
    }
    return {row.total ? ReceiptBlock::Kind::StrongRow : ReceiptBlock::Kind::Row, label.join(QStringLiteral(" · ")),
            row.cells.isEmpty() ? QString() : row.cells.last()};
}

} // namespace

ShiftReportPrint::ShiftReportPrint(const Shift &shift, const QString &shopName, const QString &shopAddress)
    : m_shift(shift), m_shopName(shopName), m_shopAddress(shopAddress)
{}

ReceiptWidth ShiftReportPrint::paperWidth(const QSettings &settings)
{
    return settings.value(QStringLiteral("receipts/width_mm"), 80).toInt() == 58 ? ReceiptWidth::Mm58
                                                                                 : ReceiptWidth::Mm80;
}

QList<ReportSection> ShiftReportPrint::sections(const Shift &shift)
{
    QList<ReportSection> out;
    const bool open = shift.isOpen();
    out.append(ReportSection::makeFigures(
        QStringLiteral("shift"), tr("Shift %1").arg(shift.id),
        {{QStringLiteral("terminal"), tr("Terminal"), shift.terminal},
         {QStringLiteral("clerk"), tr("Clerk"), shift.clerk},
         {QStringLiteral("openedAt"), tr("Opened"), when(shift.openedAt)},
         {QStringLiteral("closedAt"), tr("Closed"), open ? tr("Still open") : when(shift.closedAt)}}));

    ReportSection sales =
        table(QStringLiteral("sales"), tr("Sales by tender"), {tr("Payment"), tr("Sales"), tr("Amount")}, QString());
    sales.firstNumeric = 1;
    const auto tenderRow = [](const QString &tender, const Shift::TenderTotal &total) {
        return ReportRow{{ShiftWording::tenderName(tender), count(total.count), money(total.amount)}};
    };
    sales.rows = {tenderRow(QStringLiteral("cash"), shift.sales.cash),
                  tenderRow(QStringLiteral("upi"), shift.sales.upi)};
    if (shift.sales.unrecorded.count > 0) // sales from clients that record no tender
        sales.rows.append(tenderRow(QString(), shift.sales.unrecorded));
    out.append(sales);

    out.append(ReportSection::makeFigures(
        QStringLiteral("drawer"), tr("Cash drawer"),
        {{QStringLiteral("openingCash"), tr("Opening cash"), money(shift.openingCash)},
         {QStringLiteral("cashSales"), tr("Cash sales"), money(shift.sales.cash.amount)},
         {QStringLiteral("cashRefunds"), tr("Cash refunds (%1)").arg(count(shift.cashRefunds.count)),
          money(-shift.cashRefunds.amount)},
         {QStringLiteral("cashIn"), tr("Cash in"), money(shift.cashIn)},
         {QStringLiteral("cashOut"), tr("Cash out"), money(-shift.cashOut)},
         {QStringLiteral("expectedCash"), tr("Expected cash"),
          ShiftWording::moneyText(shift.expectedCash, tr("Hidden (blind count)"))},
         {QStringLiteral("countedCash"), tr("Counted cash"),
          ShiftWording::moneyText(shift.countedCash, tr("Not counted yet"))},
         {QStringLiteral("difference"), tr("Difference"), ShiftWording::differenceText(shift.difference),
          ShiftWording::differenceTone(shift.difference)}}));

    ReportSection moves = table(QStringLiteral("cashMoves"), tr("Cash in and out"),
                                {tr("Time"), tr("Cash"), tr("Reason"), tr("By"), tr("Amount")}, tr("None."));
    for (const Shift::CashMove &move : shift.cashMoves) {
        moves.rows.append({{ShiftWording::timeText(move.at, IstTime::dateOf(shift.openedAt)),
                            ShiftWording::directionText(move.direction), move.reason, move.by,
                            money(move.direction == QLatin1String("out") ? -move.amount : move.amount)}});
    }
    out.append(moves);

    if (shift.countedCash) {
        ReportSection counts =
            table(QStringLiteral("counts"), tr("Counted by denomination"), {tr("Notes"), tr("Amount")}, QString());
        for (const int note : Shift::kDenominations) {
            const qint64 notes = shift.counts.value(note);
            counts.rows.append(
                {{tr("₹%1 × %2").arg(note).arg(count(notes)), money(Paise(note) * Money::kPaisePerRupee * notes)}});
        }
        counts.rows.append({{tr("Coins"), money(shift.coins.value_or(0))}});
        counts.rows.append({{tr("Counted cash"), money(*shift.countedCash)}, true});
        out.append(counts);
    }

    if (!shift.upiToReturn.isEmpty()) {
        ReportSection upi = table(QStringLiteral("upiToReturn"), tr("UPI to return"),
                                  {tr("Sale"), tr("Number"), tr("Amount")}, QString());
        Paise total = 0;
        for (const Shift::UpiReturn &sale : shift.upiToReturn) {
            upi.rows.append({{tr("#%1").arg(sale.transactionId), sale.number, money(sale.amount)}});
            total += sale.amount;
        }
        upi.rows.append({{tr("Send back by UPI"), QString(), money(total)}, true});
        out.append(upi);
    }

    if (!open) {
        QList<ReportFigure> closed{{QStringLiteral("closedBy"), tr("Closed by"), shift.closedBy}};
        if (!shift.closeNote.isEmpty())
            closed.append({QStringLiteral("closeNote"), tr("Note"), shift.closeNote});
        out.append(ReportSection::makeFigures(QStringLiteral("closed"), QString(), closed));
    }
    return out;
}

QList<ReceiptBlock> ShiftReportPrint::blocks() const
{
    using Kind = ReceiptBlock::Kind;
    QList<ReceiptBlock> out;
    const bool test = m_shift.mode == QLatin1String("test");
    if (test)
        out.append({Kind::Banner, tr("TEST MODE"), {}});
    out.append({Kind::ShopName, m_shopName, {}});
    if (!m_shopAddress.isEmpty())
        out.append({Kind::Centered, m_shopAddress, {}});
    out.append({Kind::Separator, {}, {}});
    out.append({Kind::Title, tr("Shift report"), {}});
    if (m_shift.isOpen())
        out.append({Kind::Notice, tr("Still open — not counted"), {}});
    for (const ReportSection &section : sections(m_shift)) {
        out.append({Kind::Separator, {}, {}});
        if (!section.title.isEmpty())
            out.append({Kind::Title, section.title, {}});
        switch (section.kind) {
        case ReportSection::Kind::Figures:
            for (const ReportFigure &figure : section.figures)
                out.append({isStrong(figure.key) ? Kind::StrongRow : Kind::Row, figure.label, figure.value});
            break;
        case ReportSection::Kind::Table:
            for (const ReportRow &row : section.rows)
                out.append(rowBlock(row));
            if (section.rows.isEmpty() && !section.text.isEmpty())
                out.append({Kind::Centered, section.text, {}});
            break;
        case ReportSection::Kind::Warning:
            out.append({Kind::Centered, section.text, {}});
            break;
        case ReportSection::Kind::Chart:
            break;
        }
    }
    if (test)
        out.append({Kind::Banner, tr("TEST MODE"), {}});
    return out;
}

QSizeF ShiftReportPrint::paperSizeMm(ReceiptWidth width) const
{
    return ReceiptRenderer().paperSizeMm(blocks(), width);
}

QImage ShiftReportPrint::toImage(ReceiptWidth width, int dotsPerMm) const
{
    return ReceiptRenderer().toImage(blocks(), width, dotsPerMm);
}

bool ShiftReportPrint::print(QPrinter &printer, ReceiptWidth width) const
{
    return ReceiptRenderer().print(printer, blocks(), width);
}

bool ShiftReportPrint::writePdf(const QString &path, ReceiptWidth width, QString *error) const
{
    QPrinter printer(QPrinter::HighResolution);
    printer.setOutputFormat(QPrinter::PdfFormat);
    printer.setOutputFileName(path);
    printer.setCreator(QStringLiteral("RechargeDesk"));
    printer.setDocName(tr("Shift %1").arg(m_shift.id));
    if (!print(printer, width)) {
        if (error)
            *error = tr("Cannot write %1.").arg(path);
        return false;
    }
    return true;
}

void ShiftReportPrint::openPrintPreview(QWidget *parent, ReceiptWidth width,
                                        std::function<void(bool printed)> done) const
{
    // The printer lives as long as the dialog: the connection that holds it goes with the dialog.
    auto printer = std::make_shared<QPrinter>(QPrinter::HighResolution);
    auto *dialog = new QPrintPreviewDialog(printer.get(), parent);
    dialog->setObjectName(QStringLiteral("shiftReportPrintDialog"));
    dialog->setWindowTitle(tr("Print the shift report"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto painted = std::make_shared<bool>(true);
    QObject::connect(
        dialog, &QPrintPreviewDialog::paintRequested, dialog,
        [report = *this, width, painted, printer](QPrinter *target) { *painted = report.print(*target, width); });
    QObject::connect(dialog, &QDialog::accepted, dialog, [painted, done = std::move(done)] {
        if (done)
            done(*painted);
    });
    DialogFocus::openAndRestore(dialog);
}
