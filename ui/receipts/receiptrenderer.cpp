#include "receiptrenderer.h"

#include "widgets/qrcode.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPrinter>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace {

constexpr qreal kMarginDots = 4 * ReceiptRenderer::kDotsPerMm;
constexpr qreal kLargeHeight = 100'000;

/// Font sizes in dots for one paper width.
struct Fonts
{
    QFont body;
    QFont small;
    QFont bold;
    QFont shop;
    QFont strong;
    QFont code;
    QFont banner;
};

QFont font(int pixels, bool bold, bool mono = false)
{
    QFont f(mono ? QStringLiteral("DejaVu Sans Mono") : QStringLiteral("DejaVu Sans"));
    if (mono)
        f.setStyleHint(QFont::Monospace);
    f.setPixelSize(pixels);
    f.setBold(bold);
    return f;
}

Fonts fontsFor(ReceiptWidth width)
{
    const bool wide = width == ReceiptWidth::Mm80;
    return Fonts{font(wide ? 26 : 22, false), font(wide ? 22 : 19, false), font(wide ? 26 : 22, true),
                 font(wide ? 36 : 30, true),  font(wide ? 34 : 28, true),  font(wide ? 40 : 30, true, true),
                 font(wide ? 40 : 34, true)};
}

/// Draws (painter set) or measures wrapped text in `rect`; returns the height used.
qreal textBlock(QPainter *painter, const QFont &font, const QRectF &rect, int flags, const QString &text)
{
    flags |= Qt::TextWordWrap;
    if (!painter)
        return QFontMetricsF(font).boundingRect(rect, flags, text).height();
    painter->setFont(font);
    QRectF used;
    painter->drawText(rect, flags, text, &used);
    return used.height();
}

} // namespace

QList<ReceiptBlock> ReceiptRenderer::blocks(const ReceiptData &data, bool duplicate)
{
    using Kind = ReceiptBlock::Kind;
    QList<ReceiptBlock> out;
    const auto stamps = [&] {
        if (duplicate)
            out.append({Kind::Banner, tr("DUPLICATE"), {}});
        if (data.sandbox)
            out.append({Kind::Banner, tr("TEST — NOT A REAL RECHARGE"), {}});
    };
    stamps();
    out.append({Kind::ShopName, data.shopName, {}});
    if (!data.shopAddress.isEmpty())
        out.append({Kind::Centered, data.shopAddress, {}});
    out.append({Kind::Separator, {}, {}});
    out.append({Kind::Title, data.typeTitle(), {}});
    if (data.shopCopy)
        out.append({Kind::Title, tr("Shop copy"), {}});
    out.append({Kind::Row, tr("Date (IST)"), data.datetime});
    out.append({Kind::Row, tr("Transaction"), data.transactionId});
    out.append({Kind::Row, tr("Operator"), data.operatorName});
    if (!data.number.isEmpty())
        out.append({Kind::Row, data.numberLabel(), data.number});
    if (!data.circle.isEmpty())
        out.append({Kind::Row, tr("Circle"), data.circle});
    if (!data.customerEmail.isEmpty())
        out.append({Kind::Row, tr("E-mail"), data.customerEmail});
    if (!data.verifiedCustomer.isEmpty())
        out.append({Kind::Row, tr("Aadhaar"), maskAadhaar(data.verifiedCustomer)});
    if (!data.referenceId.isEmpty())
        out.append({Kind::Row, tr("Reference"), data.referenceId});
    if (data.plan) {
        out.append({Kind::Separator, {}, {}});
        out.append({Kind::Row, tr("Plan"), Money::formatIndian(data.plan->price)});
        if (!data.plan->validity.isEmpty())
            out.append({Kind::Row, tr("Validity"), data.plan->validity});
        if (!data.plan->benefits.isEmpty())
            out.append({Kind::Centered, data.plan->benefits, {}});
    }
    if (!data.redeemCode.isEmpty()) {
        out.append({Kind::Separator, {}, {}});
        out.append({Kind::Centered, tr("Redeem code"), {}});
        out.append({Kind::Code, data.redeemCode, {}});
    }
    out.append({Kind::Separator, {}, {}});
    // The customer pays the bill amount; the commission and the wallet debit are the shop's business.
    if (data.givesMoneyBack()) { // the customer had paid before it failed (issue 27)
        out.append({Kind::Notice, tr("Not recharged — money back"), {}});
        out.append({Kind::StrongRow, data.paidByUpi() ? tr("Refund by UPI") : tr("Given back"), data.billAmount});
    } else if (data.failed()) {
        out.append({Kind::Notice, tr("Not recharged — nothing to pay"), {}});
    } else {
        out.append({Kind::StrongRow, tr("Paid"), data.billAmount});
        if (!data.tender.isEmpty()) // issue 28: how the customer paid
            out.append({Kind::Row, tr("Paid by"), data.paidByUpi() ? tr("UPI") : tr("Cash")});
        if (data.paidByUpi() && !data.upiLink.isEmpty()) // the shop prints its UPI QR for the amount
            out.append({Kind::Qr, data.upiLink, tr("UPI QR for %1").arg(data.billAmount)});
    }
    if (data.shopCopy) {
        if (data.failed()) {
            out.append({Kind::Row, tr("Wallet debit"), tr("%1 refunded").arg(data.paid)});
        } else {
            out.append({Kind::Row, tr("Your commission"), data.discount});
            out.append({Kind::Row, tr("Wallet debit"), data.paid});
        }
    }
    out.append({Kind::Separator, {}, {}});
    out.append({Kind::StrongRow, tr("Status"), data.statusText()});
    if (data.status == QLatin1String("PENDING"))
        out.append({Kind::Centered, tr("The operator is still processing this sale."), {}});
    if (!data.reversal.isEmpty()) // it had been sold: why it is FAILED now
        out.append({Kind::Centered, data.reversal, {}});
    if (!data.complaintCredit.isEmpty()) // reversed on the customer's complaint
        out.append({Kind::Centered, data.complaintCredit, {}});
    out.append({Kind::Footer, tr("Thank you"), {}});
    stamps();
    return out;
}

