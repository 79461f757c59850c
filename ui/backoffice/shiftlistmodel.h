#pragma once

#include "apierror.h"
#include "entities/shift.h"

#include <QAbstractTableModel>
#include <QDate>
#include <QList>
#include <QPointer>
#include <QUrlQuery>

class ApiCall;
class ApiClient;

/// Which shifts the Shifts page lists: the IST day they were opened, and optionally one clerk, one terminal and one
/// state (GET /api/v1/shifts' query items date, clerk, terminal, state).
struct ShiftListFilter
{
    QDate date;       ///< IST
    QString clerk;    ///< "" for every clerk
    QString terminal; ///< "" for every terminal
    QString state;    ///< "open", "closed" or "" for both

    /// The query items of GET /api/v1/shifts for this filter.
    QUrlQuery query() const;
};

/// The shifts of one IST day for the back office (issue 28, "Shifts"): a read-only table over GET /api/v1/shifts,
/// every page of the answer (a day has few), newest first, with the columns terminal, clerk, opened, closed, opening
/// cash, cash sales, UPI sales, expected, counted and difference. A difference is said in words ("Short ₹200.00",
/// "Over ₹50.00") and coloured too: short red, over amber (Qt::ForegroundRole), in bold. Money for people
/// (Money::formatIndian), times IST. Never blocks; a failure is reported by failed() and the rows stay as they were.
class ShiftListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShiftListModel)

public:
    enum Column
    {
        TerminalColumn,
        ClerkColumn,
        OpenedColumn,
        ClosedColumn,
        OpeningColumn,
        CashSalesColumn,
        UpiSalesColumn,
        ExpectedColumn,
        CountedColumn,
        DifferenceColumn,
        ColumnCount
    };

    explicit ShiftListModel(ApiClient &api, QObject *parent = nullptr);

    /// Loads the shifts matching `filter` in place of the rows shown (aborting a load on its way).
    void load(const ShiftListFilter &filter);
    /// Loads the last filter again.
    void reload() { load(m_filter); }
    const ShiftListFilter &filter() const { return m_filter; }
    bool isLoading() const { return !m_call.isNull(); }
    /// The shifts listed, in the table's order.
    const QList<Shift> &shifts() const { return m_shifts; }
    /// The shift of `row`; nullptr outside the table.
    const Shift *shift(int row) const;
    /// The row of the shift `id`, or -1.
    int rowOf(qint64 id) const;
    /// Puts `shift` (e.g. just closed) in place of the listed shift with its id; false when it is not listed.
    bool replace(const Shift &shift);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The text of `column` for `shift` (what the table and the CSV's people read).
    static QString text(const Shift &shift, int column);

signals:
    /// Every page of a load arrived; the rows are the new list.
    void loaded();
    void failed(const ApiError &error);

private:
    void fetch(const QString &cursor);

    ApiClient &m_api;
    ShiftListFilter m_filter;
    QList<Shift> m_shifts;
    QList<Shift> m_incoming; ///< the pages of the load on its way
    QPointer<ApiCall> m_call;
};
