#include "dayendprint.h"

#include "operatorcatalog.h"

#include <QAbstractTextDocumentLayout>
#include <QGraphicsView>
#include <QLocale>
#include <QPainter>
#include <QPrinter>
#include <QTextBlock>
#include <QTextDocument>

namespace {

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

} // namespace

QString DayEndPrint::typeName(const QString &type)
{
    if (type == QLatin1String("MOBILE"))
        return tr("Mobile");
    if (type == QLatin1String("DTH"))
        return tr("DTH");
    if (type == QLatin1String("VOUCHER"))
        return tr("Voucher");
    return type;
}

QString DayEndPrint::operatorName(const OperatorCatalog &catalog, const QString &code)
{
    const OperatorInfo *info = catalog.findOperator(code);
    return info ? info->name : code;
}

QString DayEndPrint::clerkName(const QString &clerk)
{
    return clerk.isEmpty() ? tr("Counter (API)") : clerk;
}

QString DayEndPrint::unknownAtUpstreamText(const DayEndReportData &report)
{
    if (report.unknownAtUpstream <= 0)
        return {};
    return tr("Of the pending sales, %n (wallet debit %1) are still unknown at the upstream: no definite answer yet, "
              "so "
              "neither sold nor refunded. Recheck them in History → Unknown at upstream.",
              nullptr, int(report.unknownAtUpstream))
        .arg(Money::format(report.unknownAtUpstreamPaid));
}

