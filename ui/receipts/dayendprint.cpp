#include "dayendprint.h"

#include "dayendreportmodel.h"
#include "operatorcatalog.h"
#include "shiftwording.h"

#include <QAbstractTextDocumentLayout>
#include <QGraphicsView>
#include <QPainter>
#include <QPrinter>
#include <QTextBlock>
#include <QTextDocument>

#include <algorithm>

namespace {

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

/// The colour the paper gives a value of `tone` (the words already say short or over).
QString toneStyle(ReportTone tone)
{
    if (tone == ReportTone::Plain)
        return {};
    return QStringLiteral("color:%1; font-weight:bold;").arg(ShiftWording::toneColour(tone).name());
}

QString tableStart(bool fullWidth)
{
    return QStringLiteral("<table cellspacing='0' border='1' %1style='border-collapse:collapse; border-color:#d0d5dd'>")
        .arg(fullWidth ? QStringLiteral("width='100%' ") : QString());
}

QString cell(const QString &text, bool right, const QString &style = {})
{
    return QStringLiteral("<td%1 style='padding:3px 8px;%2'>%3</td>")
        .arg(right ? QStringLiteral(" align='right'") : QString(), style, escaped(text));
}

void appendFigures(QString &html, const ReportSection &section)
{
    html += tableStart(false);
    for (const ReportFigure &figure : section.figures) {
        html += QStringLiteral("<tr>") + cell(figure.label, false) + cell(figure.value, true, toneStyle(figure.tone)) +
                QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
}

void appendTable(QString &html, const ReportSection &section)
{
    const qsizetype columns = section.headers.size();
    html += tableStart(true);
    html += QStringLiteral("<tr>");
    for (qsizetype column = 0; column < columns; ++column) {
        html += QStringLiteral("<th align='%1' style='padding:3px 8px; background:#eaecf0'>%2</th>")
                    .arg(column >= section.firstNumeric ? QStringLiteral("right") : QStringLiteral("left"),
                         escaped(section.headers.at(column)));
    }
    html += QStringLiteral("</tr>");
    const auto appendRows = [&](bool totals) {
        for (const ReportRow &row : section.rows) {
            if (row.total != totals)
                continue;
            html += row.total ? QStringLiteral("<tr style='font-weight:bold'>") : QStringLiteral("<tr>");
            for (qsizetype column = 0; column < row.cells.size(); ++column) {
                html += cell(row.cells.at(column), column >= section.firstNumeric,
                             column == row.toneColumn ? toneStyle(row.tone) : QString());
            }
            html += QStringLiteral("</tr>");
        }
    };
    appendRows(false);
    if (std::all_of(section.rows.cbegin(), section.rows.cend(), [](const ReportRow &row) { return row.total; }) &&
        !section.text.isEmpty()) {
        html += QStringLiteral("<tr><td colspan='%1' style='padding:3px 8px'>%2</td></tr>")
                    .arg(columns)
                    .arg(escaped(section.text));
    }
    appendRows(true);
    html += QStringLiteral("</table>");
}

} // namespace

QString DayEndPrint::toHtml(const DayEndReportData &report, const OperatorCatalog &catalog, const QString &shopName,
                            const QString &shopAddress)
{
    return toHtml(DayEndReportModel::build(report, catalog), shopName, shopAddress);
}

QString DayEndPrint::toHtml(const DayEndReportModel &model, const QString &shopName, const QString &shopAddress)
{
    QString html = QStringLiteral("<html><body style='font-family: DejaVu Sans; font-size: 10pt; color: #101828'>");
    html += QStringLiteral("<h2 style='margin:0'>%1</h2>").arg(escaped(shopName));
    if (!shopAddress.isEmpty())
        html += QStringLiteral("<div>%1</div>").arg(escaped(shopAddress));
    QStringList heading{model.title(), model.dateLine()};
    if (!model.modeNote().isEmpty())
        heading << model.modeNote();
    html += QStringLiteral("<h3>%1</h3>").arg(escaped(heading.join(QStringLiteral(" — "))));
    return html + sectionsHtml(model.sections()) + QStringLiteral("</body></html>");
}

QString DayEndPrint::sectionsHtml(const QList<ReportSection> &sections)
{
    QString html;
    for (const ReportSection &section : sections) {
        if (!section.title.isEmpty())
            html += QStringLiteral("<h4>%1</h4>").arg(escaped(section.title));
        switch (section.kind) {
        case ReportSection::Kind::Figures:
            appendFigures(html, section);
            break;
        case ReportSection::Kind::Table:
            appendTable(html, section);
            break;
        case ReportSection::Kind::Warning:
            html += QStringLiteral("<p style='color:#b54708; font-weight:bold'>%1</p>").arg(escaped(section.text));
            break;
        case ReportSection::Kind::Chart: // painted below the text by paint()
            break;
        }
    }
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
    if (!chart)
        return painter.end();
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
