#pragma once

#include "entities/shop.h"
#include "shopsapi.h"

#include <QIdentityProxyModel>

#include <optional>

class ApiClient;
class CollectionModel;

/// The distributor's shops as a table (issue 30, Back office → Shops): name, owner, balance, credit limit, today's
/// sales, success %, last contact and state, over GET /api/v1/shops loaded page by page (CollectionModel: 500 rows a
/// page, the next as the view scrolls), so 5,000 shops open as fast as 5. A negative balance is red; a suspended shop's
/// row is grey and its State cell says "Suspended".
///
/// Sorting is the server's: the view's sort() (a header click) sets ShopsApi::ListQuery::sort and reloads; the columns
/// the server cannot sort by (owner, credit limit) keep the current order.
class ShopListModel final : public QIdentityProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShopListModel)

public:
    enum Column
    {
        Name,
        Owner,
        Balance,
        CreditLimit,
        TodaySales,
        SuccessRate,
        LastContact,
        State,
        ColumnCount
    };
    static constexpr int kPageSize = 500;

    explicit ShopListModel(ApiClient &api, QObject *parent = nullptr);

    /// The paged source (its loaded() and failed() signals tell when a page came).
    CollectionModel *collection() const { return m_collection; }
    /// The query of the next reload() (search, state, sort).
    const ShopsApi::ListQuery &query() const { return m_query; }
    void setSearch(const QString &text) { m_query.q = text; }
    void setState(const QString &state) { m_query.state = state; }
    /// Loads the first page again with query().
    void reload();
    /// The shop of `row`, if it decodes.
    std::optional<Shop> shop(int row) const;
    /// The row of the shop `id` among the loaded rows, or -1.
    int rowOf(qint64 id) const;
    /// The server's sort key of `column` ("" when the server cannot sort by it).
    static QString sortKey(int column);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    /// "28 Nov 14:05" (IST) for a last contact, "never" for none.
    static QString lastContactText(const QDateTime &at);
    /// "12 · ₹2,340.00": today's sales and what the successful ones sold.
    static QString todayText(const Shop::Today &today);
    /// "96.5 %", or "—" when no sale finished today.
    static QString successText(const Shop::Today &today);

private:
    CollectionModel *m_collection;
    ShopsApi::ListQuery m_query;
};
