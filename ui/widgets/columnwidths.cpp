#include "columnwidths.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QStyle>
#include <QTableView>

ColumnWidths::ColumnWidths(QTableView *view, QList<Column> columns)
    : QObject(view), m_view(view), m_columns(std::move(columns))
{
    view->installEventFilter(this);
    view->horizontalHeader()->installEventFilter(this);
    apply();
}

int ColumnWidths::widthFor(const Column &column) const
{
    QFont font = m_view->font();
    font.setBold(column.bold);
    // A cell draws its text inside the focus-frame margin on each side (QCommonStyle's item view).
    const int padding = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1);
    const int cell = QFontMetrics(font).horizontalAdvance(column.sample) + padding + 8;
    const QHeaderView *header = m_view->horizontalHeader();
    const QString title =
        m_view->model() ? m_view->model()->headerData(column.column, Qt::Horizontal).toString() : QString();
    // The header's text plus room for the sort arrow.
    const int heading = header->fontMetrics().horizontalAdvance(title) + padding + 24;
    return qMax(cell, heading);
}

void ColumnWidths::apply()
{
    for (const Column &column : std::as_const(m_columns))
        m_view->setColumnWidth(column.column, widthFor(column));
}

bool ColumnWidths::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view || watched == m_view->horizontalHeader()) {
        switch (event->type()) {
        case QEvent::Polish:
        case QEvent::FontChange:
        case QEvent::StyleChange:
            apply();
            break;
        default:
            break;
        }
    }
    return QObject::eventFilter(watched, event);
}
