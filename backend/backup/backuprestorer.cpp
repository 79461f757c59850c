#include "backuprestorer.h"

#include "aadhaar/aadhaarmodule.h"
#include "aadhaar/aadhaarvault.h"
#include "backuparchive.h"
#include "backupmaker.h"
#include "databasesnapshot.h"
#include "store/database.h"
#include "store/migrations.h"
#include "store/privatefiles.h"
#include "upstream/upstreamsettingsrepository.h"
#include "webhooks/webhookendpointrepository.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>
#include <optional>

namespace {

int knownSchemaVersion()
{
    return allMigrations().isEmpty() ? 0 : allMigrations().constLast().version;
}

std::optional<QJsonObject> readManifest(const QString &path, QString *error)
{
    QFile file(path);
    const QJsonObject manifest =
        file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.read(1 << 20)).object() : QJsonObject();
    if (manifest.value(QStringLiteral("format")).toString() != QLatin1String(BackupMaker::kFormat)) {
        *error = QStringLiteral("this file is not a RechargeDesk backup (no manifest.json of format %1)")
                     .arg(QLatin1String(BackupMaker::kFormat));
        return std::nullopt;
    }
    return manifest;
}

/// Counts the sealed secrets of `db` and checks that each opens with `vault`. nullopt with *error set when one
/// does not (the key file does not belong to this database).
std::optional<int> checkSealedValues(Database &db, const AadhaarVault &vault, QString *error)
{
    WebhookEndpointRepository endpoints(db, &vault);
    const int sealed = endpoints.sealedSecretCount();
    int opened = 0;
    for (const WebhookEndpoint &endpoint : endpoints.all())
        opened += endpoint.secret.isEmpty() ? 0 : 1;
    if (opened < sealed) {
        *error = QStringLiteral("the backup's vault key does not open %1 of its %2 sealed webhook secrets")
                     .arg(sealed - opened)
                     .arg(sealed);
        return std::nullopt;
    }
    UpstreamSettingsRepository upstreams(db, &vault);
    const int upstreamCount = upstreams.count();
    const qsizetype upstreamsOpened = upstreams.list().size();
    if (upstreamsOpened < upstreamCount) {
        *error = QStringLiteral("the backup's vault key does not open the sealed secrets of %1 of its %2 upstreams")
                     .arg(upstreamCount - upstreamsOpened)
                     .arg(upstreamCount);
        return std::nullopt;
    }
    return sealed + upstreamCount;
}

/// Opens the vault of the extracted data directory and checks it against `db`; appends to *report.
bool checkVault(Database &db, const QString &dataDir, QStringList *report, QString *error)
{
    const QString keyFile = AadhaarModule::keyFilePath(dataDir);
    if (!QFileInfo::exists(keyFile)) {
        *error = QStringLiteral("the backup holds no vault key (data/keys/aadhaar.key)");
        return false;
    }
    std::optional<AadhaarVault> vault = AadhaarVault::openOrCreate(keyFile, error);
    if (!vault)
        return false;
    const std::optional<int> checked = checkSealedValues(db, *vault, error);
    if (!checked)
        return false;
    report->append(*checked > 0 ? QStringLiteral("vault key: opens all %1 sealed secrets").arg(*checked)
                                : QStringLiteral("vault key: present (the database holds no sealed secret yet)"));
    return true;
}

/// Moves `from` to `to`; an existing `to` is first renamed to "<to>.before-restore-<stamp>" when `replace`,
/// otherwise it is an error.
bool moveIntoPlace(const QString &from, const QString &to, bool replace, const QString &stamp, QString *error)
{
    if (QFileInfo::exists(to)) {
        if (!replace) {
            *error = QStringLiteral("%1 exists; restore into a fresh data directory, or add --replace").arg(to);
            return false;
        }
        if (!QFile::rename(to, to + QStringLiteral(".before-restore-") + stamp)) {
            *error = QStringLiteral("cannot move the existing %1 aside").arg(to);
            return false;
        }
    }
    PrivateFiles::ensureDirectory(QFileInfo(to).absolutePath(), nullptr);
    if (!QFile::rename(from, to)) {
        *error = QStringLiteral("cannot move %1 to %2").arg(from, to);
        return false;
    }
    return true;
}

} // namespace

namespace BackupRestorer {

QString serverLockPath(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("rechargedesk.lock"));
}

