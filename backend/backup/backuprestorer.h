#pragma once

#include <QString>
#include <QStringList>

/// Where a restore puts the data.
struct RestoreTarget
{
    /// The data directory to fill (created 0700 if missing).
    QString dataDir;
    /// Database::open()'s location: an SQLite path (default <dataDir>/rechargedesk.db) or a postgres:// URL of
    /// an empty database.
    QString databaseLocation;
    /// Replace an existing SQLite database and data files (they are kept beside as "*.before-restore").
    bool replace = false;
};

/// Puts a BackupMaker archive back (issue 15). Everything is checked on an extracted copy before anything in
/// the target changes: the manifest's format; the schema version (a backup of a newer release, whose
/// migrations this program does not know, is refused); SQLite's `PRAGMA integrity_check`; the copy then
/// migrated to this release's schema; and the archive's vault key opening the sealed secrets of the copy (webhook
/// and upstream secrets). Only then is the database moved (SQLite) or loaded (PostgreSQL, into an empty database
/// in one transaction) into place, with the data directory's files. A data directory with a running server (its
/// lock, serverLockPath()) is refused.
namespace BackupRestorer {

/// The lock file `serve` holds on its data directory while it runs.
QString serverLockPath(const QString &dataDir);
/// Restores `archive` into `target`. Returns true, with what was done and checked in *report (one line each),
/// or false with *error saying why (nothing in the target was changed unless *error says so).
bool restore(const QString &archive, const RestoreTarget &target, QStringList *report, QString *error);

} // namespace BackupRestorer
