#pragma once

#include "aadhaar/aadhaarvault.h"
#include "auth/authcontext.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class Database;

/// Helpers shared by the subcommands: the common options, the data directory, the database.
namespace CommandLine {

/// Adds --account NAME (default "shop") and the store options to `parser`.
void addAccountOptions(QCommandLineParser &parser);
/// The id of the --account named on the command line; prints why and returns nullopt when the
/// account does not exist yet.
std::optional<qint64> findAccount(Database &db, const QCommandLineParser &parser);
/// The database and the --account's id, for subcommands that act on one shop.
struct AccountStore
{
    std::unique_ptr<Database> db;
    qint64 accountId = 0;
};
/// Opens the database and finds --account in it; prints why and returns nullopt on failure.
std::optional<AccountStore> openAccount(const QCommandLineParser &parser);
/// Adds --mode MODE ("test or live.") to `parser`, for commands that act on one mode.
void addModeOption(QCommandLineParser &parser);
/// The mode --mode names; prints "<command> needs --mode test or --mode live" (usage error)
/// and returns nullopt when it names neither.
std::optional<Mode> requiredMode(const QCommandLineParser &parser, const QString &command);
/// Adds --mode MODE ("test or live (default: both).") to `parser`.
void addModesOption(QCommandLineParser &parser);
/// The modes --mode names: both when absent. Prints a usage error and returns nullopt when it
/// names neither test nor live.
std::optional<QList<Mode>> modesOption(const QCommandLineParser &parser);
/// --data-dir and --database.
QList<QCommandLineOption> storeOptions();
/// Adds storeOptions() to `parser`.
void addStoreOptions(QCommandLineParser &parser);
/// The data directory: --data-dir, else $RECHARGEDESK_DATA_DIR, else the platform's app data
/// location (~/.local/share/RechargeDesk/rechargedesk on Linux). Created (mode 0700) if missing.
QString dataDir(const QCommandLineParser &parser);
/// --database, else <data dir>/rechargedesk.db: what Database::open() takes.
QString databaseLocation(const QCommandLineParser &parser);
/// Opens --database, else <data dir>/rechargedesk.db; prints the error and returns nullptr on failure.
std::unique_ptr<Database> openDatabase(const QCommandLineParser &parser);
/// The key vault of the data directory (<data dir>/keys/aadhaar.key, created if missing), which
/// seals the upstream's and the webhooks' secrets; prints why and returns nullopt on failure.
std::optional<AadhaarVault> openVault(const QCommandLineParser &parser);
/// Parses the arguments of a subcommand; on a bad flag prints the message and usage to stderr
/// and exits with status 2. --help prints usage and exits 0.
void process(QCommandLineParser &parser, const QStringList &arguments);
/// The secret in the file at `path` (named by `option`, e.g. "--key-secret-file", in errors):
/// the value of a "key_secret: …" line (a key file of `serve` or `keys create` output), else
/// the first line, trimmed. Secrets come from files, never argv, which every local user can read
/// (issue 12). Prints why and returns nullopt when the file cannot be read or holds no secret.
std::optional<QString> readSecretFile(const QString &path, const char *option);
/// Prints "rechargedesk: message" to stderr and returns exit status 2 (usage error).
int usageError(const QString &message);
/// Prints text to stdout with a newline and flushes.
void out(const QString &text);

} // namespace CommandLine

/// Every option of `serve`; each is also a key of its --config file (ConfigFile).
QList<QCommandLineOption> serveOptions();
int runServe(const QStringList &arguments);
/// `backup --to FILE` and `restore --from FILE` (issue 15; backupcommand.cpp).
int runBackup(const QStringList &arguments);
int runRestore(const QStringList &arguments);
int runKeys(const QStringList &arguments);
int runWallet(const QStringList &arguments);
int runSetup(const QStringList &arguments);
int runWebhook(const QStringList &arguments);
int runUpstream(const QStringList &arguments);
/// `shops add|list|show|topup|limit|suspend|resume|statement`: the distributor's shops (issue 30; shopscommand.cpp).
int runShops(const QStringList &arguments);
/// `transactions resolve ID --status S --note T` (issue 26; transactionscommand.cpp).
int runTransactions(const QStringList &arguments);
int runPlans(const QStringList &arguments);
int runDev(const QStringList &arguments);
/// Opens the counter terminal (needs a QApplication).
int runTerminal(const QStringList &arguments);
/// True when a window can be shown (a display or an explicit QT_QPA_PLATFORM).
bool terminalHasDisplay();