QFont ReceiptRenderer::valueFont(const ReceiptBlock &block, ReceiptWidth width)
{
    const Fonts fonts = fontsFor(width);
    return block.kind == ReceiptBlock::Kind::StrongRow ? fonts.strong : fonts.bold;
}

qreal ReceiptRenderer::printableWidthDots(ReceiptWidth width)
{
    return paperWidthMm(width) * kDotsPerMm - 2 * kMarginDots;
}

QStringList ReceiptRenderer::valueLines(const ReceiptBlock &block, ReceiptWidth width)
{
    const QFontMetricsF metrics(valueFont(block, width));
    if (rowFitsOneLine(block, width))
        return {block.value};
    return wrapAtSeparators(block.value, metrics, printableWidthDots(width) - 1);
}

QStringList ReceiptRenderer::wrapAtSeparators(const QString &text, const QFontMetricsF &metrics, qreal width)
{
    static const QRegularExpression breakAfter(QStringLiteral("(?<=[-_/@. ])"));
    const auto fits = [&](const QString &candidate) { return metrics.horizontalAdvance(candidate.trimmed()) <= width; };
    QStringList lines;
    QString line;
    for (const QString &piece : text.split(breakAfter, Qt::SkipEmptyParts)) {
        if (fits(line + piece)) {
            line += piece;
            continue;
        }
        if (fits(piece)) {
            if (!line.trimmed().isEmpty())
                lines << line.trimmed();
            line = piece;
            continue;
        }
        // A piece wider than the paper (a long code) is cut, with what the line already holds,
        // into the fewest equal parts that fit: even blocks rather than a full line and a stray tail.
        const QString run = line + piece;
        for (qsizetype parts = 2; parts <= run.size(); ++parts) {
            const qsizetype size = (run.size() + parts - 1) / parts;
            QStringList chunks;
            for (qsizetype at = 0; at < run.size(); at += size)
                chunks << run.mid(at, size);
            if (std::all_of(chunks.cbegin(), chunks.cend(), fits)) {
                line = chunks.takeLast();
                lines << chunks;
                break;
            }
        }
    }
    if (!line.trimmed().isEmpty())
        lines << line.trimmed();
    return lines;
}

bool ReceiptRenderer::rowFitsOneLine(const ReceiptBlock &block, ReceiptWidth width)
{
    const QFontMetricsF body(fontsFor(width).body);
    const qreal gap = body.horizontalAdvance(QLatin1Char(' ')) * 2;
    return body.horizontalAdvance(block.text) + gap +
               QFontMetricsF(valueFont(block, width)).horizontalAdvance(block.value) <=
           printableWidthDots(width);
}

