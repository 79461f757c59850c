#include "historymodel.h"

#include "clock.h"
#include "receipts/shiftwording.h"
#include "transactionsapi.h"
#include "upstreamsaleinfo.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace {

bool isMoneyColumn(int column)
{
    return column == HistoryModel::BillColumn || column == HistoryModel::DiscountColumn ||
           column == HistoryModel::PaidColumn;
}

} // namespace

HistoryRow HistoryRow::fromRecord(const TransactionRecord &record)
{
    HistoryRow row;
    row.transactionId = record.transactionId;
    row.datetime = IstTime::formatMs(record.createdAtMs);
    row.type = TransactionNames::type(record.type);
    row.operatorName = record.operatorName;
    row.number = record.type == TransactionType::Voucher ? record.customerEmail : record.number;
    row.billAmount = record.billAmount;
    row.discount = record.discount;
    row.paid = record.paid;
    row.status = TransactionNames::status(record.status);
    row.referenceId = record.referenceId;
    row.tender = record.tender;
    const UpstreamSaleInfo upstream = UpstreamSaleInfo::fromRecord(record);
    row.upstreamState = upstream.state;
    row.attention = upstream.attention && record.status == TransactionStatus::Pending;
    row.sendOnce = upstream.sendOnce;
    row.reversedAtMs = upstream.reversed ? qMax<qint64>(upstream.reversedAtMs, 1) : 0;
    row.failedAfterPending = record.failedAfterPending && record.status == TransactionStatus::Failed;
    if (upstream.mismatch) {
        row.mismatchReported = upstream.mismatchReported;
        row.mismatchSource = upstream.mismatchSource;
        row.mismatchAtMs = upstream.mismatchAtMs;
    }
    return row;
}

HistoryModel::HistoryModel(ApiClient &api, QObject *parent) : QAbstractTableModel(parent), m_api(api)
{}

HistoryModel::~HistoryModel()
{
    abortCall();
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HistoryRow &r = m_rows[size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case DateTimeColumn:
            return r.datetime;
        case IdColumn:
            return r.transactionId;
        case TypeColumn:
            return r.type == QLatin1String("MOBILE")    ? tr("Mobile")
                   : r.type == QLatin1String("DTH")     ? tr("DTH")
                   : r.type == QLatin1String("VOUCHER") ? tr("Voucher")
                                                        : r.type;
        case OperatorColumn:
            return r.operatorName;
        case NumberColumn:
            return r.number;
        case BillColumn:
            return Money::formatIndian(r.billAmount);
        case DiscountColumn:
            return Money::formatIndian(r.discount);
        case PaidColumn:
            return Money::formatIndian(r.paid);
        case StatusColumn:
            return r.reversedAtMs > 0 ? reversedStatusText() : r.failedAfterPending ? moneyBackStatusText() : r.status;
        case ReferenceColumn:
            return r.referenceId;
        case TenderColumn:
            return r.tender.isEmpty() ? QStringLiteral("—") : ShiftWording::tenderName(r.tender);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (r.reversedAtMs > 0 || !r.mismatchReported.isEmpty()) {
            // Said on every cell of the row: a reversed sale was sold once, a mismatch needs a person.
            UpstreamSaleInfo upstream;
            upstream.reversed = r.reversedAtMs > 0;
            upstream.reversedAtMs = r.reversedAtMs;
            upstream.mismatch = !r.mismatchReported.isEmpty();
            upstream.mismatchReported = r.mismatchReported;
            upstream.mismatchSource = r.mismatchSource;
            upstream.mismatchAtMs = r.mismatchAtMs;
            const QDate today = m_today ? m_today() : IstTime::dateOf(QDateTime::currentDateTimeUtc());
            if (upstream.reversed)
                return tr("%1: the sale is FAILED now and its money went back to the wallet once.")
                    .arg(upstream.reversalText(today));
            return upstream.mismatchText(r.status, today);
        }
        if (column == TenderColumn && r.tender.isEmpty())
            return tr("No payment was recorded with this sale (an older sale, or one from an API client that sends "
                      "none)");
        if (column != StatusColumn)
            return {};
        if (r.failedAfterPending)
            return tr("Failed after the customer had paid (it was PENDING first): %1 given back to the customer. "
                      "The wallet debit was refunded.")
                .arg(Money::formatIndian(r.billAmount));
        if (r.attention)
            return tr("Needs attention: the upstream has not ended this sale for a long time. Select it to see "
                      "what is known and to resolve it.");
        if (UpstreamSaleInfo::isUnknownState(r.upstreamState)) {
            return r.sendOnce
                       ? tr("Unknown at the upstream: no definite answer yet (sent once; it is never sent again)")
                       : tr("Unknown at the upstream: no definite answer yet (being sent again with the same "
                            "reference)");
        }
        return {};
    case Qt::TextAlignmentRole:
        if (isMoneyColumn(column) || column == IdColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        if (column == StatusColumn)
            return QVariant::fromValue(Qt::AlignCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column != StatusColumn)
            return {};
        if (r.status == QLatin1String("SUCCESS"))
            return QBrush(QColor(0x06, 0x76, 0x47));
        if (r.status == QLatin1String("PENDING"))
            return QBrush(QColor(0xb5, 0x47, 0x08));
        if (r.status == QLatin1String("FAILED"))
            return QBrush(QColor(0xb4, 0x23, 0x18));
        return {};
    case Qt::BackgroundRole:
        if (column != StatusColumn)
            return {};
        if (r.attention || !r.mismatchReported.isEmpty()) // a stronger amber than any PENDING sale: a person looks
            return QBrush(QColor(0xfe, 0xdf, 0x89));
        if (r.status == QLatin1String("SUCCESS"))
            return QBrush(QColor(0xec, 0xfd, 0xf3));
        if (r.status == QLatin1String("PENDING"))
            return QBrush(QColor(0xff, 0xfa, 0xeb));
        if (r.status == QLatin1String("FAILED"))
            return QBrush(QColor(0xfe, 0xf3, 0xf2));
        return {};
    case Qt::FontRole:
        if (column == StatusColumn) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case TransactionIdRole:
        return r.transactionId;
    case PaiseRole:
        if (column == BillColumn)
            return r.billAmount;
        if (column == DiscountColumn)
            return r.discount;
        if (column == PaidColumn)
            return r.paid;
        return {};
    default:
        return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole)
        return isSortable(section) ? tr("Click to sort") : tr("This column does not sort");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case DateTimeColumn:
        return tr("Date and time (IST)");
    case IdColumn:
        return tr("ID");
    case TypeColumn:
        return tr("Type");
    case OperatorColumn:
        return tr("Operator");
    case NumberColumn:
        return tr("Number / e-mail");
    case BillColumn:
        return tr("Bill");
    case DiscountColumn:
        return tr("Discount");
    case PaidColumn:
        return tr("Wallet debit"); // the spec's `paid` (bill − discount), not what the customer paid
    case StatusColumn:
        return tr("Status");
    case ReferenceColumn:
        return tr("Reference");
    case TenderColumn:
        return tr("Payment");
    default:
        return {};
    }
}

