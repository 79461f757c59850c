#pragma once

#include <QStringList>

/// One numbered schema step: statements applied in order inside one transaction. `%ID%` in a
/// statement is replaced by the dialect's auto-increment primary key column type.
struct Migration
{
    int version;
    QStringList statements;
};

/// Every migration of the product, in version order. Never edit a released migration; add one.
const QList<Migration> &allMigrations();