int ReceiptRenderer::paperWidthMm(ReceiptWidth width)
{
    return width == ReceiptWidth::Mm80 ? 80 : 58;
}

QSizeF ReceiptRenderer::paperSizeMm(const ReceiptData &data, ReceiptWidth width, bool duplicate) const
{
    return paperSizeMm(blocks(data, duplicate), width);
}

QSizeF ReceiptRenderer::paperSizeMm(const QList<ReceiptBlock> &blocks, ReceiptWidth width) const
{
    const qreal heightDots = layout(nullptr, blocks, width);
    // Round the height up to whole millimetres; printers feed whole steps anyway.
    return QSizeF(paperWidthMm(width), std::ceil(heightDots / kDotsPerMm));
}

void ReceiptRenderer::render(QPainter &painter, const QRectF &target, const ReceiptData &data, ReceiptWidth width,
                             bool duplicate) const
{
    render(painter, target, blocks(data, duplicate), width);
}

void ReceiptRenderer::render(QPainter &painter, const QRectF &target, const QList<ReceiptBlock> &blocks,
                             ReceiptWidth width) const
{
    painter.save();
    painter.translate(target.topLeft());
    const qreal scale = target.width() / (paperWidthMm(width) * kDotsPerMm);
    painter.scale(scale, scale);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    layout(&painter, blocks, width);
    painter.restore();
}

QImage ReceiptRenderer::toImage(const ReceiptData &data, ReceiptWidth width, bool duplicate, int dotsPerMm) const
{
    return toImage(blocks(data, duplicate), width, dotsPerMm);
}

QImage ReceiptRenderer::toImage(const QList<ReceiptBlock> &blocks, ReceiptWidth width, int dotsPerMm) const
{
    const QSizeF paper = paperSizeMm(blocks, width);
    QImage image((paper * dotsPerMm).toSize(), QImage::Format_RGB32);
    image.setDotsPerMeterX(dotsPerMm * 1000);
    image.setDotsPerMeterY(dotsPerMm * 1000);
    image.fill(Qt::white);
    QPainter painter(&image);
    render(painter, QRectF(QPointF(0, 0), paper * dotsPerMm), blocks, width);
    return image;
}

bool ReceiptRenderer::writePdf(const QString &path, const ReceiptData &data, ReceiptWidth width, bool duplicate,
                               QString *error) const
{
    QPrinter printer(QPrinter::HighResolution);
    printer.setOutputFormat(QPrinter::PdfFormat);
    printer.setOutputFileName(path);
    printer.setCreator(QStringLiteral("RechargeDesk"));
    printer.setDocName(tr("Receipt %1").arg(data.transactionId));
    if (!print(printer, data, width, duplicate)) {
        if (error)
            *error = tr("Cannot write %1.").arg(path);
        return false;
    }
    return true;
}

bool ReceiptRenderer::print(QPrinter &printer, const ReceiptData &data, ReceiptWidth width, bool duplicate) const
{
    return print(printer, blocks(data, duplicate), width);
}

