#include "apierror.h"
#include "clock.h"
#include "commandline.h"
#include "store/database.h"
#include "users/shopsetup.h"

#include <QDir>
#include <QSettings>

#include <cstdio>
#include <stdexcept>

int runSetup(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("First-run setup: creates the shop, its first admin and the terminal's test pos key "
                       "(saved to <data dir>/terminal.ini, readable by you only). Back-office power at the "
                       "terminal comes from an admin signing in with the PIN."));
    parser.addOption({QStringLiteral("shop-name"), QStringLiteral("Shop name, printed on receipts (1-80 characters)."),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("shop-address"), QStringLiteral("Shop address for receipts (optional)."),
                      QStringLiteral("TEXT")});
    parser.addOption(
        {QStringLiteral("admin-name"), QStringLiteral("Name the first admin signs in with."), QStringLiteral("NAME")});
    parser.addOption(
        {QStringLiteral("admin-pin"), QStringLiteral("The first admin's PIN: 6 to 8 digits."), QStringLiteral("PIN")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, QStringList{QStringLiteral("rechargedesk setup")} + arguments.mid(1));
    if (!parser.positionalArguments().isEmpty())
        return CommandLine::usageError(QStringLiteral("setup takes no arguments besides its options; got \"%1\"")
                                           .arg(parser.positionalArguments().join(QLatin1Char(' '))));
    for (const QString &required :
         {QStringLiteral("shop-name"), QStringLiteral("admin-name"), QStringLiteral("admin-pin")}) {
        if (!parser.isSet(required))
            return CommandLine::usageError(
                QStringLiteral("setup needs --shop-name NAME --admin-name NAME --admin-pin PIN (missing --%1)")
                    .arg(required));
    }

    ShopSetupParams params;
    params.shopName = parser.value(QStringLiteral("shop-name"));
    params.shopAddress = parser.value(QStringLiteral("shop-address"));
    params.adminName = parser.value(QStringLiteral("admin-name"));
    params.adminPin = parser.value(QStringLiteral("admin-pin"));
    params.terminalConfigDir = CommandLine::dataDir(parser);

    std::unique_ptr<Database> db = CommandLine::openDatabase(parser);
    if (!db)
        return 1;
    SystemClock clock;
    try {
        const CreatedKey key = ShopSetup::run(*db, clock, params);
        if (parser.isSet(QStringLiteral("database"))) {
            // The terminal started later on this data directory (without --database) opens the same database.
            QSettings terminal(QDir(params.terminalConfigDir).filePath(ShopSetup::terminalConfigFileName()),
                               QSettings::IniFormat);
            terminal.setValue(QStringLiteral("server/database"), parser.value(QStringLiteral("database")));
            terminal.sync();
        }
        CommandLine::out(QStringLiteral("Shop \"%1\" is set up.").arg(params.shopName.trimmed()));
        CommandLine::out(
            QStringLiteral("  admin: %1 (sign in with the PIN you chose)").arg(params.adminName.trimmed()));
        CommandLine::out(
            QStringLiteral("  terminal key: %1 (TEST mode, pos scope; the admin signs in for the back office)")
                .arg(key.keyId));
        CommandLine::out(QStringLiteral("  key file: %1 (owner-only)")
                             .arg(QDir(params.terminalConfigDir).filePath(ShopSetup::terminalConfigFileName())));
    } catch (const ApiError &e) {
        if (e.httpStatus() == 400) // a flag with a bad value
            return CommandLine::usageError(
                QStringLiteral("--%1: %2")
                    .arg(QString(e.field()).replace(QLatin1Char('_'), QLatin1Char('-')), e.description()));
        std::fprintf(stderr, "rechargedesk: setup refused: %s\n", qPrintable(e.description()));
        return 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "rechargedesk: setup failed, nothing was set up: %s\n", e.what());
        return 1;
    }
    return 0;
}
