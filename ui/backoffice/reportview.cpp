#include "reportview.h"

#include "receipts/shiftwording.h"
#include "widgets/look.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

/// Makes a table exactly as tall as its rows, so the page scrolls instead of the table.
void fitHeight(QTableWidget *widget)
{
    int height = widget->horizontalHeader()->sizeHint().height() + 2 * widget->frameWidth();
    for (int row = 0; row < widget->rowCount(); ++row)
        height += widget->rowHeight(row);
    widget->setFixedHeight(height);
}

/// Takes every item out of `layout`, leaving its widgets alone.
void empty(QLayout *layout)
{
    while (QLayoutItem *item = layout->takeAt(0))
        delete item;
}

QStringList figureKeys(const ReportSection &section)
{
    QStringList keys;
    for (const ReportFigure &figure : section.figures)
        keys << figure.key;
    return keys;
}

} // namespace

ReportView::ReportView(QWidget *parent) : QWidget(parent), m_column(new QVBoxLayout(this))
{
    m_column->setContentsMargins(0, 0, 0, 0);
}

void ReportView::setChartWidget(const QString &key, QWidget *widget)
{
    m_charts.insert(key, widget);
}

template <typename T> T *ReportView::made(const QString &name) const
{
    return qobject_cast<T *>(m_made.value(name).data());
}

void ReportView::setSections(const QList<ReportSection> &sections)
{
    empty(m_column);
    QList<QWidget *> shown;
    const auto add = [&](QWidget *widget) {
        m_column->addWidget(widget);
        shown.append(widget);
    };
    QHBoxLayout *cards = nullptr; // figures that follow each other go side by side
    for (const ReportSection &section : sections) {
        if (section.kind != ReportSection::Kind::Figures) {
            cards = nullptr;
        } else if (!cards) {
            QWidget *row = cardsRow(section.key);
            cards = qobject_cast<QHBoxLayout *>(row->layout());
            empty(cards);
            add(row);
        }
        switch (section.kind) {
        case ReportSection::Kind::Figures: {
            QWidget *card = figuresCard(section);
            cards->addWidget(card, 1);
            shown.append(card);
            break;
        }
        case ReportSection::Kind::Warning: {
            QLabel *warning = label(section.key);
            Look::set(warning, "reportWarning");
            warning->setWordWrap(true);
            warning->setText(section.text);
            add(warning);
            break;
        }
        case ReportSection::Kind::Table:
        case ReportSection::Kind::Chart: {
            QLabel *title = label(section.key + QStringLiteral("Title"));
            Look::set(title, "reportSection");
            title->setText(section.title);
            add(title);
            if (section.kind == ReportSection::Kind::Table)
                add(tableWidget(section));
            else if (QWidget *chart = m_charts.value(section.key))
                add(chart);
            break;
        }
        }
    }
    // What this report has no section for is hidden; the rest is shown now, not at the layout's next turn (whoever
    // looks right after, a test or the print, sees it).
    for (const QPointer<QWidget> &widget : std::as_const(m_made)) {
        if (widget && !shown.contains(widget.data()))
            widget->hide();
    }
    for (QWidget *widget : std::as_const(shown))
        widget->show();
}

QLabel *ReportView::label(const QString &name)
{
    auto *found = made<QLabel>(name);
    if (!found) {
        found = new QLabel(this);
        found->setObjectName(name);
        m_made.insert(name, found);
    }
    return found;
}

QWidget *ReportView::cardsRow(const QString &key)
{
    const QString name = key + QStringLiteral("Row");
    QWidget *row = made<QWidget>(name);
    if (!row) {
        row = new QWidget(this);
        row->setObjectName(name);
        (new QHBoxLayout(row))->setContentsMargins(0, 0, 0, 0);
        m_made.insert(name, row);
    }
    return row;
}

