#pragma once

#include "entities/shift.h"
#include "receiptrenderer.h"
#include "reportsections.h"

#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QString>

#include <functional>

class QPrinter;
class QSettings;
class QWidget;

/// The shift report (issue 28, "Shifts"): one Shift as a cash-up slip for a 58 mm or 80 mm receipt printer and as
/// PDF — shop, terminal, clerk and times; sales by tender; the cash drawer (opening cash, cash sales, cash refunds,
/// cash in and out, expected); each cash move with its reason; the count by denomination with the coins, the
/// counted cash and the difference ("Short ₹200.00" / "Over ₹50.00"); the UPI to send back; who closed it and the
/// note. A test-mode shift carries a TEST banner top and bottom. The slip is laid out by ReceiptRenderer (the same
/// fonts, margins and wrapping as a sale's receipt), so nothing runs off the paper.
///
/// The Shifts page's detail pane shows sections(), the same the slip prints.
///
/// Use (e.g. after closing a shift):
///     const ShiftReportPrint report(shift, context.shopName(), context.shopAddress());
///     report.openPrintPreview(this, ShiftReportPrint::paperWidth(context.settings()), [](bool printed) {...});
/// or report.print(printer, width) / report.writePdf(path, width, &error) / report.toImage(width).
class ShiftReportPrint
{
    Q_DECLARE_TR_FUNCTIONS(ShiftReportPrint)

public:
    ShiftReportPrint(const Shift &shift, const QString &shopName, const QString &shopAddress);

    /// The slip top to bottom, as ReceiptRenderer lays it out.
    QList<ReceiptBlock> blocks() const;
    /// Paper size in millimetres: the roll's width and the height the slip needs.
    QSizeF paperSizeMm(ReceiptWidth width) const;
    /// The slip as a white image at `dotsPerMm` (previews, checks).
    QImage toImage(ReceiptWidth width, int dotsPerMm = ReceiptRenderer::kDotsPerMm) const;
    /// Sets `printer`'s page to the slip's paper size and prints it; false if printing could not start.
    bool print(QPrinter &printer, ReceiptWidth width) const;
    /// Writes a one-page PDF of the slip's paper size to `path`; false (and *error) if it cannot be written.
    bool writePdf(const QString &path, ReceiptWidth width, QString *error = nullptr) const;
    /// Opens a print preview of the slip over `parent` (window-modal, deleted on close, the keyboard focus given
    /// back after), named "shiftReportPrintDialog"; its Print button asks for the printer. `done` runs when the
    /// person printed (true: painted; false: the printer could not start); not when they cancelled.
    void openPrintPreview(QWidget *parent, ReceiptWidth width, std::function<void(bool printed)> done) const;

    /// The report's sections, in the slip's order (keys: "shift", "sales", "drawer", "cashMoves", "counts",
    /// "upiToReturn", "closed"; the last three only when there is something to say).
    static QList<ReportSection> sections(const Shift &shift);
    /// The receipt paper of this terminal: the setting "receipts/width_mm" (58 or 80; 80 when unset), as the
    /// sale's receipt uses.
    static ReceiptWidth paperWidth(const QSettings &settings);

private:
    Shift m_shift;
    QString m_shopName;
    QString m_shopAddress;
};
