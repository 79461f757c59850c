// RechargeDesk: composition root. Picks the subcommand and hands over; no logic here.
#include "commandline.h"
#include "version.h"

#include <QApplication>
#include <QCoreApplication>
#include <QGuiApplication>

#include <cstdio>

namespace {

void printUsage()
{
    CommandLine::out(QStringLiteral(
        "RechargeDesk - recharge counter terminal and API server\n\n"
        "Usage:\n"
        "  rechargedesk [--kiosk] [--server URL --key-id ID --key-secret-file FILE] [--listen ADDR:PORT]\n"
        "                                         opens the counter terminal (embedded server by default)\n"
        "  rechargedesk setup --shop-name NAME --admin-name NAME --admin-pin PIN [--shop-address TEXT]\n"
        "  rechargedesk serve [--listen ADDR:PORT] [--data-dir DIR] [--settle-delay-ms N] [--new-test-key [--key-file "
        "F]] [--public-url URL]\n"
        "  rechargedesk keys create --name NAME --mode test|live --scope pos|admin [--account NAME]\n"
        "  rechargedesk keys list | keys revoke KEY_ID\n"
        "  rechargedesk wallet topup --mode test|live --amount RUPEES --note TEXT\n"
        "  rechargedesk wallet show [--mode test|live]\n"
        "  rechargedesk webhook set --mode test|live --url URL --password TEXT\n"
        "  rechargedesk webhook show [--mode test|live] | webhook rotate-secret --mode test|live\n"
        "  rechargedesk upstream set --url BASE_URL (--credential-file FILE | --key-id ID --key-secret-file FILE)\n"
        "                            [--webhook-password P | --webhook-password-file FILE]\n"
        "  rechargedesk upstream show|check|clear\n"
        "  rechargedesk shops add --name NAME --owner NAME --mobile NUMBER --circle CODE [--gstin G] [--credit-limit "
        "RUPEES]\n"
        "  rechargedesk shops list [--search TEXT] [--state S] [--sort FIELD] | shops show SHOP\n"
        "  rechargedesk shops topup SHOP --amount RUPEES --method cash|upi|bank [--reference REF] [--note TEXT]\n"
        "  rechargedesk shops limit SHOP --rupees N | shops suspend SHOP --reason TEXT | shops resume SHOP\n"
        "  rechargedesk shops statement SHOP --from YYYY-MM-DD --to YYYY-MM-DD [--csv FILE]\n"
        "  rechargedesk transactions resolve ID --status SUCCESS|FAILED --note TEXT [--by NAME]\n"
        "  rechargedesk plans import|check FILE\n"
        "  rechargedesk dev seed --transactions N\n"
        "  rechargedesk backup --to FILE [--config FILE] | restore --from FILE [--replace]\n"
        "  rechargedesk serve --config /etc/rechargedesk/server.conf  (keys: the serve flags without --)\n"
        "  rechargedesk --version\n\n"
        "Every command takes --data-dir DIR (or $RECHARGEDESK_DATA_DIR) and --help."));
}

} // namespace

int main(int argc, char *argv[])
{
    const QString command = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (command == QLatin1String("--version")) {
        CommandLine::out(QStringLiteral("rechargedesk ") + QLatin1String(Version::text()));
        return 0;
    }
    QCoreApplication::setApplicationVersion(QLatin1String(Version::text()));
    const bool terminal =
        command.isEmpty() || (command.startsWith(QLatin1String("--")) && command != QLatin1String("--help"));
    if (terminal) {
        if (!terminalHasDisplay()) {
            std::fputs("rechargedesk: no display found, so the terminal window cannot open.\n"
                       "To run the API server without a window:  rechargedesk serve --new-test-key\n"
                       "To open the terminal on a headless machine for testing:  xvfb-run -a rechargedesk\n",
                       stderr);
            return 1;
        }
        QApplication app(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("RechargeDesk"));
        QCoreApplication::setApplicationName(QStringLiteral("rechargedesk"));
        return runTerminal(QCoreApplication::arguments());
    }
    if (command == QLatin1String("serve")) {
        // The server draws Aadhaar captcha images with QPainter, which needs a GUI application;
        // headless machines use the offscreen platform.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        // Qt's own Unix event dispatcher instead of GLib's main loop, on every thread (QT_NO_GLIB, read when a
        // thread's dispatcher is made): the server integrates with no GLib/GTK code, and per socket event Qt's
        // dispatcher costs less (issue 17: plan lookups through the HTTP workers +12 %, docs/benchmarks.md).
        if (qEnvironmentVariableIsEmpty("QT_NO_GLIB"))
            qputenv("QT_NO_GLIB", "1");
        QGuiApplication app(argc, argv);
        QCoreApplication::setOrganizationName(QStringLiteral("RechargeDesk"));
        QCoreApplication::setApplicationName(QStringLiteral("rechargedesk"));
        return runServe(QCoreApplication::arguments().mid(1));
    }
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("RechargeDesk"));
    QCoreApplication::setApplicationName(QStringLiteral("rechargedesk"));
    const QStringList arguments = QCoreApplication::arguments().mid(1);
    if (command == QLatin1String("keys"))
        return runKeys(arguments);
    if (command == QLatin1String("wallet"))
        return runWallet(arguments);
    if (command == QLatin1String("setup"))
        return runSetup(arguments);
    if (command == QLatin1String("webhook"))
        return runWebhook(arguments);
    if (command == QLatin1String("upstream"))
        return runUpstream(arguments);
    if (command == QLatin1String("shops"))
        return runShops(arguments);
    if (command == QLatin1String("transactions"))
        return runTransactions(arguments);
    if (command == QLatin1String("plans"))
        return runPlans(arguments);
    if (command == QLatin1String("dev"))
        return runDev(arguments);
    if (command == QLatin1String("backup"))
        return runBackup(arguments);
    if (command == QLatin1String("restore"))
        return runRestore(arguments);
    if (command == QLatin1String("--help") || command == QLatin1String("-h") || command == QLatin1String("help")) {
        printUsage();
        return 0;
    }
    CommandLine::usageError(QStringLiteral("unknown command \"%1\"").arg(command));
    printUsage();
    return 2;
}
