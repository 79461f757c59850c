#pragma once

#include <QSet>
#include <QStringList>

/// Which databases run a migration's statements.
enum class MigrationScope
{
    AllDatabases, ///< SQLite and PostgreSQL
    /// SQLite only; PostgreSQL records the step as applied and runs nothing. For a table rebuild, SQLite's way
    /// to make a schema change its ALTER TABLE cannot (https://www.sqlite.org/lang_altertable.html, "Making Other
    /// Kinds Of Table Schema Changes"): the statements run with foreign key enforcement off (it cannot change
    /// inside a transaction, so it is switched off before the step's transaction and on again after it), and
    /// the step commits only if `PRAGMA foreign_key_check` then finds no row whose parent is missing.
    SqliteTableRebuild,
};

/// One numbered schema step: statements applied in order inside one transaction. `%ID%` in a
/// statement is replaced by the dialect's auto-increment primary key column type.
struct Migration
{
    int version;
    QStringList statements;
    MigrationScope scope = MigrationScope::AllDatabases;
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
