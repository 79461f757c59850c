#pragma once

#include "entities/shift.h"

#include <QTimer>
#include <QWidget>

#include <optional>

class QComboBox;
class QDateEdit;
class QLabel;
class QPushButton;
class QScrollArea;
class QTableView;
class ReportView;
class ShiftListModel;
class TerminalContext;

/// Back office → Shifts (issue 28): the shifts opened on one IST day (default today), filtered by clerk, terminal
/// and state (the clerk and terminal lists offer those of the day), with their opening cash, cash and UPI sales,
/// expected and counted cash and the difference — short in red, over in amber, and said in words. Below, the
/// selected shift in full (ShiftReportPrint::sections: sales by tender, the drawer, each cash move with its
/// reason, the count by denomination, the UPI to send back, who closed it and why); Print shows the shift report
/// for the receipt printer (58/80 mm, the terminal's receipts/width_mm), Save PDF writes it on paper of that width,
/// and an admin closes an open shift with a
/// count and a note (AdminCloseShiftDialog). Export CSV writes the shifts listed (ShiftsCsv). Loads when first
/// shown; F5 reloads (BackOfficeView).
class ShiftsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShiftsPage)

public:
    ShiftsPage(TerminalContext &context, QWidget *parent = nullptr);

    ShiftListModel *model() const { return m_model; }
    /// The shift shown below the list, if any.
    const std::optional<Shift> &selectedShift() const { return m_selected; }
    /// Loads the list again with the filters shown, keeping the selected shift selected.
    void refresh();
    /// Writes the listed shifts to `path` as CSV (the Export button asks for the path first); false (and a message
    /// on the page) if it cannot.
    bool exportCsv(const QString &path);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void load();
    void onLoaded();
    void onDateChanged();
    void onCurrentRowChanged();
    void showSelected();
    void onExportClicked();
    void onPrintClicked();
    void onSavePdfClicked();
    void onCloseClicked();
    /// Fills the clerk and terminal lists from the day's shifts, keeping the current choice.
    void fillChoices();
    void showMessage(const QString &text, bool error);

    TerminalContext &m_context;
    ShiftListModel *m_model;
    QDateEdit *m_date;
    QComboBox *m_clerk;
    QComboBox *m_terminal;
    QComboBox *m_state;
    QPushButton *m_refresh;
    QPushButton *m_export;
    QLabel *m_message;
    QLabel *m_totals;
    QTableView *m_table;
    QLabel *m_detailTitle;
    QLabel *m_detailHint;
    QPushButton *m_print;
    QPushButton *m_savePdf;
    QPushButton *m_close;
    ReportView *m_detail;
    QScrollArea *m_detailScroll;
    QTimer m_debounce;
    std::optional<Shift> m_selected;
    qint64 m_reselect = 0; ///< the shift to select again once a load arrives
    bool m_loadedOnce = false;
};
