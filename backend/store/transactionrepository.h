#pragma once

#include "auth/authcontext.h"
#include "entities/transactionrecord.h"
#include "entities/transactionsummary.h"

#include <QList>
#include <QString>

#include <optional>

class Database;

/// A transaction row: the API record plus what the server keeps about it.
struct StoredTransaction
{
    TransactionRecord record; ///< operatorName left empty: the service fills it from the catalog
    qint64 accountId = 0;
    Mode mode = Mode::Test;
    QString fingerprint;
    QString keyId;
    QString clerk; ///< name of the signed-in person who sold it; empty for plain API clients
};

/// Filters of GET /api/v1/transactions (api-conventions.md, "Beyond the spec"). Times are UTC
/// milliseconds; a zero bound is open. afterId/afterAmount continue a listing (keyset cursor).
struct TransactionFilter
{
    /// Listing order; the keyset cursor follows it.
    enum class Order
    {
        NewestFirst,
        OldestFirst,
        AmountHighFirst,
        AmountLowFirst
    };
    std::optional<TransactionType> type;
    std::optional<TransactionStatus> status;
    QString operatorCode;
    QString referenceId;
    qint64 fromMs = 0; ///< inclusive
    qint64 toMs = 0;   ///< exclusive
    QString search;    ///< exact transaction id, or a prefix of the number or reference id
    QString tender;    ///< issue 28: "cash", "upi", "none" (no tender recorded) or "" (any)
    /// Only live sales still unknown at the upstream (queued, sent, unknown; issue 11).
    bool upstreamUnknown = false;
    /// Only live sales still waiting on the upstream (queued, sent, unknown, pending) created before this instant
    /// (UTC ms): the sales that need attention (issue 26, `upstream_state=attention`). 0: no such condition.
    qint64 upstreamAttentionBeforeMs = 0;
    /// True when a condition reads upstream_sales (no rollup row answers it).
    bool byUpstream() const { return upstreamUnknown || upstreamAttentionBeforeMs > 0; }
    Order order = Order::NewestFirst;
    /// Keyset position: the last row of the previous page (id, with created_at for date orders
    /// and bill_amount for amount orders).
    qint64 afterId = 0;
    qint64 afterAmount = 0;
    qint64 afterCreatedAt = 0;
    int limit = 50;
};

/// Sums over the transactions matching a filter (paise; money sums count SUCCESS sales only):
/// the API's transaction summary entity.
using TransactionTotals = TransactionSummary;

/// Recharge, voucher and DTH transactions. Writes run inside the caller's transaction. Throws
/// DatabaseError (isUniqueViolation() for a reference_id taken concurrently).
class TransactionRepository
{
public:
    explicit TransactionRepository(Database &db) : m_db(db) {}

    /// Inserts the row, counts it in its IST day's rollup (daily_totals) and returns the new
    /// transaction_id.
    qint64 insert(const StoredTransaction &row, qint64 nowMs);
    /// The account's transaction of this mode and id; nullopt if there is none.
    std::optional<StoredTransaction> find(qint64 accountId, Mode mode, qint64 transactionId);
    /// Any transaction by id, whoever owns it (settlement, webhooks).
    std::optional<StoredTransaction> findById(qint64 transactionId);
    /// The account's transaction carrying this reference_id, in either mode.
    std::optional<StoredTransaction> findByReference(qint64 accountId, const QString &referenceId);
    /// The account's transactions of this mode matching `filter`, in filter.order, at most
    /// filter.limit rows. Amount orders walk the (account_id, mode, bill_amount, id) index or sort
    /// the filtered rows, whichever the day rollups say reads fewer rows (see the .cpp).
    QList<StoredTransaction> list(qint64 accountId, Mode mode, const TransactionFilter &filter);
    /// Count and sums (paise) of everything matching `filter` (cursor and limit ignored): whole IST
    /// days of the range from the daily_totals rollups, the partial days at its ends and any text
    /// filter (search, reference_id) from the rows. Equal to rawTotals() for every filter.
    TransactionTotals totals(qint64 accountId, Mode mode, const TransactionFilter &filter);
    /// The same figures as totals(), always summed over the transaction rows (the reference the
    /// rollups are tested against; a full range scan, ~0.25–1 s at a million rows).
    TransactionTotals rawTotals(qint64 accountId, Mode mode, const TransactionFilter &filter);
    /// rawTotals() for a text filter on SQLite: the matching ids from prefix ranges on number and
    /// reference_id (indexed) instead of a LIKE over every row of the range.
    TransactionTotals searchTotals(qint64 accountId, Mode mode, const TransactionFilter &filter);
    /// Moves the PENDING transaction `row` to `status` (setting redeem_code when non-empty) and moves it
    /// between the day rollups; false when the transaction was not PENDING (already settled by
    /// someone else). `row` is the transaction as read or inserted: its account, mode, type, operator,
    /// creation time and amounts never change, so the rollups take them from it (nothing read back).
    /// `failedAfterPending` (issue 27): the client was shown PENDING before this end, so a FAILED end is stored
    /// with failed_after_pending = 1 (the customer had paid); ignored for SUCCESS. Same UPDATE, no extra write.
    bool settle(const StoredTransaction &row, TransactionStatus status, const QString &redeemCode, qint64 nowMs,
                bool failedAfterPending = false);
    /// Moves a SUCCESS transaction to FAILED (a reversal the upstream reported after the fact) and between the day
    /// rollups, marking it failed_after_pending (the customer had paid for a sale shown as done); false when it
    /// was not SUCCESS (already reversed, or never sold).
    bool reverse(qint64 transactionId, qint64 nowMs);

private:
    /// The guarded status change of reverse(): only from `from`, so exactly once.
    bool changeStatus(qint64 transactionId, TransactionStatus from, TransactionStatus to, const QString &redeemCode,
                      qint64 nowMs);
    /// A status change of one sale in the day rollups: out of the row of `from`, into the row of `to`.
    void moveBetweenRollups(qint64 accountId, const QString &mode, qint64 createdAtMs, const QString &type,
                            const QString &operatorCode, const QString &from, const QString &to, Paise billAmount,
                            Paise discount, Paise paid);
    /// " AND …" conditions of `filter` (without the cursor) and their values. With `unindexed`
    /// (SQLite only) every column is written as `+column`, which SQLite cannot serve from an index.
    QString conditions(const TransactionFilter &filter, QVariantList *values, bool unindexed = false) const;
    /// Adds `sign` times one transaction to its (IST day, type, operator, status) rollup row.
    void addToDailyTotals(qint64 accountId, const QString &mode, qint64 createdAtMs, const QString &type,
                          const QString &operatorCode, const QString &status, int sign, Paise billAmount,
                          Paise discount, Paise paid);
    /// PostgreSQL: takes the row lock of the (account, mode) wallet before a rollup row is
    /// touched, so concurrent writers reach rollup rows in one order (no deadlocks). SQLite: no-op.
    void lockRollups(qint64 accountId, const QString &mode);
    /// True when an amount-ordered page is cheaper by walking the amount index than by sorting
    /// the rows the other filters select (estimated from the rollups; SQLite only).
    bool amountWalkIsCheaper(qint64 accountId, Mode mode, const TransactionFilter &filter);
    std::optional<StoredTransaction> one(const QString &where, const QVariantList &values);
    Database &m_db;
};
