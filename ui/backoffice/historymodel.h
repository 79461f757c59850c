#pragma once

#include "answer.h"
#include "apierror.h"
#include "entities/page.h"
#include "entities/transactionquery.h"
#include "entities/transactionrecord.h"
#include "money.h"

#include <QAbstractTableModel>
#include <QDate>
#include <QJsonObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <vector>

class ApiClient;

/// The filters of the back-office history: the query of GET /api/v1/transactions and its
/// /summary (core/entities/transactionquery.h).
using HistoryFilter = TransactionQuery;

/// One row of the history table: the spec's transaction record, compactly (money in paise).
struct HistoryRow
{
    qint64 transactionId = 0;
    QString datetime; ///< IST, "YYYY-MM-DD HH:MM:SS"
    QString type;
    QString operatorName;
    QString number; ///< phone / subscriber number; e-mail for vouchers
    Paise billAmount = 0;
    Paise discount = 0;
    Paise paid = 0;
    QString status;
    QString referenceId;
    QString tender;          ///< how the customer paid (issue 28): "cash", "upi" or "" when not recorded
    QString upstreamState;   ///< the live sale's upstream state (issue 11); empty without an upstream
    bool attention = false;  ///< a live sale not ended within the server's attention_after_s (issue 26)
    bool sendOnce = false;   ///< sent once to an upstream that promised no idempotent reference (issue 26)
    qint64 reversedAtMs = 0; ///< UTC ms when the upstream reversed the sale (FAILED after SUCCESS); 0: never
    /// FAILED after the customer had paid (shown PENDING or SUCCESS first; issue 27): the bill went back to them.
    bool failedAfterPending = false;
    QString mismatchReported; ///< the final status the upstream reported against ours (a mismatch); empty: none
    QString mismatchSource;   ///< "webhook" or "statement"
    qint64 mismatchAtMs = 0;  ///< UTC ms

    /// The row of a record (the API's record, decoded strictly by TransactionsApi).
    static HistoryRow fromRecord(const TransactionRecord &record);
};

/// The transaction history as a table that loads itself page by page from GET
/// /api/v1/transactions (200 rows a page, keyset cursor): canFetchMore()/fetchMore() pull the
/// next page as a view scrolls, one request at a time, so a million transactions are never
/// loaded at once. A new filter or sort aborts the request in flight and starts over.
/// Sorting by the date or id column maps to newest/oldest, by a money column to amount; the
/// other columns do not sort.
class HistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryModel)

public:
    enum Column
    {
        DateTimeColumn,
        IdColumn,
        StatusColumn, // early: with the detail pane open at 1366 px the status is still on screen
        BillColumn,   // the money next: on screen beside the detail pane without scrolling (issue 27)
        DiscountColumn,
        PaidColumn,   ///< the spec's `paid`, headed "Wallet debit"
        TenderColumn, ///< how the customer paid the shop (issue 28): Cash, UPI, or "—" when not recorded
        TypeColumn,
        OperatorColumn,
        NumberColumn,
        ReferenceColumn,
        ColumnCount
    };
    enum Role
    {
        TransactionIdRole = Qt::UserRole + 1, ///< qint64
        PaiseRole,                            ///< qint64 paise of a money column
    };
    /// Rows asked for per request (the server's maximum).
    static constexpr int kPageSize = 200;

    explicit HistoryModel(ApiClient &api, QObject *parent = nullptr);
    ~HistoryModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent = {}) const override;
    void fetchMore(const QModelIndex &parent = {}) override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    /// Replaces the filter: aborts the request in flight, empties the table and loads the first page.
    void setFilter(const HistoryFilter &filter);
    const HistoryFilter &filter() const { return m_filter; }
    /// Loads the first page again with the same filter.
    void reload();
    /// True while a page request is in flight.
    bool isLoading() const { return m_call != nullptr; }
    /// True when the last page has arrived.
    bool isComplete() const { return m_complete; }
    /// The row's data; `row` must be valid.
    const HistoryRow &row(int row) const { return m_rows[size_t(row)]; }
    /// The row showing this transaction, or -1.
    int rowOf(qint64 transactionId) const;
    /// Replaces a row's data with a fresher record of the same transaction (after a recheck); a
    /// record that does not decode changes nothing.
    void updateRecord(const TransactionRecord &record);
    /// The column and order the current sort shows as (for the header's indicator).
    int sortColumn() const;
    Qt::SortOrder sortOrder() const;
    /// True for the columns sort() understands.
    static bool isSortable(int column);
    /// Where the model learns today's IST date ("Reversed by the operator at 14:05" gives the date of another day);
    /// without one, the system clock's.
    void setToday(std::function<QDate()> today) { m_today = std::move(today); }
    /// The status column's text of a reversed sale ("FAILED · reversed"): its sample width.
    static QString reversedStatusText();
    /// "FAILED · money back": the status of a sale that failed after the customer had paid (issue 27).
    static QString moneyBackStatusText();

signals:
    /// A page arrived and its rows were appended (rows = rows now in the table).
    void pageLoaded(int rows);
    void loadingChanged(bool loading);
    /// A page request failed; the table keeps what it has and stops fetching until reload().
    void loadFailed(const ApiError &error);

private:
    void onPage(const Answer<Page<TransactionRecord>> &answer);
    void abortCall();

    ApiClient &m_api;
    HistoryFilter m_filter;
    std::vector<HistoryRow> m_rows;
    QString m_cursor;
    bool m_complete = false;
    bool m_failed = false;
    QPointer<ApiCall> m_call;
    std::function<QDate()> m_today;
};
