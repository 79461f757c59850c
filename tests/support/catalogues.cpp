#include "catalogues.h"

#include "plans/plancatalogue.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace TestCatalogues {

QByteArray builtInBytes()
{
    QFile file(PlanCatalogue::builtInPath());
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the built-in catalogue");
    return file.readAll();
}

/// The built-in catalogue with a new version and the first plan of (AT, DL) at a new amount.
QByteArray changedCatalogue(const QString &version, int firstDelhiAmount)
{
    QJsonObject root = QJsonDocument::fromJson(builtInBytes()).object();
    root[QStringLiteral("catalogue_version")] = version;
    QJsonArray entries = root.value(QStringLiteral("entries")).toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        QJsonObject entry = entries.at(i).toObject();
        if (entry.value(QStringLiteral("operator_code")) != QStringLiteral("AT") ||
            entry.value(QStringLiteral("circle_code")) != QStringLiteral("DL"))
            continue;
        QJsonArray categories = entry.value(QStringLiteral("categories")).toArray();
        QJsonObject category = categories.at(0).toObject();
        QJsonArray items = category.value(QStringLiteral("items")).toArray();
        QJsonObject plan = items.at(0).toObject();
        plan[QStringLiteral("amount")] = firstDelhiAmount;
        items[0] = plan;
        category[QStringLiteral("items")] = items;
        categories[0] = category;
        entry[QStringLiteral("categories")] = categories;
        entries[i] = entry;
    }
    root[QStringLiteral("entries")] = entries;
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

} // namespace TestCatalogues
