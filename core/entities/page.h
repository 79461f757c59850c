#pragma once

#include "answerreader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/// One page of a collection answer (api-conventions.md, "Beyond the spec": lists): the spec's
/// {entity "collection", count, items} and, for a paged list, `next_cursor` (the opaque string to
/// pass as `cursor` for the next page, null on the last page). T is an entity with the codec
/// shape of this folder (toJson, static fromJson(const QJsonObject &, QString *)).
template <class T> struct Page
{
    QList<T> items;
    /// The cursor of the next page; empty on the last page.
    QString nextCursor;
    /// False for the lists that are never paged (a sale's ledger rows): no `next_cursor` field then.
    bool paged = true;

    bool isLast() const { return nextCursor.isEmpty(); }

    QJsonObject toJson() const
    {
        QJsonArray array;
        for (const T &item : items)
            array.append(item.toJson());
        QJsonObject json{{QStringLiteral("entity"), QStringLiteral("collection")},
                         {QStringLiteral("count"), array.size()},
                         {QStringLiteral("items"), array}};
        if (paged)
            json.insert(QStringLiteral("next_cursor"),
                        nextCursor.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(nextCursor));
        return json;
    }

    /// Reads a collection strictly: every item must decode, `count` must match the items; a
    /// missing `next_cursor` reads as an unpaged list, a missing `entity` as "collection". nullopt with *error naming
    /// the problem.
    static std::optional<Page> fromJson(const QJsonObject &json, QString *error)
    {
        AnswerReader in(json, QStringLiteral("list"));
        Page page;
        if (in.optionalString(u"entity").value_or(QStringLiteral("collection")) != QLatin1String("collection"))
            in.fail(u"entity", QStringLiteral("is not collection"));
        const qint64 count = in.integer(u"count");
        page.items = in.list<T>(u"items", &T::fromJson);
        if (in.ok() && count != page.items.size())
            in.fail(u"count", QStringLiteral("is %1 for %2 items").arg(count).arg(page.items.size()));
        page.paged = json.contains(QStringLiteral("next_cursor"));
        page.nextCursor = in.optionalString(u"next_cursor").value_or(QString());
        if (!in.ok()) {
            *error = in.error();
            return std::nullopt;
        }
        return page;
    }
};
