#include "collectionmodel.h"

#include <QJsonArray>

CollectionModel::CollectionModel(ApiClient &api, const QString &path, QList<CollectionColumn> columns, int pageSize,
                                 QObject *parent)
    : QAbstractTableModel(parent), m_api(api), m_path(path), m_columns(std::move(columns)), m_pageSize(pageSize)
{}

void CollectionModel::reload()
{
    if (m_call)
        m_call->abort();
    m_call.clear();
    beginResetModel();
    m_items.clear();
    m_cursor.clear();
    m_loadedOnce = false;
    endResetModel();
    load(QString());
}

void CollectionModel::load(const QString &cursor)
{
    QUrlQuery query = m_query;
    if (m_pageSize > 0)
        query.addQueryItem(QStringLiteral("limit"), QString::number(m_pageSize));
    if (!cursor.isEmpty())
        query.addQueryItem(QStringLiteral("cursor"), cursor);
    m_call = m_api.get(m_path, query);
    connect(m_call, &ApiCall::finished, this, &CollectionModel::onPage);
}

void CollectionModel::onPage(const ApiResult &result)
{
    m_call.clear();
    if (!result.ok()) {
        emit failed(*result.error);
        return;
    }
    m_loadedOnce = true;
    const QJsonArray items = result.data.value(QStringLiteral("items")).toArray();
    const QJsonValue next = result.data.value(QStringLiteral("next_cursor"));
    // A page that brings no rows ends the collection even if the server offered a cursor.
    m_cursor = next.isString() && !items.isEmpty() ? next.toString() : QString();
    if (!items.isEmpty()) {
        const int first = int(m_items.size());
        beginInsertRows(QModelIndex(), first, first + int(items.size()) - 1);
        for (const QJsonValue &value : items)
            m_items.append(value.toObject());
        endInsertRows();
    }
    emit loaded();
}

QJsonObject CollectionModel::item(int row) const
{
    return row >= 0 && row < m_items.size() ? m_items.at(row) : QJsonObject();
}

int CollectionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int CollectionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant CollectionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject &item = m_items.at(index.row());
    const CollectionColumn &column = m_columns.at(index.column());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return column.text(item);
    case Qt::TextAlignmentRole:
        return column.alignment.toInt();
    case ItemRole:
        return item.toVariantMap();
    default:
        return {};
    }
}

QVariant CollectionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= m_columns.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    return m_columns.at(section).title;
}

bool CollectionModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_loadedOnce && !m_cursor.isEmpty() && !isLoading();
}

void CollectionModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        load(m_cursor);
}
