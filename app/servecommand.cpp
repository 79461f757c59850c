#include "apiserver.h"
#include "auth/apikeyservice.h"
#include "backup/backuprestorer.h"
#include "clock.h"
#include "commandline.h"
#include "configfile.h"
#include "listenaddress.h"
#include "operatorcatalog.h"
#include "servicenotifier.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "store/privatefiles.h"
#include "tls/tlsidentity.h"
#include "unixsignals.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QLockFile>
#include <QThread>
#include <QUrl>

#include <algorithm>
#include <optional>

namespace {

/// Writes the new key to `path` (mode 0600, "key_id: …" and "key_secret: …" lines, as `keys
/// create` prints them) and prints only the key id and the file: serve's output often goes to a
/// log that others read (journal, terminal scrollback, CI), an admin secret must not (issue 12).
bool writeKey(const CreatedKey &key, const QString &path, const QUrl &url)
{
    QString error;
    if (!PrivateFiles::writeFile(
            path, QStringLiteral("key_id: %1\nkey_secret: %2\n").arg(key.keyId, key.secret).toUtf8(), &error)) {
        std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(error));
        return false;
    }
    CommandLine::out(QStringLiteral("New test key (admin scope); its secret is in the key file (mode 0600):"));
    CommandLine::out(QStringLiteral("  key_id: ") + key.keyId);
    CommandLine::out(QStringLiteral("  key_file: ") + path);
    CommandLine::out(
        QStringLiteral("Try it:\n  curl -u \"%1:$(awk '$1 == \"key_secret:\" { print $2 }' %2)\" %3/api/v1/wallet")
            .arg(key.keyId, path, url.toString()));
    return true;
}

/// serve --public-url: an absolute http(s) URL without user, query or fragment; nullopt otherwise.
std::optional<QUrl> parsePublicUrl(const QString &text)
{
    if (text.isEmpty())
        return QUrl();
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
        url.host().isEmpty() || !url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment())
        return std::nullopt;
    return url;
}

/// --tls, --tls-cert/--tls-key and --tls-name -> options->tls. Prints where the certificate comes from and its
/// fingerprint (the value terminals and the back office show). False with *error set on bad flags or files.
bool setUpTls(const QCommandLineParser &parser, const QString &dataDir, const QHostAddress &listen,
              ServerOptions *options, QString *error)
{
    const bool hasCertificate = parser.isSet(QStringLiteral("tls-cert"));
    const bool hasKey = parser.isSet(QStringLiteral("tls-key"));
    if (!parser.isSet(QStringLiteral("tls"))) {
        if (hasCertificate || hasKey || parser.isSet(QStringLiteral("tls-name")))
            *error = QStringLiteral("--tls-cert, --tls-key and --tls-name need --tls");
        return error->isEmpty();
    }
    if (hasCertificate != hasKey) {
        *error = QStringLiteral("--tls-cert and --tls-key go together");
        return false;
    }
    TlsIdentity identity;
    if (hasCertificate) {
        if (!TlsIdentity::load(parser.value(QStringLiteral("tls-cert")), parser.value(QStringLiteral("tls-key")),
                               &identity, error))
            return false;
        CommandLine::out(QStringLiteral("TLS certificate: ") + parser.value(QStringLiteral("tls-cert")));
    } else {
        QStringList names = parser.values(QStringLiteral("tls-name"));
        if (names.isEmpty())
            names = TlsIdentity::defaultNames(listen.toString());
        bool created = false;
        if (!TlsIdentity::loadOrCreate(dataDir, names, &identity, &created, error))
            return false;
        if (!created && parser.isSet(QStringLiteral("tls-name")))
            CommandLine::out(QStringLiteral("Note: --tls-name applies only when the certificate is created; to make a "
                                            "new one, remove %1 (every terminal must then confirm it again).")
                                 .arg(TlsIdentity::directory(dataDir)));
        CommandLine::out(
            QStringLiteral("TLS certificate: %1/server.crt (%2)")
                .arg(TlsIdentity::directory(dataDir),
                     created ? QStringLiteral("self-signed, created now for ") + names.join(QStringLiteral(", "))
                             : QStringLiteral("self-signed, reused")));
    }
    CommandLine::out(QStringLiteral("TLS certificate SHA-256 fingerprint: ") + identity.fingerprintSha256());
    CommandLine::out(QStringLiteral("  (a terminal asks to confirm this on first contact; compare it there)"));
    options->tls = identity.serverConfiguration();
    return true;
}

} // namespace

