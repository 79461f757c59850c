#pragma once

#include "receiptdata.h"

#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QSizeF>
#include <QStringList>

class QFont;
class QFontMetricsF;
class QPainter;
class QPrinter;
class QRectF;

/// Roll paper widths of counter receipt printers.
enum class ReceiptWidth
{
    Mm58,
    Mm80
};

/// One line (or group of lines) of a receipt, before layout. Exposed so tests can check what
/// a receipt says without reading pixels.
struct ReceiptBlock
{
    enum class Kind
    {
        Banner,    ///< white on black, e.g. DUPLICATE
        ShopName,  ///< large, bold, centred
        Centered,  ///< small, centred (address, notes)
        Title,     ///< bold, centred (kind of sale)
        Row,       ///< label left, value right
        StrongRow, ///< same, value large and bold (amount paid)
        Notice,    ///< large, bold, centred ("Not recharged — nothing to pay")
        Code,      ///< large monospace, centred (voucher code)
        Separator, ///< dashed rule
        Footer,    ///< bold, centred ("Thank you")
        Qr,        ///< a QR code of `text` (a UPI payment link, issue 28), centred, about 35 mm; `value` captions it
    };
    Kind kind;
    QString text;
    QString value;
};

/// Draws the one receipt layout used for printers (QtPrintSupport), PDF and the on-screen
/// preview, for 58 mm and 80 mm roll paper: shop name and address, date-time (IST), transaction
/// id, type, operator, number, circle, reference id, the plan sold (price, validity, benefits) or
/// the voucher code, what the customer paid (the bill amount; a FAILED sale says "Not recharged —
/// nothing to pay" instead), how the customer paid ("Paid by Cash/UPI") and, when the terminal prints it,
/// the shop's UPI QR for the amount (issue 28), the status (with "Reversed by the operator at 14:05" for a
/// sale the upstream reversed) and "Thank you". The shop's copy adds the commission and the wallet debit. Reprints
/// carry a DUPLICATE banner and sandbox sales a "TEST — NOT A REAL RECHARGE" banner, at the top and bottom. Long values
/// wrap after - _ / @ . so nothing runs off the paper. Layout units are printer dots (8 per millimetre, 203 dpi); any
/// device or rectangle is scaled to fit.
class ReceiptRenderer
{
    Q_DECLARE_TR_FUNCTIONS(ReceiptRenderer)

public:
    /// Layout resolution: dots per millimetre of paper.
    static constexpr int kDotsPerMm = 8;

    /// The blocks of `data`'s receipt, top to bottom.
    static QList<ReceiptBlock> blocks(const ReceiptData &data, bool duplicate);
    /// Paper width in millimetres (58 or 80).
    static int paperWidthMm(ReceiptWidth width);
    /// Paper size in millimetres: the roll width and the height the receipt needs.
    QSizeF paperSizeMm(const ReceiptData &data, ReceiptWidth width, bool duplicate) const;

    /// Draws the receipt scaled so the paper width fills `target`'s width (height follows,
    /// paperSizeMm's aspect ratio).
    void render(QPainter &painter, const QRectF &target, const ReceiptData &data, ReceiptWidth width,
                bool duplicate) const;
    /// The receipt as a white image at `dotsPerMm` (for previews and checks).
    QImage toImage(const ReceiptData &data, ReceiptWidth width, bool duplicate, int dotsPerMm = kDotsPerMm) const;
    /// Writes a one-page PDF of paper size paperSizeMm to `path`; false (and *error) if the file
    /// cannot be written.
    bool writePdf(const QString &path, const ReceiptData &data, ReceiptWidth width, bool duplicate,
                  QString *error = nullptr) const;
    /// Sets `printer`'s page to the receipt's paper size and prints it; false if printing could
    /// not start.
    bool print(QPrinter &printer, const ReceiptData &data, ReceiptWidth width, bool duplicate) const;

    /// The same four for any blocks laid out as a receipt (e.g. a shift report, ShiftReportPrint): the paper size
    /// they need, their drawing into `target`, a white image of them and their printing on a page of that size.
    QSizeF paperSizeMm(const QList<ReceiptBlock> &blocks, ReceiptWidth width) const;
    void render(QPainter &painter, const QRectF &target, const QList<ReceiptBlock> &blocks, ReceiptWidth width) const;
    QImage toImage(const QList<ReceiptBlock> &blocks, ReceiptWidth width, int dotsPerMm = kDotsPerMm) const;
    bool print(QPrinter &printer, const QList<ReceiptBlock> &blocks, ReceiptWidth width) const;

    /// The lines a Row's value is printed on: one when label and value share a line, else the
    /// value wrapped to the printable width by wrapAtSeparators().
    static QStringList valueLines(const ReceiptBlock &block, ReceiptWidth width);
    /// The font a Row's value is printed in (layout dots).
    static QFont valueFont(const ReceiptBlock &block, ReceiptWidth width);
    /// The printable width between the side margins, in dots.
    static qreal printableWidthDots(ReceiptWidth width);
    /// Breaks `text` into lines no wider than `width` (in `metrics`' units), after a separator
    /// (- _ / @ . or a space) where possible; a run without separators longer than a line breaks
    /// where the line is full. Nothing is dropped but the spaces at line ends.
    static QStringList wrapAtSeparators(const QString &text, const QFontMetricsF &metrics, qreal width);

    /// Masks an Aadhaar number wherever 12 digits (optionally grouped by 4) appear: "XXXX XXXX 1234".
    static QString maskAadhaar(const QString &text);

private:
    /// True when a Row's label and value fit on one line.
    static bool rowFitsOneLine(const ReceiptBlock &block, ReceiptWidth width);
    /// Lays out (and, with a painter, draws) the blocks in dots; returns the height in dots.
    qreal layout(QPainter *painter, const QList<ReceiptBlock> &blocks, ReceiptWidth width) const;
};
