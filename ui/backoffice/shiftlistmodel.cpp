#include "shiftlistmodel.h"

#include "answer.h"
#include "clock.h"
#include "entities/collection.h"
#include "receipts/shiftwording.h"
#include "shiftsapi.h"

#include <QFont>

namespace {

constexpr int kPageSize = 200; // the API's largest page

} // namespace

QUrlQuery ShiftListFilter::query() const
{
    QUrlQuery query;
    if (date.isValid())
        query.addQueryItem(QStringLiteral("date"), date.toString(Qt::ISODate));
    if (!clerk.isEmpty())
        query.addQueryItem(QStringLiteral("clerk"), clerk);
    if (!terminal.isEmpty())
        query.addQueryItem(QStringLiteral("terminal"), terminal);
    if (!state.isEmpty())
        query.addQueryItem(QStringLiteral("state"), state);
    return query;
}

ShiftListModel::ShiftListModel(ApiClient &api, QObject *parent) : QAbstractTableModel(parent), m_api(api)
{}

void ShiftListModel::load(const ShiftListFilter &filter)
{
    if (m_call)
        m_call->abort();
    m_call.clear();
    m_filter = filter;
    m_incoming.clear();
    fetch(QString());
}

void ShiftListModel::fetch(const QString &cursor)
{
    QUrlQuery query = m_filter.query();
    query.addQueryItem(QStringLiteral("limit"), QString::number(kPageSize));
    if (!cursor.isEmpty())
        query.addQueryItem(QStringLiteral("cursor"), cursor);
    m_call = TypedCall<Collection<Shift>>(m_api.get(ShiftsApi::listPath(), query), &Collection<Shift>::fromJson)
                 .then(this, [this](const Answer<Collection<Shift>> &answer) {
                     m_call.clear();
                     if (!answer.ok()) {
                         m_incoming.clear();
                         emit failed(*answer.error);
                         return;
                     }
                     m_incoming += answer.value->items;
                     if (answer.value->nextCursor && !answer.value->items.isEmpty()) {
                         fetch(*answer.value->nextCursor);
                         return;
                     }
                     beginResetModel();
                     m_shifts = std::exchange(m_incoming, {});
                     endResetModel();
                     emit loaded();
                 });
}

const Shift *ShiftListModel::shift(int row) const
{
    return row >= 0 && row < m_shifts.size() ? &m_shifts.at(row) : nullptr;
}

int ShiftListModel::rowOf(qint64 id) const
{
    for (int row = 0; row < m_shifts.size(); ++row) {
        if (m_shifts.at(row).id == id)
            return row;
    }
    return -1;
}

bool ShiftListModel::replace(const Shift &shift)
{
    const int row = rowOf(shift.id);
    if (row < 0)
        return false;
    m_shifts[row] = shift;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    return true;
}

int ShiftListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_shifts.size());
}

int ShiftListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ShiftListModel::text(const Shift &shift, int column)
{
    const QDate day = IstTime::dateOf(shift.openedAt);
    switch (column) {
    case TerminalColumn:
        return shift.terminal;
    case ClerkColumn:
        return shift.clerk;
    case OpenedColumn:
        return ShiftWording::timeText(shift.openedAt, day);
    case ClosedColumn:
        return shift.isOpen() ? ShiftWording::stateText(shift.state) : ShiftWording::timeText(shift.closedAt, day);
    case OpeningColumn:
        return Money::formatIndian(shift.openingCash);
    case CashSalesColumn:
        return Money::formatIndian(shift.sales.cash.amount);
    case UpiSalesColumn:
        return Money::formatIndian(shift.sales.upi.amount);
    case ExpectedColumn:
        return ShiftWording::moneyText(shift.expectedCash);
    case CountedColumn:
        return ShiftWording::moneyText(shift.countedCash);
    case DifferenceColumn:
        return ShiftWording::differenceText(shift.difference);
    default:
        return {};
    }
}

QVariant ShiftListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Shift &shift = m_shifts.at(index.row());
    const bool difference = index.column() == DifferenceColumn;
    const ReportTone tone = ShiftWording::differenceTone(shift.difference);
    switch (role) {
    case Qt::DisplayRole:
        return text(shift, index.column());
    case Qt::ToolTipRole:
        if (difference && tone != ReportTone::Plain)
            return tone == ReportTone::Short ? tr("Counted less cash than expected")
                                             : tr("Counted more cash than expected");
        return text(shift, index.column());
    case Qt::TextAlignmentRole:
        return index.column() >= OpeningColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                               : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (difference && tone != ReportTone::Plain)
            return ShiftWording::toneColour(tone);
        return {};
    case Qt::FontRole:
        if (difference && tone != ReportTone::Plain) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant ShiftListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TerminalColumn:
        return tr("Terminal");
    case ClerkColumn:
        return tr("Clerk");
    case OpenedColumn:
        return tr("Opened");
    case ClosedColumn:
        return tr("Closed");
    case OpeningColumn:
        return tr("Opening cash");
    case CashSalesColumn:
        return tr("Cash sales");
    case UpiSalesColumn:
        return tr("UPI sales");
    case ExpectedColumn:
        return tr("Expected");
    case CountedColumn:
        return tr("Counted");
    case DifferenceColumn:
        return tr("Difference");
    default:
        return {};
    }
}
