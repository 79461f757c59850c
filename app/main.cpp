// RechargeDesk: composition root. Picks the subcommand and hands over; no logic here.
#include "commandline.h"

#include <QCoreApplication>
#include <QGuiApplication>

#include <cstdio>

namespace {

void printUsage()
{
    CommandLine::out(QStringLiteral(
        "RechargeDesk - recharge counter terminal and API server\n\n"
        "Usage:\n"
        "  rechargedesk serve [--listen ADDR:PORT] [--data-dir DIR] [--settle-delay-ms N] [--new-test-key]\n"
        "  rechargedesk keys create --name NAME --mode test|live --scope pos|admin [--account NAME]\n"
        "  rechargedesk keys list | keys revoke KEY_ID\n"
        "  rechargedesk wallet topup --mode test|live --amount RUPEES --note TEXT\n"
        "  rechargedesk wallet show [--mode test|live]\n\n"
        "Every command takes --data-dir DIR (or $RECHARGEDESK_DATA_DIR) and --help."));
}

} // namespace

int main(int argc, char *argv[])
{
    const QString command = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (command == QLatin1String("serve")) {
        // The server draws Aadhaar captcha images with QPainter, which needs a GUI application;
        // headless machines use the offscreen platform.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
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
    if (command.isEmpty() || command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        printUsage();
        return command.isEmpty() ? 2 : 0;
    }
    CommandLine::usageError(QStringLiteral("unknown command \"%1\"").arg(command));
    printUsage();
    return 2;
}
