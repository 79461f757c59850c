#pragma once

#include "collectionmodel.h"

#include <QCoreApplication>

#include <optional>

/// Typed reading of a CollectionModel's items (issue 14): T is an entity of core/entities/ with the codec
/// `static std::optional<T> fromJson(const QJsonObject &, QString *)`. An item that does not decode is never shown
/// as zeros or blanks: its cells say what is wrong with it.
namespace TypedColumn {

/// A column showing `text(item)` of the item decoded as T.
template <class T>
CollectionColumn make(QString title, std::function<QString(const T &)> text,
                      Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter)
{
    return {std::move(title),
            [text = std::move(text)](const QJsonObject &json) {
                QString problem;
                const std::optional<T> item = T::fromJson(json, &problem);
                return item ? text(*item)
                            : QCoreApplication::translate("TypedColumn", "Unreadable answer: %1").arg(problem);
            },
            alignment};
}

/// The item of `row` decoded as T; nullopt outside the table or when it does not decode (`*problem` says why).
template <class T> std::optional<T> item(const CollectionModel &model, int row, QString *problem = nullptr)
{
    const QJsonObject json = model.item(row);
    if (json.isEmpty())
        return std::nullopt;
    return T::fromJson(json, problem);
}

} // namespace TypedColumn
