#pragma once

#include <QByteArray>
#include <QString>

/// Plan catalogue files for tests (format: resources/plans/SOURCES.md).
namespace TestCatalogues {

/// The bytes of the built-in catalogue (resources/plans/plans.json).
QByteArray builtInBytes();
/// The built-in catalogue with a new version and the first plan of (AT, DL) at a new amount (rupees).
QByteArray changedCatalogue(const QString &version, int firstDelhiAmount);

} // namespace TestCatalogues
