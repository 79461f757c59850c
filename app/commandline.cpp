#include "commandline.h"

#include "aadhaar/aadhaarmodule.h"
#include "auth/apikeyservice.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "store/privatefiles.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cstdio>

namespace CommandLine {

QList<QCommandLineOption> storeOptions()
{
    return {
        {QStringLiteral("data-dir"), QStringLiteral("Directory holding the database and keys."), QStringLiteral("DIR")},
        {QStringLiteral("database"),
         QStringLiteral("Database location: an SQLite file path, or postgres://user@host:port/db (the "
                        "password from ~/.pgpass or PGPASSWORD keeps it out of the process list)."),
         QStringLiteral("URL")}};
}

void addStoreOptions(QCommandLineParser &parser)
{
    parser.addOptions(storeOptions());
}

void addAccountOptions(QCommandLineParser &parser)
{
    parser.addOption(
        {QStringLiteral("account"), QStringLiteral("Account (shop) name; default \"shop\"."), QStringLiteral("NAME")});
    addStoreOptions(parser);
}

std::optional<qint64> findAccount(Database &db, const QCommandLineParser &parser)
{
    QString name = parser.value(QStringLiteral("account"));
    if (name.isEmpty())
        name = ApiKeyService::defaultAccountName();
    const std::optional<qint64> id = AccountRepository(db).findAccount(name);
    if (!id)
        std::fprintf(stderr, "rechargedesk: no account \"%s\" yet; create a key first (rechargedesk keys create)\n",
                     qPrintable(name));
    return id;
}

std::optional<AccountStore> openAccount(const QCommandLineParser &parser)
{
    AccountStore store;
    store.db = openDatabase(parser);
    if (!store.db)
        return std::nullopt;
    const std::optional<qint64> id = findAccount(*store.db, parser);
    if (!id)
        return std::nullopt;
    store.accountId = *id;
    return store;
}

void addModeOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("mode"), QStringLiteral("test or live."), QStringLiteral("MODE")});
}

std::optional<Mode> requiredMode(const QCommandLineParser &parser, const QString &command)
{
    const std::optional<Mode> mode = ModeNames::modeFromString(parser.value(QStringLiteral("mode")));
    if (!mode)
        usageError(command + QStringLiteral(" needs --mode test or --mode live"));
    return mode;
}

void addModesOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("mode"), QStringLiteral("test or live (default: both)."), QStringLiteral("MODE")});
}

std::optional<QList<Mode>> modesOption(const QCommandLineParser &parser)
{
    if (!parser.isSet(QStringLiteral("mode")))
        return QList<Mode>{Mode::Test, Mode::Live};
    const std::optional<Mode> mode = ModeNames::modeFromString(parser.value(QStringLiteral("mode")));
    if (!mode) {
        usageError(QStringLiteral("--mode must be test or live"));
        return std::nullopt;
    }
    return QList<Mode>{*mode};
}

QString dataDir(const QCommandLineParser &parser)
{
    QString dir = parser.value(QStringLiteral("data-dir"));
    if (dir.isEmpty())
        dir = qEnvironmentVariable("RECHARGEDESK_DATA_DIR");
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    PrivateFiles::ensureDirectory(dir, nullptr); // a new one 0700; serve warns about a looser one
    return QDir(dir).absolutePath();
}

QString databaseLocation(const QCommandLineParser &parser)
{
    const QString location = parser.value(QStringLiteral("database"));
    return location.isEmpty() ? QDir(dataDir(parser)).filePath(QStringLiteral("rechargedesk.db")) : location;
}

std::unique_ptr<Database> openDatabase(const QCommandLineParser &parser)
{
    QString error;
    std::unique_ptr<Database> db = Database::open(databaseLocation(parser), &error);
    if (!db)
        std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(error));
    return db;
}

std::optional<AadhaarVault> openVault(const QCommandLineParser &parser)
{
    QString error;
    std::optional<AadhaarVault> vault = AadhaarVault::openOrCreate(AadhaarModule::keyFilePath(dataDir(parser)), &error);
    if (!vault)
        std::fprintf(stderr, "rechargedesk: cannot open the key vault: %s\n", qPrintable(error));
    return vault;
}

void process(QCommandLineParser &parser, const QStringList &arguments)
{
    parser.addHelpOption();
    if (!parser.parse(arguments)) {
        std::fprintf(stderr, "rechargedesk: %s\n\n%s", qPrintable(parser.errorText()), qPrintable(parser.helpText()));
        std::exit(2);
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        std::exit(0);
    }
}

std::optional<QString> readSecretFile(const QString &path, const char *option)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "rechargedesk: cannot read %s %s: %s\n", option, qPrintable(path),
                     qPrintable(file.errorString()));
        return std::nullopt;
    }
    const QString text = QString::fromUtf8(file.read(4096));
    static const QRegularExpression keyLine(QStringLiteral("^\\s*key_secret:\\s*(\\S+)\\s*$"),
                                            QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = keyLine.match(text);
    const QString secret = match.hasMatch() ? match.captured(1) : text.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (secret.isEmpty()) {
        std::fprintf(stderr, "rechargedesk: %s %s holds no secret\n", option, qPrintable(path));
        return std::nullopt;
    }
    return secret;
}

int usageError(const QString &message)
{
    std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(message));
    return 2;
}

void out(const QString &text)
{
    std::fputs(qPrintable(text + QLatin1Char('\n')), stdout);
    std::fflush(stdout);
}

} // namespace CommandLine
