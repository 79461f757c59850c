#pragma once

#include <QSet>
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

/// How a database's applied migrations compare with allMigrations() (GET /readyz).
enum class SchemaCurrency
{
    Current, ///< exactly the migrations this binary knows
    Behind,  ///< some migration of this binary is not applied (the database was not migrated yet)
    Ahead,   ///< a migration this binary does not know is applied (a newer server migrated it)
};

/// Compares the versions recorded in schema_migrations with allMigrations(); Ahead wins over Behind.
SchemaCurrency schemaCurrency(const QSet<int> &applied);