bool HistoryModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_complete && !m_failed;
}

void HistoryModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_complete || m_failed || m_call)
        return;
    TransactionQuery query = m_filter;
    query.limit = kPageSize;
    query.cursor = m_cursor;
    m_call = TransactionsApi(m_api).list(query).then(
        this, [this](const Answer<Page<TransactionRecord>> &answer) { onPage(answer); });
    emit loadingChanged(true);
}

void HistoryModel::onPage(const Answer<Page<TransactionRecord>> &answer)
{
    m_call = nullptr;
    if (!answer.ok()) {
        m_failed = true;
        emit loadingChanged(false);
        emit loadFailed(*answer.error);
        return;
    }
    const Page<TransactionRecord> &page = *answer.value;
    m_cursor = page.nextCursor;
    m_complete = page.isLast();
    if (!page.items.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(page.items.size()) - 1);
        m_rows.reserve(m_rows.size() + size_t(page.items.size()));
        for (const TransactionRecord &record : page.items)
            m_rows.push_back(HistoryRow::fromRecord(record));
        endInsertRows();
    }
    emit loadingChanged(false);
    emit pageLoaded(int(m_rows.size()));
}

void HistoryModel::abortCall()
{
    if (m_call) {
        m_call->abort();
        m_call = nullptr;
    }
}

void HistoryModel::setFilter(const HistoryFilter &filter)
{
    m_filter = filter;
    reload();
}

void HistoryModel::reload()
{
    const bool wasLoading = m_call != nullptr;
    abortCall();
    beginResetModel();
    m_rows.clear();
    m_rows.shrink_to_fit();
    m_cursor.clear();
    m_complete = false;
    m_failed = false;
    endResetModel();
    if (wasLoading)
        emit loadingChanged(false);
    fetchMore();
}

int HistoryModel::rowOf(qint64 transactionId) const
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].transactionId == transactionId)
            return int(i);
    }
    return -1;
}

void HistoryModel::updateRecord(const TransactionRecord &record)
{
    const HistoryRow fresh = HistoryRow::fromRecord(record);
    const int at = rowOf(fresh.transactionId);
    if (at < 0)
        return;
    m_rows[size_t(at)] = fresh;
    emit dataChanged(index(at, 0), index(at, ColumnCount - 1));
}

QString HistoryModel::reversedStatusText()
{
    return tr("FAILED · reversed");
}

QString HistoryModel::moneyBackStatusText()
{
    return tr("FAILED · money back");
}

bool HistoryModel::isSortable(int column)
{
    return column == DateTimeColumn || column == IdColumn || isMoneyColumn(column);
}

int HistoryModel::sortColumn() const
{
    return m_filter.sort == HistoryFilter::Sort::AmountHigh || m_filter.sort == HistoryFilter::Sort::AmountLow
               ? BillColumn
               : DateTimeColumn;
}

Qt::SortOrder HistoryModel::sortOrder() const
{
    return m_filter.sort == HistoryFilter::Sort::Oldest || m_filter.sort == HistoryFilter::Sort::AmountLow
               ? Qt::AscendingOrder
               : Qt::DescendingOrder;
}

void HistoryModel::sort(int column, Qt::SortOrder order)
{
    if (!isSortable(column))
        return;
    const bool ascending = order == Qt::AscendingOrder;
    const HistoryFilter::Sort sort =
        isMoneyColumn(column) ? (ascending ? HistoryFilter::Sort::AmountLow : HistoryFilter::Sort::AmountHigh)
                              : (ascending ? HistoryFilter::Sort::Oldest : HistoryFilter::Sort::Newest);
    if (sort == m_filter.sort)
        return;
    m_filter.sort = sort;
    reload();
}
