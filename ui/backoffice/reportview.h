#pragma once

#include "receipts/reportsections.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QTableWidget;
class QVBoxLayout;

/// Shows the sections of a report model (ReportSection: DayEndReportModel, ShiftReportPrint::sections) on screen,
/// as the paper lays out the same sections: figures as white cards of caption and value (side by side when several
/// follow each other), tables sized to their rows (the page scrolls, not the table), a warning sentence, and a
/// chart widget given by the page. A value short is red, over amber (the words already say which).
///
/// Object names are the tests' handles: a figure's value label is named by its key and its caption by key +
/// "Caption"; a section's card, table and title are key + "Card", "Table" and "Title"; a warning is named by its key.
/// A section's widgets stay from one setSections() to the next (updated in place; hidden while the section is
/// absent), so a pointer to one stays good. Nothing inside takes the keyboard focus: the page around it scrolls.
class ReportView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReportView)

public:
    explicit ReportView(QWidget *parent = nullptr);

    /// Shows `sections`, in their order, in place of what was shown.
    void setSections(const QList<ReportSection> &sections);
    /// The widget a Chart section with `key` shows under its title (not owned until shown).
    void setChartWidget(const QString &key, QWidget *widget);
    /// How many figures a card puts side by side (default 3; a narrow pane takes 2).
    void setFiguresPerRow(int count) { m_figuresPerRow = qMax(1, count); }

private:
    /// The widget `name` made before, or nullptr; made ones are remembered under their object name.
    template <typename T> T *made(const QString &name) const;
    QWidget *cardsRow(const QString &key);
    QWidget *figuresCard(const ReportSection &section);
    QTableWidget *tableWidget(const ReportSection &section);
    /// The label `name` made before, or a new one.
    QLabel *label(const QString &name);

    QVBoxLayout *m_column;
    QHash<QString, QPointer<QWidget>> m_made;
    QHash<QString, QPointer<QWidget>> m_charts;
    int m_figuresPerRow = 3;
};
