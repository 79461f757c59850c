#include "shoplistmodel.h"

#include "backoffice/collectionmodel.h"
#include "backoffice/typedcolumn.h"
#include "clock.h"

#include <QBrush>
#include <QColor>

namespace {

const QColor kNegative(0xb4, 0x23, 0x18);  // the style sheet's error red
const QColor kSuspended(0x98, 0xa2, 0xb3); // grey

QList<CollectionColumn> shopColumns()
{
    using TypedColumn::make;
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        make<Shop>(ShopListModel::tr("Shop"), [](const Shop &s) { return s.name; }),
        make<Shop>(ShopListModel::tr("Owner"), [](const Shop &s) { return s.owner; }),
        make<Shop>(
            ShopListModel::tr("Balance"), [](const Shop &s) { return Money::formatIndian(s.balance); }, right),
        make<Shop>(
            ShopListModel::tr("Credit limit"), [](const Shop &s) { return Money::formatIndian(s.creditLimit); }, right),
        make<Shop>(
            ShopListModel::tr("Today's sales"), [](const Shop &s) { return ShopListModel::todayText(s.today); }, right),
        make<Shop>(
            ShopListModel::tr("Success"), [](const Shop &s) { return ShopListModel::successText(s.today); }, right),
        make<Shop>(ShopListModel::tr("Last contact"),
                   [](const Shop &s) { return ShopListModel::lastContactText(s.lastContactAt); }),
        make<Shop>(ShopListModel::tr("State"),
                   [](const Shop &s) {
                       return s.isSuspended() ? ShopListModel::tr("Suspended") : ShopListModel::tr("Active");
                   }),
    };
}

} // namespace

ShopListModel::ShopListModel(ApiClient &api, QObject *parent)
    : QIdentityProxyModel(parent),
      m_collection(new CollectionModel(api, ShopsApi::listPath(), shopColumns(), kPageSize, this))
{
    setSourceModel(m_collection);
}

void ShopListModel::reload()
{
    m_collection->setQuery(m_query.toUrlQuery());
    m_collection->reload();
}

std::optional<Shop> ShopListModel::shop(int row) const
{
    return TypedColumn::item<Shop>(*m_collection, row);
}

int ShopListModel::rowOf(qint64 id) const
{
    for (int row = 0; row < m_collection->rowCount(); ++row) {
        if (m_collection->item(row).value(QStringLiteral("id")).toInteger() == id)
            return row;
    }
    return -1;
}

QString ShopListModel::sortKey(int column)
{
    switch (column) {
    case Name:
        return QStringLiteral("name");
    case Balance:
        return QStringLiteral("balance");
    case TodaySales:
        return QStringLiteral("sales");
    case SuccessRate:
        return QStringLiteral("success_rate");
    case LastContact:
        return QStringLiteral("last_contact");
    case State:
        return QStringLiteral("state");
    default:
        return {};
    }
}

QVariant ShopListModel::data(const QModelIndex &index, int role) const
{
    if (role == Qt::ForegroundRole && index.isValid()) {
        // The raw item, not a decoded Shop: this runs for every painted cell.
        const QJsonObject item = m_collection->item(index.row());
        if (index.column() == Balance && item.value(QStringLiteral("balance")).toString().startsWith(QLatin1Char('-')))
            return QBrush(kNegative);
        if (item.value(QStringLiteral("state")).toString() == QLatin1String("suspended"))
            return QBrush(kSuspended);
    }
    return QIdentityProxyModel::data(index, role);
}

void ShopListModel::sort(int column, Qt::SortOrder order)
{
    const QString key = sortKey(column);
    if (key.isEmpty())
        return;
    m_query.sort = key;
    m_query.descending = order == Qt::DescendingOrder;
    reload();
}

QString ShopListModel::lastContactText(const QDateTime &at)
{
    return at.isValid() ? IstTime::toIst(at).toString(QStringLiteral("dd MMM HH:mm")) : tr("never");
}

QString ShopListModel::todayText(const Shop::Today &today)
{
    return tr("%1 · %2").arg(today.sales).arg(Money::formatIndian(today.sold));
}

QString ShopListModel::successText(const Shop::Today &today)
{
    const std::optional<double> rate = today.successRate();
    return rate ? tr("%1 %").arg(*rate, 0, 'f', 1) : QStringLiteral("—");
}
