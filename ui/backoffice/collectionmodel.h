#pragma once

#include "apiclient.h"
#include "apierror.h"

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>
#include <QUrlQuery>

#include <functional>

/// One column of a CollectionModel: a header and how to show an item (a JSON object of the API).
struct CollectionColumn
{
    QString title;
    std::function<QString(const QJsonObject &item)> text;
    Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter;
};

/// A read-only table over one of the API's collections ({"entity": "collection", "items": [...],
/// "next_cursor": ...}, api-conventions.md "Beyond the spec"): wallet ledger, API keys, users,
/// audit log, webhook deliveries, webhook inbox. Loads the first page on reload() and further
/// pages through canFetchMore()/fetchMore() while the server returns a next_cursor, so a long log
/// is never loaded whole. Never blocks; failures are reported by failed().
class CollectionModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CollectionModel)

public:
    /// Role that returns the whole item as a QVariantMap.
    static constexpr int ItemRole = Qt::UserRole + 1;

    /// `path` is the collection's API path ("/api/v1/audit-log"); `pageSize` is sent as `limit`
    /// (0: no limit parameter, for collections that are not paged).
    CollectionModel(ApiClient &api, const QString &path, QList<CollectionColumn> columns, int pageSize,
                    QObject *parent = nullptr);

    /// Filters sent with every page (without limit and cursor); takes effect at the next reload().
    void setQuery(const QUrlQuery &query) { m_query = query; }
    const QUrlQuery &query() const { return m_query; }
    /// Drops the rows and loads the first page again (aborting a page on its way).
    void reload();

    /// The item of `row` (an empty object outside the table).
    QJsonObject item(int row) const;
    /// True while a page is on its way.
    bool isLoading() const { return !m_call.isNull(); }
    /// True once the first page arrived and the server has no further page.
    bool isComplete() const { return m_loadedOnce && m_cursor.isEmpty() && !isLoading(); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    /// A page arrived (the first one after reload() or a further one).
    void loaded();
    /// A page could not be loaded; the rows loaded so far stay.
    void failed(const ApiError &error);

private:
    void load(const QString &cursor);
    void onPage(const ApiResult &result);

    ApiClient &m_api;
    QString m_path;
    QList<CollectionColumn> m_columns;
    int m_pageSize;
    QUrlQuery m_query;
    QList<QJsonObject> m_items;
    QString m_cursor;
    bool m_loadedOnce = false;
    QPointer<ApiCall> m_call;
};
