#include "terminalcommand.h"

#include "commandline.h"
#include "listenaddress.h"
#include "uilanguage.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QSettings>

#include <cstdio>

void loadTerminalStyle(QApplication &app)
{
    // Fusion looks the same on every desktop and draws combo and spin arrows under a style sheet.
    QApplication::setStyle(QStringLiteral("Fusion"));
    QFile style(QStringLiteral(":/ui/style.qss"));
    if (style.open(QIODevice::ReadOnly))
        app.setStyleSheet(QString::fromUtf8(style.readAll()));
}

bool terminalHasDisplay()
{
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

std::optional<TerminalSession> openTerminal(const QStringList &arguments, int *exitCode)
{
    const auto fail = [exitCode](int code) {
        *exitCode = code;
        return std::nullopt;
    };
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Opens the RechargeDesk counter terminal with its embedded API server."));
    parser.addOption(
        {QStringLiteral("kiosk"), QStringLiteral("Full screen, touch-sized, no exit without an admin PIN.")});
    parser.addOption({QStringLiteral("server"),
                      QStringLiteral("Use the shop server at URL instead of the embedded one."),
                      QStringLiteral("URL")});
    parser.addOption({QStringLiteral("key-id"), QStringLiteral("API key id for --server."), QStringLiteral("ID")});
    parser.addOption({QStringLiteral("key-secret-file"),
                      QStringLiteral("File holding the API key secret for --server (its first line, or a "
                                     "\"key_secret:\" line); never on the command line."),
                      QStringLiteral("FILE")});
    QCommandLineOption refusedSecret(QStringLiteral("key-secret"), QStringLiteral("Refused: use --key-secret-file."),
                                     QStringLiteral("SECRET"));
    refusedSecret.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(refusedSecret);
    parser.addOption(
        {QStringLiteral("listen"),
         QStringLiteral(
             "Embedded server address, e.g. 127.0.0.1:8080 or [::1]:8080 (default 127.0.0.1:0, any free port)."),
         QStringLiteral("ADDR:PORT")});
    parser.addOption({QStringLiteral("customer-display"),
                      QStringLiteral("Show the customer display full screen on screen N (0 = the first; a bare "
                                     "--customer-display means 1, the second), overriding Settings."),
                      QStringLiteral("N")});
    CommandLine::addStoreOptions(parser);
    // --customer-display may come without its number (QCommandLineParser wants one): it then means the second screen.
    QStringList args = arguments;
    for (QString &arg : args) {
        if (arg == QLatin1String("--customer-display"))
            arg = QStringLiteral("--customer-display=1");
    }
    CommandLine::process(parser, args);

    const QString dataDir = CommandLine::dataDir(parser);
    const QString terminalIni = QDir(dataDir).filePath(QStringLiteral("terminal.ini"));
    QSettings terminal(terminalIni, QSettings::IniFormat);
    // The language (terminal/language, or $RECHARGEDESK_LANG) is set before the first widget exists.
    const QString language = UiLanguage::chosen(terminal);
    if (!UiLanguage::install(language, qApp))
        std::fprintf(stderr, "rechargedesk: no translation for language \"%s\"; using English\n", qPrintable(language));
    TerminalOptions options;
    options.kiosk = parser.isSet(QStringLiteral("kiosk"));
    if (parser.isSet(QStringLiteral("customer-display"))) {
        bool ok = false;
        const int screen = parser.value(QStringLiteral("customer-display")).toInt(&ok);
        if (!ok || screen < 0)
            return fail(CommandLine::usageError(
                QStringLiteral("--customer-display takes a screen number: 0 for the first screen, 1 for the second")));
        options.customerDisplayScreen = screen;
    }
    options.settingsPath = QDir(dataDir).filePath(QStringLiteral("terminal-preferences.ini"));
    options.keyId = parser.isSet(QStringLiteral("key-id")) ? parser.value(QStringLiteral("key-id"))
                                                           : terminal.value(QStringLiteral("server/key_id")).toString();
    if (parser.isSet(refusedSecret))
        return fail(CommandLine::usageError(
            QStringLiteral("--key-secret is no longer accepted: every user of this computer can read the command line. "
                           "Put the secret in a file only you can read (chmod 600) and pass --key-secret-file FILE")));
    options.keySecret = terminal.value(QStringLiteral("server/key_secret")).toString();
    if (parser.isSet(QStringLiteral("key-secret-file"))) {
        const std::optional<QString> secret =
            CommandLine::readSecretFile(parser.value(QStringLiteral("key-secret-file")), "--key-secret-file");
        if (!secret)
            return fail(2);
        options.keySecret = *secret;
    }

    TerminalSession session;
    if (parser.isSet(QStringLiteral("server"))) {
        options.serverUrl = QUrl(parser.value(QStringLiteral("server")));
        const QString scheme = options.serverUrl.scheme();
        if (!options.serverUrl.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
            return fail(CommandLine::usageError(
                QStringLiteral("--server must be a URL such as https://192.168.1.10:8443 or http://127.0.0.1:8080")));
        if (options.keyId.isEmpty())
            return fail(CommandLine::usageError(
                QStringLiteral("--server needs --key-id and --key-secret-file (an API key of that server)")));
    } else {
        ServerOptions serverOptions;
        serverOptions.dataDir = dataDir;
        serverOptions.port = 0;
        const QString listen = parser.isSet(QStringLiteral("listen"))
                                   ? parser.value(QStringLiteral("listen"))
                                   : terminal.value(QStringLiteral("server/listen")).toString();
        if (!listen.isEmpty()) {
            QString why;
            const std::optional<ListenAddress> address = ListenAddress::parse(listen, &why);
            if (!address)
                return fail(CommandLine::usageError(QStringLiteral("--listen: ") + why));
            serverOptions.address = address->address;
            serverOptions.port = address->port;
        }
        if (options.keyId.isEmpty()) {
            // First run: only this process knows the token, so only its first-run screen can set the shop up.
            options.setupToken = QByteArray::number(QRandomGenerator::system()->generate64(), 16) +
                                 QByteArray::number(QRandomGenerator::system()->generate64(), 16);
            serverOptions.setupToken = options.setupToken;
        }
        QString database = parser.isSet(QStringLiteral("database"))
                               ? parser.value(QStringLiteral("database"))
                               : terminal.value(QStringLiteral("server/database")).toString();
        if (database.isEmpty())
            database = QDir(dataDir).filePath(QStringLiteral("rechargedesk.db"));
        session.host = std::make_unique<ServerHost>(database, serverOptions);
        QString error;
        if (!session.host->startAndWait(&error)) {
            std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(error));
            return fail(1);
        }
        options.serverUrl = session.host->url();
    }
    session.window = std::make_unique<MainWindow>(options);
    session.window->resize(1366, 768);
    return session;
}

int runTerminal(const QStringList &arguments)
{
    int exitCode = 0;
    std::optional<TerminalSession> session = openTerminal(arguments, &exitCode);
    if (!session)
        return exitCode;
    loadTerminalStyle(*qApp);
    if (session->window->property("kiosk").toBool())
        session->window->showFullScreen();
    else
        session->window->show();
    return QApplication::exec();
}
