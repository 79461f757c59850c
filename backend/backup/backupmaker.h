#pragma once

#include <QString>
#include <QStringList>

#include <optional>

/// What a backup copies: the data directory (vault key, TLS identity, key files, imported plan catalogues)
/// and the database.
struct BackupSource
{
    QString dataDir;
    /// As Database::open() takes it: an SQLite path or a postgres:// URL.
    QString databaseLocation;
    /// Directories under dataDir left out (the nightly backups' folder when it lies inside).
    QStringList excludedDirectories;
};

/// One finished backup archive.
struct BackupResult
{
    QString path;
    qint64 bytes = 0;
    int schemaVersion = 0;
};

/// Makes one backup archive (issue 15) while the server runs: a consistent database copy
/// (DatabaseSnapshot), the data directory's files and a manifest.json (format, database kind, schema
/// version, creation time) in one BackupArchive, mode 0600. The live SQLite files (the database and its
/// -wal/-shm) and the server's lock file are never copied as they are; the snapshot stands for them.
namespace BackupMaker {

/// The manifest's "format" value; restore refuses anything else.
inline constexpr char kFormat[] = "rechargedesk-backup";
/// Archive names of the parts.
inline constexpr char kManifest[] = "manifest.json";
inline constexpr char kSqliteEntry[] = "database/rechargedesk.db";
inline constexpr char kPostgresEntry[] = "database/rechargedesk.pgdump";
inline constexpr char kDataPrefix[] = "data/";

/// Writes the archive to `target` (replaced if it exists). `nowMs` (epoch ms) goes into the manifest.
/// nullopt with *error set on failure; no partial archive is left under `target`.
std::optional<BackupResult> make(const BackupSource &source, const QString &target, qint64 nowMs, QString *error);

} // namespace BackupMaker
