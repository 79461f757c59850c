#pragma once

#include <QList>
#include <QString>
#include <QStringList>

/// How a value reads beside the others. The words always say it ("Short ₹200.00"); the colour a screen or PDF
/// gives it (red for short, amber for over) only repeats the words, so a black-and-white receipt loses nothing.
enum class ReportTone
{
    Plain,
    Short, ///< money missing (counted less than expected)
    Over,  ///< money over (counted more than expected)
};

/// One figure of a report: its caption and its value, as people read them.
struct ReportFigure
{
    QString key;   ///< a stable handle: the screen names the value's label by it ("successCount")
    QString label; ///< "Successful sales"
    QString value; ///< "12", "₹1,299.00"
    ReportTone tone = ReportTone::Plain;
};

/// One row of a report's table, its cells as ready text.
struct ReportRow
{
    QStringList cells;
    bool total = false;  ///< the totals row (bold)
    int toneColumn = -1; ///< the cell `tone` applies to; -1 for none
    ReportTone tone = ReportTone::Plain;
};

/// One part of a report under its title, in reading order: a group of figures, a table, a warning sentence or a
/// chart (drawn by whoever shows the report). A report model (e.g. DayEndReportModel) makes the sections with all
/// the wording and money formatting; the screen (ReportView) and the paper (DayEndPrint, ShiftReportPrint) only lay
/// them out, so both always say the same.
struct ReportSection
{
    enum class Kind
    {
        Figures,
        Table,
        Warning,
        Chart,
    };

    Kind kind = Kind::Figures;
    QString key;                 ///< a stable handle ("sales", "lines"): the screen's object names derive from it
    QString title;               ///< "" for none
    QList<ReportFigure> figures; ///< Figures
    QStringList headers;         ///< Table: column titles
    int firstNumeric = 1;        ///< Table: the columns from this one on are numbers (aligned right)
    QList<ReportRow> rows;       ///< Table: the rows, a totals row (if any) last
    QString text;                ///< Warning: the sentence; Table: what is shown in place of rows when there are none

    /// A group of figures under `title`.
    static ReportSection makeFigures(const QString &key, const QString &title, QList<ReportFigure> items)
    {
        ReportSection section;
        section.kind = Kind::Figures;
        section.key = key;
        section.title = title;
        section.figures = std::move(items);
        return section;
    }
    /// An empty table under `title` (rows are appended by the caller); `emptyText` shows when it gets none.
    static ReportSection makeTable(const QString &key, const QString &title, const QStringList &headers,
                                   int firstNumeric, const QString &emptyText)
    {
        ReportSection section;
        section.kind = Kind::Table;
        section.key = key;
        section.title = title;
        section.headers = headers;
        section.firstNumeric = firstNumeric;
        section.text = emptyText;
        return section;
    }
};