QWidget *ReportView::figuresCard(const ReportSection &section)
{
    const QString name = section.key + QStringLiteral("Card");
    QWidget *card = made<QWidget>(name);
    if (card && card->property("figureKeys").toStringList() != figureKeys(section)) {
        delete card; // other figures: made anew
        card = nullptr;
    }
    if (!card) {
        card = new QWidget(this);
        card->setObjectName(name);
        card->setProperty("figureKeys", figureKeys(section));
        Look::set(card, "card");
        card->setAttribute(Qt::WA_StyledBackground);
        auto *grid = new QGridLayout(card);
        grid->setContentsMargins(16, 12, 16, 12);
        grid->setHorizontalSpacing(24);
        auto *heading = new QLabel(card);
        heading->setObjectName(section.key + QStringLiteral("Heading"));
        Look::set(heading, "reportCardHeading");
        grid->addWidget(heading, 0, 0, 1, m_figuresPerRow);
        for (int index = 0; index < section.figures.size(); ++index) {
            const QString &key = section.figures.at(index).key;
            const int row = 1 + (index / m_figuresPerRow) * 2;
            const int column = index % m_figuresPerRow;
            auto *caption = new QLabel(card);
            caption->setObjectName(key + QStringLiteral("Caption"));
            Look::set(caption, "hint");
            auto *value = new QLabel(card);
            value->setObjectName(key);
            value->setWordWrap(true);
            value->setTextInteractionFlags(Qt::TextSelectableByMouse);
            grid->addWidget(caption, row, column);
            grid->addWidget(value, row + 1, column);
        }
        // Columns share the card's width alike, and a short card keeps its figures at the top.
        for (int column = 0; column < m_figuresPerRow; ++column)
            grid->setColumnStretch(column, 1);
        grid->setRowStretch(grid->rowCount(), 1);
        m_made.insert(name, card);
    }
    card->findChild<QLabel *>(section.key + QStringLiteral("Heading"))->setText(section.title);
    for (const ReportFigure &figure : section.figures) {
        card->findChild<QLabel *>(figure.key + QStringLiteral("Caption"))->setText(figure.label);
        auto *value = card->findChild<QLabel *>(figure.key);
        value->setText(figure.value);
        Look::set(value, figure.tone == ReportTone::Short  ? "reportValueShort"
                         : figure.tone == ReportTone::Over ? "reportValueOver"
                                                           : "reportValue");
    }
    return card;
}

QTableWidget *ReportView::tableWidget(const ReportSection &section)
{
    const QString name = section.key + QStringLiteral("Table");
    auto *table = made<QTableWidget>(name);
    if (!table) {
        table = new QTableWidget(this);
        table->setObjectName(name);
        table->setFocusPolicy(Qt::NoFocus);
        table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionMode(QAbstractItemView::NoSelection);
        table->verticalHeader()->hide();
        m_made.insert(name, table);
    }
    table->clearSpans();
    table->clear();
    table->setColumnCount(int(section.headers.size()));
    table->setHorizontalHeaderLabels(section.headers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);

    // The rows, then (when there are none) the sentence saying so, then the totals.
    QList<ReportRow> rows;
    for (const ReportRow &row : section.rows) {
        if (!row.total)
            rows.append(row);
    }
    const bool none = rows.isEmpty() && !section.text.isEmpty();
    if (none)
        rows.append(ReportRow{{section.text}});
    for (const ReportRow &row : section.rows) {
        if (row.total)
            rows.append(row);
    }
    table->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        const ReportRow &row = rows.at(r);
        for (int column = 0; column < row.cells.size(); ++column) {
            auto *item = new QTableWidgetItem(row.cells.at(column));
            if (column >= section.firstNumeric && !(none && r == 0))
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            const bool toned = column == row.toneColumn && row.tone != ReportTone::Plain;
            if (row.total || toned) {
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
            if (toned)
                item->setForeground(ShiftWording::toneColour(row.tone));
            table->setItem(r, column, item);
        }
    }
    if (none && table->columnCount() > 1)
        table->setSpan(0, 0, 1, table->columnCount());
    fitHeight(table);
    return table;
}
