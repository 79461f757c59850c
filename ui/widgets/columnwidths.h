#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QTableView;

/// Keeps a table's columns wide enough for their widest expected text ("2026-12-31 23:59:59",
/// "₹1,00,000.00", a bold "SUCCESS") in the font the view really uses. That font is known only
/// once the style sheet has polished the view (the kiosk's is larger), so the widths are measured
/// then, and again whenever the view's font or style changes; never from the font at construction.
/// The person can still drag a column wider or narrower afterwards.
class ColumnWidths final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ColumnWidths)

public:
    struct Column
    {
        int column;
        QString sample; ///< the widest text the column shows
        bool bold = false;
    };

    /// Watches `view` (and is owned by it).
    ColumnWidths(QTableView *view, QList<Column> columns);

    /// The width `column` needs for its sample and its header in the view's current font.
    int widthFor(const Column &column) const;
    /// Sets every column to widthFor() now.
    void apply();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QTableView *m_view;
    QList<Column> m_columns;
};
