#include "backupmaker.h"

#include "backuparchive.h"
#include "databasesnapshot.h"
#include "store/database.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTimeZone>

#include <memory>

namespace {

/// The regular files of the data directory that go into the archive, as "data/<relative path>".
QList<ArchiveEntry> dataFiles(const BackupSource &source)
{
    const QDir root(source.dataDir);
    QStringList skipped; // absolute paths of files the snapshot stands for
    const QString sqlite = DatabaseSnapshot::sqlitePath(source.databaseLocation);
    if (!sqlite.isEmpty()) {
        for (const char *suffix : {"", "-wal", "-shm", "-journal"})
            skipped.append(QFileInfo(sqlite + QLatin1String(suffix)).absoluteFilePath());
    }
    QStringList excluded;
    for (const QString &directory : source.excludedDirectories)
        excluded.append(QFileInfo(directory).absoluteFilePath() + QLatin1Char('/'));
    QList<ArchiveEntry> entries;
    QDirIterator it(source.dataDir, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo file(it.next());
        const QString absolute = file.absoluteFilePath();
        const QString relative = root.relativeFilePath(absolute);
        const bool inExcluded = std::any_of(excluded.cbegin(), excluded.cend(),
                                            [&](const QString &dir) { return absolute.startsWith(dir); });
        if (inExcluded || skipped.contains(absolute) || relative.endsWith(QLatin1String(".lock")) ||
            relative.endsWith(QLatin1String(".partial")) || relative.startsWith(QLatin1String(".rechargedesk-")))
            continue;
        entries.append({QLatin1String(BackupMaker::kDataPrefix) + relative, absolute});
    }
    return entries;
}

int postgresSchemaVersion(const QString &location, QString *error)
{
    const std::unique_ptr<Database> db = Database::open(location, error);
    return db ? db->schemaVersion() : -1;
}

} // namespace

namespace BackupMaker {

std::optional<BackupResult> make(const BackupSource &source, const QString &target, qint64 nowMs, QString *error)
{
    const QString targetDir = QFileInfo(target).absolutePath();
    if (!QFileInfo(targetDir).isDir()) {
        *error = QStringLiteral("the folder %1 does not exist").arg(targetDir);
        return std::nullopt;
    }
    // The work files live next to the archive (same file system, owner-only: QTemporaryDir is 0700).
    QTemporaryDir work(QDir(targetDir).filePath(QStringLiteral(".rechargedesk-backup-XXXXXX")));
    if (!work.isValid()) {
        *error = QStringLiteral("cannot create a work folder in %1: %2").arg(targetDir, work.errorString());
        return std::nullopt;
    }
    const bool postgres = DatabaseSnapshot::isPostgres(source.databaseLocation);
    const QString snapshot =
        work.filePath(postgres ? QStringLiteral("rechargedesk.pgdump") : QStringLiteral("rechargedesk.db"));
    if (!DatabaseSnapshot::take(source.databaseLocation, snapshot, error))
        return std::nullopt;
    const int version = postgres ? postgresSchemaVersion(source.databaseLocation, error)
                                 : DatabaseSnapshot::sqliteSchemaVersion(snapshot, error);
    if (version < 0)
        return std::nullopt;

    QList<ArchiveEntry> entries{{QLatin1String(postgres ? kPostgresEntry : kSqliteEntry), snapshot}};
    entries += dataFiles(source);
    QJsonArray names;
    for (const ArchiveEntry &entry : std::as_const(entries))
        names.append(entry.name);
    const QJsonObject manifest{
        {QStringLiteral("format"), QLatin1String(kFormat)},
        {QStringLiteral("format_version"), 1},
        {QStringLiteral("created_at"),
         QDateTime::fromMSecsSinceEpoch(nowMs, QTimeZone::utc()).toString(Qt::ISODateWithMs)},
        {QStringLiteral("database"), postgres ? QStringLiteral("postgresql") : QStringLiteral("sqlite")},
        {QStringLiteral("schema_version"), version},
        {QStringLiteral("files"), names}};
    QSaveFile manifestFile(work.filePath(QLatin1String(kManifest)));
    if (!manifestFile.open(QIODevice::WriteOnly) || manifestFile.write(QJsonDocument(manifest).toJson()) < 0 ||
        !manifestFile.commit()) {
        *error = QStringLiteral("cannot write the manifest: %1").arg(manifestFile.errorString());
        return std::nullopt;
    }
    entries.prepend({QLatin1String(kManifest), work.filePath(QLatin1String(kManifest))});
    if (!BackupArchive::write(target, entries, error))
        return std::nullopt;
    return BackupResult{QFileInfo(target).absoluteFilePath(), QFileInfo(target).size(), version};
}

} // namespace BackupMaker