bool ReceiptRenderer::print(QPrinter &printer, const QList<ReceiptBlock> &blocks, ReceiptWidth width) const
{
    const QSizeF paper = paperSizeMm(blocks, width);
    printer.setFullPage(true);
    printer.setPageLayout(QPageLayout(
        QPageSize(paper, QPageSize::Millimeter, tr("Receipt %1 mm").arg(paperWidthMm(width)), QPageSize::ExactMatch),
        QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
    QPainter painter;
    if (!painter.begin(&printer))
        return false;
    const QRectF page = printer.paperRect(QPrinter::DevicePixel);
    render(painter, QRectF(0, 0, page.width(), page.height()), blocks, width);
    return painter.end();
}

QString ReceiptRenderer::maskAadhaar(const QString &text)
{
    static const QRegularExpression twelveDigits(
        QStringLiteral("(?<![0-9])[0-9]{4}[ -]?[0-9]{4}[ -]?([0-9]{4})(?![0-9])"));
    QString masked = text;
    masked.replace(twelveDigits, QStringLiteral("XXXX XXXX \\1"));
    return masked;
}

qreal ReceiptRenderer::layout(QPainter *painter, const QList<ReceiptBlock> &blocks, ReceiptWidth width) const
{
    using Kind = ReceiptBlock::Kind;
    const Fonts fonts = fontsFor(width);
    const qreal left = kMarginDots;
    const qreal inner = paperWidthMm(width) * kDotsPerMm - 2 * kMarginDots;
    qreal y = kMarginDots;
    if (painter)
        painter->setPen(Qt::black);

    for (const ReceiptBlock &block : blocks) {
        switch (block.kind) {
        case Kind::Banner: {
            const qreal pad = 10;
            const qreal h =
                textBlock(nullptr, fonts.banner, QRectF(left, 0, inner, kLargeHeight), Qt::AlignHCenter, block.text) +
                2 * pad;
            if (painter) {
                painter->fillRect(QRectF(left, y, inner, h), Qt::black);
                painter->setPen(Qt::white);
                textBlock(painter, fonts.banner, QRectF(left, y + pad, inner, h), Qt::AlignHCenter, block.text);
                painter->setPen(Qt::black);
            }
            y += h + 12;
            break;
        }
        case Kind::ShopName:
            y += textBlock(painter, fonts.shop, QRectF(left, y, inner, kLargeHeight), Qt::AlignHCenter, block.text) + 4;
            break;
        case Kind::Centered:
            y +=
                textBlock(painter, fonts.small, QRectF(left, y, inner, kLargeHeight), Qt::AlignHCenter, block.text) + 4;
            break;
        case Kind::Title:
            y += textBlock(painter, fonts.bold, QRectF(left, y, inner, kLargeHeight), Qt::AlignHCenter,
                           block.text.toUpper()) +
                 8;
            break;
        case Kind::Qr: {
            // About 35 mm square (never wider than the paper), whole dots per module: a phone reads it off the roll.
            const qreal side = std::min(inner, qreal(35 * kDotsPerMm));
            if (painter)
                QrCode::encode(block.text).paint(*painter, QRectF(left + (inner - side) / 2, y, side, side).toRect());
            y += side + 4;
            if (!block.value.isEmpty())
                y += textBlock(painter, fonts.small, QRectF(left, y, inner, kLargeHeight), Qt::AlignHCenter,
                               block.value) +
                     4;
            break;
        }
        case Kind::Footer:
            y += 8;
            y += textBlock(painter, fonts.shop, QRectF(left, y, inner, kLargeHeight), Qt::AlignHCenter, block.text) + 8;
            break;
        case Kind::Code:
            y += textBlock(painter, fonts.code, QRectF(left, y, inner, kLargeHeight), Qt::AlignHCenter, block.text) + 6;
            break;
        case Kind::Separator:
            if (painter) {
                QPen pen(Qt::black, 2, Qt::DashLine);
                painter->setPen(pen);
                painter->drawLine(QPointF(left, y + 8), QPointF(left + inner, y + 8));
                painter->setPen(Qt::black);
            }
            y += 16;
            break;
        case Kind::Notice:
            y += textBlock(painter, fonts.strong, QRectF(left, y, inner, kLargeHeight), Qt::AlignHCenter, block.text) +
                 8;
            break;
        case Kind::Row:
        case Kind::StrongRow: {
            const QFont valueFont = ReceiptRenderer::valueFont(block, width);
            if (rowFitsOneLine(block, width)) {
                // One line: label and value share a baseline area, value flush right. The label is
                // measured as laid out: Devanagari falls back to a taller font than the body font, and
                // a rectangle shorter than the text breaks its shaping.
                const qreal labelHeight =
                    textBlock(nullptr, fonts.body, QRectF(left, 0, inner, kLargeHeight), Qt::AlignLeft, block.text);
                const qreal h =
                    std::max({QFontMetricsF(fonts.body).height(), labelHeight, QFontMetricsF(valueFont).height()});
                textBlock(painter, fonts.body, QRectF(left, y, inner, h), Qt::AlignLeft | Qt::AlignBottom, block.text);
                textBlock(painter, valueFont, QRectF(left, y, inner, h), Qt::AlignRight | Qt::AlignBottom, block.value);
                y += h + 4;
            } else {
                // Too long (long e-mail or reference): the label, then the value on its own lines,
                // broken after - _ / @ . where it can be, so nothing runs off the paper.
                y += textBlock(painter, fonts.body, QRectF(left, y, inner, kLargeHeight), Qt::AlignLeft, block.text);
                for (const QString &line : valueLines(block, width))
                    y += textBlock(painter, valueFont, QRectF(left, y, inner, kLargeHeight), Qt::AlignRight, line);
                y += 4;
            }
            break;
        }
        }
    }
    return y + kMarginDots;
}
