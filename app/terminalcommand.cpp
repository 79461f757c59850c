#include "apierror.h"
#include "clock.h"
#include "commandline.h"
#include "mainwindow.h"
#include "serverhost.h"
#include "store/database.h"
#include "terminal/planspage.h"
#include "uilanguage.h"
#include "users/shopsetup.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHostAddress>
#include <QSettings>
#include <QTimer>

#include <cstdio>

namespace {

/// Maps ShopSetup's field names onto the first-run form's.
QString formField(const QString &field)
{
    return field;
}

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

void loadStyle(QApplication &app)
{
    // Fusion looks the same on every desktop and draws combo and spin arrows under a style sheet.
    QApplication::setStyle(QStringLiteral("Fusion"));
    QFile style(QStringLiteral(":/ui/style.qss"));
    if (style.open(QIODevice::ReadOnly))
        app.setStyleSheet(QString::fromUtf8(style.readAll()));
}

} // namespace

/// Peak resident memory of this process in KiB (VmHWM), 0 if unknown.
qint64 peakRssKib()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return 0;
}

/// RECHARGEDESK_PROBE=startup (tests/bench/terminal_startup.sh): once the window is interactive,
/// print the wall-clock time, then open the plans of Jio/Mumbai and print how long they took to
/// show, the peak RSS, and quit. Measurement only; nothing else changes.
void runStartupProbe(MainWindow &window)
{
    QTimer::singleShot(0, &window, [&window] {
        std::printf("interactive_epoch_ms=%lld\n", QDateTime::currentMSecsSinceEpoch());
        std::fflush(stdout);
        if (!window.context()) {
            std::printf("peak_rss_kib=%lld\n", peakRssKib());
            QCoreApplication::quit();
            return;
        }
        auto *plans = new PlansPage(*window.context());
        plans->resize(1156, 700);
        auto *timer = new QElapsedTimer;
        QObject::connect(plans, &PlansPage::plansShown, plans, [plans, timer] {
            std::printf("plans_shown_ms=%.1f\npeak_rss_kib=%lld\n", double(timer->nsecsElapsed()) / 1e6, peakRssKib());
            std::fflush(stdout);
            delete timer;
            plans->deleteLater();
            QCoreApplication::quit();
        });
        timer->start();
        plans->show();
        plans->selectPair(QStringLiteral("RJ"), QStringLiteral("MU"));
    });
}

bool terminalHasDisplay()
{
    return hasDisplay();
}

int runTerminal(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Opens the RechargeDesk counter terminal with its embedded API server."));
    parser.addOption({QStringLiteral("kiosk"), QStringLiteral("Full screen, touch-sized, no exit without an admin PIN.")});
    parser.addOption({QStringLiteral("server"), QStringLiteral("Use the shop server at URL instead of the embedded one."),
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
    parser.addOption({QStringLiteral("listen"), QStringLiteral("Embedded server address (default 127.0.0.1:0, any free port)."),
                      QStringLiteral("ADDR:PORT")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);

    const QString dataDir = CommandLine::dataDir(parser);
    const QString terminalIni = QDir(dataDir).filePath(QStringLiteral("terminal.ini"));
    QSettings terminal(terminalIni, QSettings::IniFormat);
    // The language (terminal/language, or $RECHARGEDESK_LANG) is set before the first widget exists.
    const QString language = UiLanguage::chosen(terminal);
    if (!UiLanguage::install(language, qApp))
        std::fprintf(stderr, "rechargedesk: no translation for language \"%s\"; using English\n", qPrintable(language));
    TerminalOptions options;
    options.kiosk = parser.isSet(QStringLiteral("kiosk"));
    options.settingsPath = QDir(dataDir).filePath(QStringLiteral("terminal-preferences.ini"));
    options.keyId = parser.isSet(QStringLiteral("key-id")) ? parser.value(QStringLiteral("key-id"))
                                                            : terminal.value(QStringLiteral("server/key_id")).toString();
    if (parser.isSet(refusedSecret))
        return CommandLine::usageError(
            QStringLiteral("--key-secret is no longer accepted: every user of this computer can read the command line. "
                           "Put the secret in a file only you can read (chmod 600) and pass --key-secret-file FILE"));
    options.keySecret = terminal.value(QStringLiteral("server/key_secret")).toString();
    if (parser.isSet(QStringLiteral("key-secret-file"))) {
        const std::optional<QString> secret =
            CommandLine::readSecretFile(parser.value(QStringLiteral("key-secret-file")), "--key-secret-file");
        if (!secret)
            return 2;
        options.keySecret = *secret;
    }

    std::unique_ptr<ServerHost> host;
    if (parser.isSet(QStringLiteral("server"))) {
        options.serverUrl = QUrl(parser.value(QStringLiteral("server")));
        const QString scheme = options.serverUrl.scheme();
        if (!options.serverUrl.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
            return CommandLine::usageError(
                QStringLiteral("--server must be a URL such as https://192.168.1.10:8443 or http://127.0.0.1:8080"));
        if (options.keyId.isEmpty())
            return CommandLine::usageError(
                QStringLiteral("--server needs --key-id and --key-secret-file (an API key of that server)"));
    } else {
        ServerOptions serverOptions;
        serverOptions.dataDir = dataDir;
        serverOptions.port = 0;
        const QString listen = parser.isSet(QStringLiteral("listen")) ? parser.value(QStringLiteral("listen"))
                                                                       : terminal.value(QStringLiteral("server/listen")).toString();
        if (!listen.isEmpty()) {
            const qsizetype colon = listen.lastIndexOf(QLatin1Char(':'));
            bool ok = false;
            const uint port = listen.mid(colon + 1).toUInt(&ok);
            if (colon <= 0 || !ok || port > 65535 || !serverOptions.address.setAddress(listen.left(colon)))
                return CommandLine::usageError(QStringLiteral("--listen must be ADDR:PORT, e.g. 127.0.0.1:8080"));
            serverOptions.port = quint16(port);
        }
        QString database = parser.isSet(QStringLiteral("database")) ? parser.value(QStringLiteral("database"))
                                                                     : terminal.value(QStringLiteral("server/database")).toString();
        if (database.isEmpty())
            database = QDir(dataDir).filePath(QStringLiteral("rechargedesk.db"));
        host = std::make_unique<ServerHost>(database, serverOptions);
        QString error;
        if (!host->startAndWait(&error)) {
            std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(error));
            return 1;
        }
        options.serverUrl = host->url();
        ServerHost *hostPointer = host.get();
        options.setup = [hostPointer, dataDir](const FirstRunForm &form, QString *keyId, QString *keySecret,
                                               QString *field, QString *error) {
            try {
                SystemClock clock;
                CreatedKey key;
                hostPointer->runBlocking([&](Database &db) {
                    key = ShopSetup::run(db, clock,
                                         ShopSetupParams{form.shopName, form.shopAddress, form.adminName, form.adminPin, dataDir});
                });
                *keyId = key.keyId;
                *keySecret = key.secret;
                return true;
            } catch (const ApiError &e) {
                *field = formField(e.field());
                *error = e.description();
            } catch (const std::exception &e) {
                *error = QString::fromUtf8(e.what());
            }
            return false;
        };
    }

    loadStyle(*qApp);
    MainWindow window(options);
    window.resize(1366, 768);
    if (options.kiosk)
        window.showFullScreen();
    else
        window.show();
    if (qEnvironmentVariable("RECHARGEDESK_PROBE") == QLatin1String("startup"))
        runStartupProbe(window);
    return QApplication::exec();
}
