#include "apiserver.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "commandline.h"
#include "operatorcatalog.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "tls/tlsidentity.h"
#include "unixsignals.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

namespace {

/// "ADDR:PORT", "[v6]:PORT" or "PORT" -> address and port.
bool parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    static const QRegularExpression pattern(QStringLiteral("^(?:\\[([^\\]]+)\\]|([^:]+)):([0-9]{1,5})$"));
    const QRegularExpressionMatch match = pattern.match(text);
    QString host = QStringLiteral("127.0.0.1");
    QString portText = text;
    if (match.hasMatch()) {
        host = match.captured(1).isEmpty() ? match.captured(2) : match.captured(1);
        portText = match.captured(3);
    }
    bool ok = false;
    const uint number = portText.toUInt(&ok);
    if (!ok || number > 65535)
        return false;
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    if (!address->setAddress(host))
        return false;
    *port = quint16(number);
    return true;
}

void printKey(const CreatedKey &key, const QUrl &url)
{
    CommandLine::out(QStringLiteral("New test key (admin scope; the secret is shown only now):"));
    CommandLine::out(QStringLiteral("  key_id: ") + key.keyId);
    CommandLine::out(QStringLiteral("  key_secret: ") + key.secret);
    CommandLine::out(
        QStringLiteral("Try it:\n  curl -u %1:%2 %3/api/v1/wallet").arg(key.keyId, key.secret, url.toString()));
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

int runServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Runs the RechargeDesk HTTP API without a window."));
    parser.addOption({QStringLiteral("listen"),
                      QStringLiteral("Address and port, default 127.0.0.1:8080 (0 = any free port)."),
                      QStringLiteral("ADDR:PORT"), QStringLiteral("127.0.0.1:8080")});
    parser.addOption({QStringLiteral("settle-delay-ms"),
                      QStringLiteral("Sandbox: milliseconds before a PENDING sale settles (default 10000)."),
                      QStringLiteral("N"), QStringLiteral("10000")});
    parser.addOption({QStringLiteral("webhook-retry-scale"),
                      QStringLiteral("Multiplies the webhook retry schedule (default 1; 0.001: 5 min -> 300 ms)."),
                      QStringLiteral("FACTOR"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("upstream-timeout-ms"),
                      QStringLiteral("Live sales: how long a call to the upstream, and initiate's wait for its first "
                                     "answer, may take (default 15000)."),
                      QStringLiteral("N"), QStringLiteral("15000")});
    parser.addOption(
        {QStringLiteral("upstream-retry-scale"),
         QStringLiteral("Multiplies the upstream retry and status-check schedule (default 1; tests 0.01)."),
         QStringLiteral("FACTOR"), QStringLiteral("1")});
    parser.addOption(
        {QStringLiteral("new-test-key"), QStringLiteral("Create and print a fresh test admin key at start.")});
    parser.addOption({QStringLiteral("tls"),
                      QStringLiteral("Serve HTTPS. Without --tls-cert/--tls-key a self-signed certificate is created "
                                     "once under <data-dir>/tls/ and reused.")});
    parser.addOption({QStringLiteral("tls-cert"), QStringLiteral("With --tls: PEM certificate (chain) file."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("tls-key"), QStringLiteral("With --tls: PEM private key file of --tls-cert."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("tls-name"),
                      QStringLiteral("With --tls: a DNS name or IP address the generated certificate names "
                                     "(repeatable; default: host name, localhost, 127.0.0.1, the listen address)."),
                      QStringLiteral("NAME")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);

    ServerOptions options;
    if (!parseListen(parser.value(QStringLiteral("listen")), &options.address, &options.port))
        return CommandLine::usageError(
            QStringLiteral("--listen must be ADDR:PORT, e.g. 127.0.0.1:8080 or 0.0.0.0:8080"));
    bool ok = false;
    options.settleDelayMs = parser.value(QStringLiteral("settle-delay-ms")).toLongLong(&ok);
    if (!ok || options.settleDelayMs < 0 || options.settleDelayMs > 86'400'000)
        return CommandLine::usageError(QStringLiteral("--settle-delay-ms must be a whole number from 0 to 86400000"));

    options.webhookRetryScale = parser.value(QStringLiteral("webhook-retry-scale")).toDouble(&ok);
    if (!ok || !(options.webhookRetryScale > 0.0) || options.webhookRetryScale > 100.0)
        return CommandLine::usageError(QStringLiteral("--webhook-retry-scale must be above 0 and at most 100"));

    const qint64 upstreamTimeout = parser.value(QStringLiteral("upstream-timeout-ms")).toLongLong(&ok);
    if (!ok || upstreamTimeout < 100 || upstreamTimeout > 600'000)
        return CommandLine::usageError(
            QStringLiteral("--upstream-timeout-ms must be a whole number from 100 to 600000"));
    options.upstreamTimeoutMs = int(upstreamTimeout);
    options.upstreamRetryScale = parser.value(QStringLiteral("upstream-retry-scale")).toDouble(&ok);
    if (!ok || !(options.upstreamRetryScale > 0.0) || options.upstreamRetryScale > 100.0)
        return CommandLine::usageError(QStringLiteral("--upstream-retry-scale must be above 0 and at most 100"));

    options.dataDir = CommandLine::dataDir(parser);
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
        printKey(key, url);
    }
    // Printed last: scripts and tests wait for this line, and everything above is then complete.
    CommandLine::out(QStringLiteral("RechargeDesk API listening on %1/api/v1").arg(url.toString()));
    return QCoreApplication::exec();
}