QString DayEndPrint::toHtml(const DayEndReportData &report, const OperatorCatalog &catalog, const QString &shopName,
                            const QString &shopAddress)
{
    const auto &[date, mode, totals, commission, lines, clerks, hours, walletOpening, walletClosing, topups, debits,
                 refunds, unknownAtUpstream, unknownAtUpstreamPaid] = report;
    Q_UNUSED(hours)
    const QLocale locale;
    const auto num = [&locale](qint64 n) { return locale.toString(n); };
    const QString cell = QStringLiteral("<td style='padding:3px 8px'>%1</td>");
    const QString right = QStringLiteral("<td align='right' style='padding:3px 8px'>%1</td>");
    const QString head = QStringLiteral("<th align='%2' style='padding:3px 8px; background:#eaecf0'>%1</th>");

    QString html = QStringLiteral("<html><body style='font-family: DejaVu Sans; font-size: 10pt; color: #101828'>");
    html += QStringLiteral("<h2 style='margin:0'>%1</h2>").arg(escaped(shopName));
    if (!shopAddress.isEmpty())
        html += QStringLiteral("<div>%1</div>").arg(escaped(shopAddress));
    html += QStringLiteral("<h3>%1</h3>")
                .arg(escaped(tr("Day-end (Z) report for %1 (IST)%2")
                                 .arg(locale.toString(date, QStringLiteral("dddd d MMMM yyyy")),
                                      mode == QLatin1String("test") ? tr(" — TEST MODE") : QString())));

    html += QStringLiteral("<table cellspacing='0' border='1' style='border-collapse:collapse; border-color:#d0d5dd'>");
    const auto pair = [&](const QString &label, const QString &value) {
        html += QStringLiteral("<tr>") + cell.arg(escaped(label)) + right.arg(escaped(value)) + QStringLiteral("</tr>");
    };
    pair(tr("Successful sales"), num(totals.success));
    pair(tr("Pending sales"), num(totals.pending));
    if (unknownAtUpstream > 0) {
        pair(tr("  of which unknown at the upstream"),
             tr("%1 (wallet debit %2)").arg(num(unknownAtUpstream), Money::format(unknownAtUpstreamPaid)));
    }
    pair(tr("Failed sales"), num(totals.failed));
    pair(tr("Bill amount (successful)"), Money::formatIndian(totals.billAmount));
    pair(tr("Commission earned"), Money::formatIndian(commission));
    pair(tr("Wallet debit (successful)"), Money::formatIndian(totals.paid));
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h4>%1</h4>").arg(escaped(tr("Wallet")));
    html += QStringLiteral("<table cellspacing='0' border='1' style='border-collapse:collapse; border-color:#d0d5dd'>");
    pair(tr("Opening balance"), Money::formatIndian(walletOpening));
    pair(tr("Top-ups"), Money::formatIndian(topups));
    pair(tr("Debits for sales"), Money::formatIndian(debits));
    pair(tr("Refunds of failed sales"), Money::formatIndian(refunds));
    pair(tr("Closing balance"), Money::formatIndian(walletClosing));
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h4>%1</h4>").arg(escaped(tr("By type and operator")));
    html += QStringLiteral("<table cellspacing='0' border='1' width='100%' "
                           "style='border-collapse:collapse; border-color:#d0d5dd'><tr>");
    for (const QString &title : {tr("Type"), tr("Operator")})
        html += head.arg(escaped(title), QStringLiteral("left"));
    for (const QString &title :
         {tr("Success"), tr("Pending"), tr("Failed"), tr("Bill"), tr("Commission"), tr("Wallet debit")})
        html += head.arg(escaped(title), QStringLiteral("right"));
    html += QStringLiteral("</tr>");
    const auto lineRow = [&](const DayEndReportData::Line &line, const QString &type, const QString &name, bool bold) {
        QString row = QStringLiteral("<tr%1>").arg(bold ? QStringLiteral(" style='font-weight:bold'") : QString());
        row += cell.arg(escaped(type)) + cell.arg(escaped(name));
        row += right.arg(num(line.success)) + right.arg(num(line.pending)) + right.arg(num(line.failed));
        row += right.arg(Money::formatIndian(line.billAmount)) + right.arg(Money::formatIndian(line.discount)) +
               right.arg(Money::formatIndian(line.paid));
        html += row + QStringLiteral("</tr>");
    };
    for (const DayEndReportData::Line &line : lines)
        lineRow(line, typeName(line.type), operatorName(catalog, line.operatorCode), false);
    if (lines.isEmpty()) {
        html += QStringLiteral("<tr><td colspan='8' style='padding:3px 8px'>%1</td></tr>")
                    .arg(escaped(tr("No sales on this day.")));
    }
    lineRow(totals, tr("Total"), QString(), true);
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h4>%1</h4>").arg(escaped(tr("By clerk (successful sales)")));
    html +=
        QStringLiteral("<table cellspacing='0' border='1' style='border-collapse:collapse; border-color:#d0d5dd'><tr>");
    html += head.arg(escaped(tr("Clerk")), QStringLiteral("left"));
    for (const QString &title : {tr("Sales"), tr("Bill"), tr("Commission")})
        html += head.arg(escaped(title), QStringLiteral("right"));
    html += QStringLiteral("</tr>");
    for (const DayEndReportData::Clerk &clerk : clerks) {
        html += QStringLiteral("<tr>") + cell.arg(escaped(clerkName(clerk.clerk))) + right.arg(num(clerk.success)) +
                right.arg(Money::formatIndian(clerk.billAmount)) + right.arg(Money::formatIndian(clerk.discount)) +
                QStringLiteral("</tr>");
    }
    if (clerks.isEmpty())
        html += QStringLiteral("<tr><td colspan='4' style='padding:3px 8px'>%1</td></tr>").arg(escaped(tr("None.")));
    html += QStringLiteral("</table>");
    html += QStringLiteral("<h4>%1</h4></body></html>").arg(escaped(tr("Sales by hour (IST)")));
    return html;
}

bool DayEndPrint::paint(QPrinter &printer, const QString &html, QGraphicsView *chart)
{
    QPainter painter;
    if (!painter.begin(&printer))
        return false;
    // Work in 96-dpi "CSS pixels" so the HTML's sizes mean what they say on paper.
    const qreal scale = printer.resolution() / 96.0;
    painter.scale(scale, scale);
    const QSizeF page(printer.width() / scale, printer.height() / scale);

    QTextDocument document;
    document.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 10));
    document.setHtml(html);
    document.setPageSize(page);
    const int pages = document.pageCount();
    for (int index = 0; index < pages; ++index) {
        if (index > 0)
            printer.newPage();
        painter.save();
        painter.translate(0, -index * page.height());
        document.drawContents(&painter, QRectF(0, index * page.height(), page.width(), page.height()));
        painter.restore();
    }
    // The chart goes below the text on the last page, or on a page of its own.
    const QRectF lastBlock = document.documentLayout()->blockBoundingRect(document.lastBlock());
    qreal top = lastBlock.bottom() - (pages - 1) * page.height() + 8;
    const qreal chartHeight = page.width() * 0.45;
    if (top + chartHeight > page.height()) {
        printer.newPage();
        top = 0;
    }
    chart->render(&painter, QRectF(0, top, page.width(), chartHeight), chart->viewport()->rect(), Qt::KeepAspectRatio);
    return painter.end();
}