QList<QCommandLineOption> serveOptions()
{
    QList<QCommandLineOption> flags;
    flags.append({QStringLiteral("listen"),
                  QStringLiteral("Address and port, e.g. 0.0.0.0:8080 or [::1]:8080; default 127.0.0.1:8080 (port 0 = "
                                 "any free port)."),
                  QStringLiteral("ADDR:PORT"), QStringLiteral("127.0.0.1:8080")});
    flags.append({QStringLiteral("settle-delay-ms"),
                  QStringLiteral("Sandbox: milliseconds before a PENDING sale settles (default 10000)."),
                  QStringLiteral("N"), QStringLiteral("10000")});
    flags.append({QStringLiteral("webhook-retry-scale"),
                  QStringLiteral("Multiplies the webhook retry schedule (default 1; 0.001: 5 min -> 300 ms)."),
                  QStringLiteral("FACTOR"), QStringLiteral("1")});
    flags.append({QStringLiteral("upstream-timeout-ms"),
                  QStringLiteral("Live sales: how long a call to the upstream, and initiate's wait for its first "
                                 "answer, may take (default 15000)."),
                  QStringLiteral("N"), QStringLiteral("15000")});
    flags.append({QStringLiteral("plans-sync-at"),
                  QStringLiteral("IST time of day of the daily copy of the upstream's plans (default 04:30; "
                                 "\"off\": none). Skipped while no upstream is configured."),
                  QStringLiteral("HH:MM"), QStringLiteral("04:30")});
    flags.append({QStringLiteral("lease-seconds"),
                  QStringLiteral("Several servers on one database: seconds a server's claim on a settlement timer, "
                                 "an upstream call or a webhook delivery holds (renewed while it works on it); "
                                 "another server takes over a dead server's claims after it (default 30)."),
                  QStringLiteral("N"), QStringLiteral("30")});
    flags.append({QStringLiteral("http-threads"),
                  QStringLiteral("Threads that read and write HTTP and answer plan lookups and finished sales' "
                                 "status checks; sales and everything else stay on the server thread "
                                 "(default: the number of CPU cores, at most 8; 0: the server thread does all)."),
                  QStringLiteral("N"), QStringLiteral("auto")});
    flags.append({QStringLiteral("upstream-attention-after-s"),
                  QStringLiteral("Live sales: seconds after which a sale still waiting on the upstream (its answer "
                                 "lost, or PENDING there without a webhook yet) needs attention: listed by "
                                 "upstream_state=attention and in Back office (default 1800)."),
                  QStringLiteral("N"), QStringLiteral("1800")});
    flags.append({QStringLiteral("upstream-retry-scale"),
                  QStringLiteral("Multiplies the upstream retry and status-check schedule (default 1; tests 0.01)."),
                  QStringLiteral("FACTOR"), QStringLiteral("1")});
    flags.append({QStringLiteral("max-connections"),
                  QStringLiteral("Open HTTP connections in total; more are answered 503 (default 512)."),
                  QStringLiteral("N"), QStringLiteral("512")});
    flags.append({QStringLiteral("max-connections-per-address"),
                  QStringLiteral("Open HTTP connections per client address (IPv6: per /64); more are answered "
                                 "503 (default 64)."),
                  QStringLiteral("N"), QStringLiteral("64")});
    flags.append({QStringLiteral("header-timeout-s"),
                  QStringLiteral("Seconds a client has to send a complete request head, from connecting or "
                                 "from its first byte; then 408 and close (default 10)."),
                  QStringLiteral("N"), QStringLiteral("10")});
    flags.append({QStringLiteral("idle-timeout-s"),
                  QStringLiteral("Seconds a keep-alive connection, or a request body, may go without traffic "
                                 "before it is closed (default 60)."),
                  QStringLiteral("N"), QStringLiteral("60")});
    flags.append({QStringLiteral("new-test-key"),
                  QStringLiteral("Create a fresh test admin key at start; its secret goes to the key file.")});
    flags.append({QStringLiteral("key-file"),
                  QStringLiteral("Where a key created at start is written, mode 0600 (default "
                                 "<data-dir>/keys/test-admin.key); only its path is printed."),
                  QStringLiteral("FILE")});
    flags.append({QStringLiteral("public-url"),
                  QStringLiteral("How clients reach this server, e.g. https://shop.lan:8443; links in answers "
                                 "(the captcha image) start with it. Default: relative paths."),
                  QStringLiteral("URL")});
    flags.append({QStringLiteral("tls"),
                  QStringLiteral("Serve HTTPS. Without --tls-cert/--tls-key a self-signed certificate is created "
                                 "once under <data-dir>/tls/ and reused.")});
    flags.append({QStringLiteral("tls-cert"), QStringLiteral("With --tls: PEM certificate (chain) file."),
                  QStringLiteral("FILE")});
    flags.append({QStringLiteral("tls-key"), QStringLiteral("With --tls: PEM private key file of --tls-cert."),
                  QStringLiteral("FILE")});
    flags.append({QStringLiteral("tls-name"),
                  QStringLiteral("With --tls: a DNS name or IP address the generated certificate names "
                                 "(repeatable; default: host name, localhost, 127.0.0.1, the listen address)."),
                  QStringLiteral("NAME")});
    flags.append({QStringLiteral("backup-at"),
                  QStringLiteral("IST time of day of the nightly backup (default 02:30; \"off\": none)."),
                  QStringLiteral("HH:MM"), QStringLiteral("02:30")});
    flags.append({QStringLiteral("backup-dir"),
                  QStringLiteral("Folder of the nightly backups (default <data-dir>/backups; another disk is better)."),
                  QStringLiteral("DIR")});
    flags.append({QStringLiteral("backup-keep"), QStringLiteral("How many nightly backups are kept (default 7)."),
                  QStringLiteral("N"), QStringLiteral("7")});
    flags.append({QStringLiteral("config"),
                  QStringLiteral("Read settings from FILE: \"key = value\" lines, a key per option above (e.g. "
                                 "listen = 127.0.0.1:8080); flags given here override it."),
                  QStringLiteral("FILE")});
    flags.append({QStringLiteral("check-config"),
                  QStringLiteral("Check the flags and --config file, print \"configuration OK\" and exit.")});
    flags += CommandLine::storeOptions();
    return flags;
}

int runServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Runs the RechargeDesk HTTP API without a window."));
    const QList<QCommandLineOption> flags = serveOptions();
    parser.addOptions(flags);
    CommandLine::process(parser, arguments);
    const QStringList setOnCommandLine = parser.optionNames();
    std::optional<ConfigFile> config;
    if (parser.isSet(QStringLiteral("config"))) {
        QString configError;
        config = ConfigFile::read(parser.value(QStringLiteral("config")), flags,
                                  {QStringLiteral("config"), QStringLiteral("check-config")},
                                  {QStringLiteral("tls-name")}, &configError);
        if (!config)
            return CommandLine::usageError(configError);
        if (!parser.parse(config->merged(arguments, setOnCommandLine)))
            return CommandLine::usageError(parser.errorText());
    }
    // A bad value from the file names its line ("server.conf:3: --listen must be ...").
    const auto usageError = [&config, &setOnCommandLine](const QString &message) {
        return CommandLine::usageError(config ? config->locate(message, setOnCommandLine) : message);
    };

    ServerOptions options;
    QString why;
    const std::optional<ListenAddress> listen = ListenAddress::parse(parser.value(QStringLiteral("listen")), &why);
    if (!listen)
        return usageError(QStringLiteral("--listen: ") + why);
    options.address = listen->address;
    options.port = listen->port;
    bool ok = false;
    options.settleDelayMs = parser.value(QStringLiteral("settle-delay-ms")).toLongLong(&ok);
    if (!ok || options.settleDelayMs < 0 || options.settleDelayMs > 86'400'000)
        return usageError(QStringLiteral("--settle-delay-ms must be a whole number from 0 to 86400000"));

    options.webhookRetryScale = parser.value(QStringLiteral("webhook-retry-scale")).toDouble(&ok);
    if (!ok || !(options.webhookRetryScale > 0.0) || options.webhookRetryScale > 100.0)
        return usageError(QStringLiteral("--webhook-retry-scale must be above 0 and at most 100"));

    const qint64 upstreamTimeout = parser.value(QStringLiteral("upstream-timeout-ms")).toLongLong(&ok);
    if (!ok || upstreamTimeout < 100 || upstreamTimeout > 600'000)
        return usageError(QStringLiteral("--upstream-timeout-ms must be a whole number from 100 to 600000"));
    options.upstreamTimeoutMs = int(upstreamTimeout);
    options.upstreamRetryScale = parser.value(QStringLiteral("upstream-retry-scale")).toDouble(&ok);
    if (!ok || !(options.upstreamRetryScale > 0.0) || options.upstreamRetryScale > 100.0)
        return usageError(QStringLiteral("--upstream-retry-scale must be above 0 and at most 100"));
    options.upstreamAttentionAfterS = parser.value(QStringLiteral("upstream-attention-after-s")).toLongLong(&ok);
    if (!ok || options.upstreamAttentionAfterS < 1 || options.upstreamAttentionAfterS > 30 * 86'400)
        return usageError(QStringLiteral("--upstream-attention-after-s must be a whole number from 1 to 2592000"));
    const qint64 leaseSeconds = parser.value(QStringLiteral("lease-seconds")).toLongLong(&ok);
    if (!ok || leaseSeconds < 3 || leaseSeconds > 3600)
        return usageError(QStringLiteral("--lease-seconds must be a whole number from 3 to 3600"));
    options.leaseMs = leaseSeconds * 1000;
    const QString httpThreads = parser.value(QStringLiteral("http-threads"));
    if (httpThreads == QLatin1String("auto")) {
        options.httpThreads = std::clamp(QThread::idealThreadCount(), 1, 8);
    } else {
        options.httpThreads = httpThreads.toInt(&ok);
        if (!ok || options.httpThreads < 0 || options.httpThreads > 64)
            return usageError(QStringLiteral("--http-threads must be auto or a whole number from 0 to 64"));
    }

    const QString plansSyncAt = parser.value(QStringLiteral("plans-sync-at"));
    if (plansSyncAt == QLatin1String("off")) {
        options.plansSyncAt.reset();
    } else {
        options.plansSyncAt = QTime::fromString(plansSyncAt, QStringLiteral("HH:mm"));
        if (!options.plansSyncAt->isValid())
            return usageError(QStringLiteral("--plans-sync-at must be HH:MM (IST) or off"));
    }

    const auto wholeNumber = [&parser](const QString &name, qint64 lowest, qint64 highest, qint64 *value) {
        bool valid = false;
        *value = parser.value(name).toLongLong(&valid);
        return valid && *value >= lowest && *value <= highest;
    };
    qint64 number = 0;
    if (!wholeNumber(QStringLiteral("max-connections"), 1, 100'000, &number))
        return usageError(QStringLiteral("--max-connections must be a whole number from 1 to 100000"));
    options.maxConnections = int(number);
    if (!wholeNumber(QStringLiteral("max-connections-per-address"), 1, 100'000, &number))
        return usageError(QStringLiteral("--max-connections-per-address must be a whole number from 1 to 100000"));
    options.maxConnectionsPerAddress = int(number);
    if (!wholeNumber(QStringLiteral("header-timeout-s"), 1, 3'600, &number))
        return usageError(QStringLiteral("--header-timeout-s must be a whole number from 1 to 3600"));
    options.headerTimeoutMs = number * 1000;
    if (!wholeNumber(QStringLiteral("idle-timeout-s"), 1, 86'400, &number))
        return usageError(QStringLiteral("--idle-timeout-s must be a whole number from 1 to 86400"));
    options.idleTimeoutMs = number * 1000;
    const std::optional<QUrl> publicUrl = parsePublicUrl(parser.value(QStringLiteral("public-url")));
    if (!publicUrl)
        return usageError(
            QStringLiteral("--public-url must be an http:// or https:// URL without user, query or fragment"));
    options.publicUrl = *publicUrl;
    const QString backupAt = parser.value(QStringLiteral("backup-at"));
    if (backupAt == QLatin1String("off")) {
        options.backup.at.reset();
    } else {
        options.backup.at = QTime::fromString(backupAt, QStringLiteral("HH:mm"));
        if (!options.backup.at->isValid())
            return usageError(QStringLiteral("--backup-at must be HH:MM (IST) or off"));
    }
    if (!wholeNumber(QStringLiteral("backup-keep"), 1, 1000, &number))
        return usageError(QStringLiteral("--backup-keep must be a whole number from 1 to 1000"));
    options.backup.keep = int(number);
    if (parser.isSet(QStringLiteral("check-config"))) {
        CommandLine::out(QStringLiteral("configuration OK"));
        return 0;
    }

    options.dataDir = CommandLine::dataDir(parser);
    // Held while the server runs: `rechargedesk restore` refuses a data directory with a live server.
    QLockFile serverLock(BackupRestorer::serverLockPath(options.dataDir));
    if (!serverLock.tryLock(0))
        std::fprintf(stderr, "rechargedesk: warning: another server uses the data directory %s\n",
                     qPrintable(options.dataDir));
    options.backup.dir = parser.value(QStringLiteral("backup-dir")); // empty: <data-dir>/backups
    QString warning;
    PrivateFiles::ensureDirectory(options.dataDir, &warning);
    if (!warning.isEmpty())
        std::fprintf(stderr, "rechargedesk: warning: %s\n", qPrintable(warning));
    QString tlsError;
    if (!setUpTls(parser, options.dataDir, options.address, &options, &tlsError)) {
        std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(tlsError));
        return 1;
    }
    std::unique_ptr<Database> db = CommandLine::openDatabase(parser);
    if (!db)
        return 1;
    SystemClock clock;
    const OperatorCatalog catalog = OperatorCatalog::builtIn();
    ApiServer server(*db, catalog, clock, options);
    QString error;
    if (!server.listen(&error)) {
        std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(error));
        return 1;
    }
    UnixSignals signalHandler;
    const QUrl url = server.url();
    QString shownDatabase = parser.value(QStringLiteral("database"));
    if (shownDatabase.isEmpty())
        shownDatabase = CommandLine::dataDir(parser) + QStringLiteral("/rechargedesk.db");
    else if (db->isPostgres())
        shownDatabase = QUrl(shownDatabase).toString(QUrl::RemovePassword);
    CommandLine::out(QStringLiteral("Database: ") + shownDatabase);
    if (parser.isSet(QStringLiteral("new-test-key")) || AccountRepository(*db).activeKeyCount() == 0) {
        const CreatedKey key =
            ApiKeyService(*db, clock).create(QString(), QStringLiteral("created by serve"), Mode::Test, Scope::Admin);
        QString keyFile = parser.value(QStringLiteral("key-file"));
        if (keyFile.isEmpty()) {
            PrivateFiles::ensureDirectory(QDir(options.dataDir).filePath(QStringLiteral("keys")), nullptr);
            keyFile = QDir(options.dataDir).filePath(QStringLiteral("keys/test-admin.key"));
        }
        if (!writeKey(key, QFileInfo(keyFile).absoluteFilePath(), url))
            return 1;
    }
    // Printed last: scripts and tests wait for this line, and everything above is then complete.
    CommandLine::out(QStringLiteral("RechargeDesk API listening on %1/api/v1").arg(url.toString()));
    // SIGTERM (systemd's stop) or SIGINT: tell systemd, answer what was received, then exit 0.
    ServiceNotifier notifier;
    QObject::connect(&signalHandler, &UnixSignals::received, &server, [&notifier, &server] {
        notifier.stopping(QStringLiteral("Stopping: answering the requests received, then exiting"));
        server.stop();
    });
    QObject::connect(&server, &ApiServer::stopped, qApp, &QCoreApplication::quit);
    notifier.ready(QStringLiteral("Listening on %1/api/v1").arg(url.toString()));
    return QCoreApplication::exec();
}
