#pragma once

#include "entityfields.h"

#include <QJsonArray>
#include <QList>

/// A `collection` answer of the extension endpoints (api-conventions.md "Beyond the spec"): `items` of entity T,
/// their `count`, and for paged lists the opaque `next_cursor` (null on the last page). T has the codec shape
/// `static std::optional<T> fromJson(const QJsonObject &, QString *)` + `QJsonObject toJson() const`.
template <class T> struct Collection
{
    QList<T> items;
    /// Paged lists only: the cursor of the next page, nullopt on the last one.
    std::optional<QString> nextCursor;
    /// Whether the JSON has `next_cursor` at all (paged lists write it even when null).
    bool paged = false;

    static std::optional<Collection> fromJson(const QJsonObject &json, QString *error)
    {
        AnswerReader in(json, QStringLiteral("collection"));
        EntityFields::expectEntity(in, u"collection");
        Collection collection;
        collection.items = in.template list<T>(u"items", &T::fromJson);
        collection.paged = json.contains(QStringLiteral("next_cursor"));
        collection.nextCursor = in.optionalString(u"next_cursor");
        if (in.ok() && in.integer(u"count") != collection.items.size())
            in.fail(u"count", QStringLiteral("does not match the number of items"));
        if (!in.ok())
            return EntityFields::failed<Collection>(in, error);
        return collection;
    }

    QJsonObject toJson() const
    {
        QJsonArray array;
        for (const T &item : items)
            array.append(item.toJson());
        QJsonObject json{{QStringLiteral("entity"), QStringLiteral("collection")},
                         {QStringLiteral("count"), array.size()},
                         {QStringLiteral("items"), array}};
        if (paged)
            json.insert(QStringLiteral("next_cursor"), EntityFields::stringOrNull(nextCursor));
        return json;
    }
};