bool restore(const QString &archive, const RestoreTarget &target, QStringList *report, QString *error)
{
    if (!QFileInfo(archive).isFile()) {
        *error = QStringLiteral("no backup file %1").arg(archive);
        return false;
    }
    QString warning;
    if (!PrivateFiles::ensureDirectory(target.dataDir, &warning)) {
        *error = warning;
        return false;
    }
    // Held for the whole restore: a server that starts meanwhile finds it taken.
    QLockFile lock(serverLockPath(target.dataDir));
    if (!lock.tryLock(0)) {
        qint64 pid = 0;
        QString host;
        QString application;
        lock.getLockInfo(&pid, &host, &application);
        *error = QStringLiteral("a RechargeDesk server is running on %1 (process %2); stop it before restoring")
                     .arg(target.dataDir)
                     .arg(pid);
        return false;
    }
    QTemporaryDir work(QDir(target.dataDir).filePath(QStringLiteral(".rechargedesk-restore-XXXXXX")));
    if (!work.isValid()) {
        *error = QStringLiteral("cannot create a work folder in %1: %2").arg(target.dataDir, work.errorString());
        return false;
    }
    const QList<ArchiveEntry> files = BackupArchive::extract(archive, work.path(), error);
    if (files.isEmpty())
        return false;
    const std::optional<QJsonObject> manifest =
        readManifest(work.filePath(QLatin1String(BackupMaker::kManifest)), error);
    if (!manifest)
        return false;
    const int version = manifest->value(QStringLiteral("schema_version")).toInt(-1);
    if (version > knownSchemaVersion()) {
        *error = QStringLiteral("the backup was made by a newer RechargeDesk (schema version %1; this one knows up to "
                                "%2): install that release or a later one to restore it")
                     .arg(version)
                     .arg(knownSchemaVersion());
        return false;
    }
    report->append(QStringLiteral("backup of %1: schema version %2 (this release: %3)")
                       .arg(manifest->value(QStringLiteral("created_at")).toString())
                       .arg(version)
                       .arg(knownSchemaVersion()));
    const QString extractedData = work.filePath(QLatin1String(BackupMaker::kDataPrefix));
    const bool postgresArchive = manifest->value(QStringLiteral("database")).toString() == QLatin1String("postgresql");
    const bool postgresTarget = DatabaseSnapshot::isPostgres(target.databaseLocation);
    if (postgresArchive != postgresTarget) {
        *error = postgresArchive ? QStringLiteral("the backup holds a PostgreSQL database: restore it with --database "
                                                  "postgres://… naming an empty database")
                                 : QStringLiteral("the backup holds an SQLite database: restore it without a "
                                                  "postgres:// --database");
        return false;
    }
    QString sqliteLocation = DatabaseSnapshot::sqlitePath(target.databaseLocation);
    if (!postgresTarget && sqliteLocation.isEmpty())
        sqliteLocation = QDir(target.dataDir).filePath(QStringLiteral("rechargedesk.db"));
    if (!target.replace) {
        if (!sqliteLocation.isEmpty() && QFileInfo(sqliteLocation).size() > 0) {
            *error =
                QStringLiteral("%1 holds a database already; restore into a fresh data directory, or add --replace")
                    .arg(sqliteLocation);
            return false;
        }
        for (const ArchiveEntry &file : files) {
            const QString relative = file.name.mid(qsizetype(qstrlen(BackupMaker::kDataPrefix)));
            if (file.name.startsWith(QLatin1String(BackupMaker::kDataPrefix)) &&
                QFileInfo::exists(QDir(target.dataDir).filePath(relative))) {
                *error = QStringLiteral("%1 exists; restore into a fresh data directory, or add --replace")
                             .arg(QDir(target.dataDir).filePath(relative));
                return false;
            }
        }
    }
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddThhmmss"));
    if (!postgresArchive) {
        const QString copy = work.filePath(QLatin1String(BackupMaker::kSqliteEntry));
        const QString integrity = DatabaseSnapshot::sqliteIntegrity(copy);
        if (integrity != QLatin1String("ok")) {
            *error = QStringLiteral("the backup's database is damaged (integrity_check: %1)").arg(integrity);
            return false;
        }
        const int fileVersion = DatabaseSnapshot::sqliteSchemaVersion(copy, error);
        if (fileVersion < 0)
            return false;
        if (fileVersion > knownSchemaVersion()) {
            *error = QStringLiteral("the backup's database has schema version %1; this RechargeDesk knows up to %2")
                         .arg(fileVersion)
                         .arg(knownSchemaVersion());
            return false;
        }
        report->append(QStringLiteral("integrity_check: ok"));
        {
            std::unique_ptr<Database> db = Database::open(copy, error); // migrates the copy to this release
            if (!db || !checkVault(*db, extractedData, report, error))
                return false;
            report->append(QStringLiteral("schema migrated to version %1").arg(db->schemaVersion()));
        }
        for (const char *suffix : {"-wal", "-shm"})
            QFile::remove(copy + QLatin1String(suffix));
        const QString &location = sqliteLocation;
        if (QFileInfo(location).size() == 0)
            QFile::remove(location);
        for (const char *suffix : {"-wal", "-shm"})
            QFile::remove(location + QLatin1String(suffix)); // the replaced database's, else SQLite would replay them
        if (!moveIntoPlace(copy, location, target.replace, stamp, error))
            return false;
        report->append(QStringLiteral("database: %1").arg(location));
    } else {
        if (!DatabaseSnapshot::restorePostgres(work.filePath(QLatin1String(BackupMaker::kPostgresEntry)),
                                               target.databaseLocation, error)) {
            *error = QStringLiteral("the database was left as it was: ") + *error;
            return false;
        }
        std::unique_ptr<Database> db = Database::open(target.databaseLocation, error);
        if (!db || !checkVault(*db, extractedData, report, error)) {
            *error = QStringLiteral("restored into %1, but: %2")
                         .arg(QUrl(target.databaseLocation).toString(QUrl::RemovePassword), *error);
            return false;
        }
        report->append(QStringLiteral("database: loaded into %1, schema version %2")
                           .arg(QUrl(target.databaseLocation).toString(QUrl::RemovePassword))
                           .arg(db->schemaVersion()));
    }
    int restored = 0;
    for (const ArchiveEntry &file : files) {
        if (!file.name.startsWith(QLatin1String(BackupMaker::kDataPrefix)))
            continue;
        const QString relative = file.name.mid(qsizetype(qstrlen(BackupMaker::kDataPrefix)));
        if (!moveIntoPlace(file.path, QDir(target.dataDir).filePath(relative), target.replace, stamp, error))
            return false;
        ++restored;
    }
    report->append(QStringLiteral("data directory: %1 (%2 files)").arg(target.dataDir).arg(restored));
    return true;
}

} // namespace BackupRestorer
