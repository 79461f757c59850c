// `rechargedesk backup --to FILE` and `rechargedesk restore --from FILE` (issue 15).
#include "backup/backupmaker.h"
#include "backup/backuprestorer.h"
#include "commandline.h"
#include "configfile.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <cstdio>

namespace {

/// Adds --config FILE, --data-dir and --database to `parser`.
void addPlaceOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("config"),
                      QStringLiteral("The server's configuration file (e.g. /etc/rechargedesk/server.conf): its "
                                     "data-dir and database unless given here."),
                      QStringLiteral("FILE")});
    CommandLine::addStoreOptions(parser);
}

/// Parses `arguments`; with --config, parses again with the file's data-dir and database added where the
/// command line has none. False (message printed) when the file is unreadable or invalid.
bool parseWithConfig(QCommandLineParser &parser, const QStringList &arguments)
{
    CommandLine::process(parser, arguments);
    if (!parser.isSet(QStringLiteral("config")))
        return true;
    QString error;
    const std::optional<ConfigFile> config = ConfigFile::read(
        parser.value(QStringLiteral("config")), serveOptions(),
        {QStringLiteral("config"), QStringLiteral("check-config")}, {QStringLiteral("tls-name")}, &error);
    if (!config) {
        CommandLine::usageError(error);
        return false;
    }
    QStringList withConfig = arguments;
    for (const QString &key : {QStringLiteral("data-dir"), QStringLiteral("database")}) {
        if (!parser.isSet(key) && !config->value(key).isEmpty())
            withConfig.append(QStringLiteral("--%1=%2").arg(key, config->value(key)));
    }
    if (!parser.parse(withConfig)) {
        CommandLine::usageError(parser.errorText());
        return false;
    }
    return true;
}

} // namespace

int runBackup(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Writes a backup archive (tar.gz, mode 0600) of the database, the vault key and the data "
                       "directory; safe while the server runs."));
    parser.addOption({QStringLiteral("to"), QStringLiteral("The archive to write (replaced if it exists)."),
                      QStringLiteral("FILE")});
    addPlaceOptions(parser);
    if (!parseWithConfig(parser, arguments))
        return 2;
    const QString target = parser.value(QStringLiteral("to"));
    if (target.isEmpty())
        return CommandLine::usageError(QStringLiteral("backup needs --to FILE"));
    const BackupSource source{CommandLine::dataDir(parser), CommandLine::databaseLocation(parser), {}};
    QString error;
    const std::optional<BackupResult> result =
        BackupMaker::make(source, QFileInfo(target).absoluteFilePath(), QDateTime::currentMSecsSinceEpoch(), &error);
    if (!result) {
        std::fprintf(stderr, "rechargedesk: backup failed: %s\n", qPrintable(error));
        return 1;
    }
    CommandLine::out(QStringLiteral("Backup written: %1 (%2 bytes, schema version %3, mode 0600)")
                         .arg(result->path)
                         .arg(result->bytes)
                         .arg(result->schemaVersion));
    return 0;
}

int runRestore(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Restores a backup archive into a data directory (and database) after checking it: "
                       "integrity, schema version, vault key. Stop the server first."));
    parser.addOption({QStringLiteral("from"), QStringLiteral("The archive to restore."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("replace"),
                      QStringLiteral("Replace an existing database and files (kept beside as *.before-restore-*).")});
    addPlaceOptions(parser);
    if (!parseWithConfig(parser, arguments))
        return 2;
    const QString archive = parser.value(QStringLiteral("from"));
    if (archive.isEmpty())
        return CommandLine::usageError(QStringLiteral("restore needs --from FILE"));
    const RestoreTarget target{CommandLine::dataDir(parser), CommandLine::databaseLocation(parser),
                               parser.isSet(QStringLiteral("replace"))};
    QStringList report;
    QString error;
    if (!BackupRestorer::restore(archive, target, &report, &error)) {
        std::fprintf(stderr, "rechargedesk: restore refused: %s\n", qPrintable(error));
        return 1;
    }
    for (const QString &line : std::as_const(report))
        CommandLine::out(QStringLiteral("  ") + line);
    CommandLine::out(QStringLiteral("Restored from %1.").arg(archive));
    return 0;
}
