#pragma once

#include "backup/backupoptions.h"

#include <QDeadlineTimer>
#include <QHostAddress>
#include <QObject>
#include <QSslConfiguration>
#include <QTime>
#include <QUrl>

#include <memory>
#include <optional>

class ApiRouter;
class CommitBatcher;
class NightlyBackup;
class Authenticator;
class Clock;
class Database;
class OperatorCatalog;
class PlanSync;
class SettlementService;
class TransactionService;
class UpstreamDispatcher;
class WalletService;

/// Settings of one API server (given on the command line or by tests).
struct ServerOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8080;           ///< 0 picks a free port
    qint64 settleDelayMs = 10'000; ///< sandbox PENDING -> final (api-conventions.md)
    qint64 maxBodyBytes = 64 * 1024;
    double webhookRetryScale = 1.0;             ///< multiplies the webhook retry schedule (tests: e.g. 0.001)
    qint64 maxCatalogueBytes = 8 * 1024 * 1024; ///< body limit of PUT /api/v1/plans/catalogue (issue 3)
    /// Body limit of POST /api/v1/upstreams/{name}/statements (issue 26: an upstream's CSV statement; live admins).
    qint64 maxStatementBytes = 8 * 1024 * 1024;
    int upstreamTimeoutMs = 15'000;  ///< live sales: per upstream call, and initiate's wait for its first answer
    double upstreamRetryScale = 1.0; ///< multiplies the upstream retry and poll schedules (tests: 0.01)
    /// A live sale still waiting on the upstream this long (s) after it was made needs attention (issue 26; serve
    /// --upstream-attention-after-s): listed by GET /api/v1/transactions?upstream_state=attention.
    qint64 upstreamAttentionAfterS = 1800;
    /// Several servers on one database (issue 16, serve --lease-seconds): how long a server's claim on a
    /// settlement timer, an upstream call or a webhook delivery holds (a delivery's is renewed while in flight);
    /// a dead server's claims are taken over by another within it (ms).
    qint64 leaseMs = 30'000;
    /// IST time of day of the daily plan sync from the upstream (issue 13); none: no daily sync. The sync
    /// is skipped while no upstream is configured.
    std::optional<QTime> plansSyncAt = QTime(4, 30);
    int plansSyncGapMs = 250; ///< pause between two plan requests to the upstream
    QString dataDir;          ///< where keys (Aadhaar vault), imported catalogues etc. live; must exist

    // Connection limits before authentication (issue 12; HttpConnectionLimits).
    int maxConnections = 512;          ///< open HTTP connections in total; more get 503
    int maxConnectionsPerAddress = 64; ///< open HTTP connections per client address (IPv6: per /64); more get 503
    qint64 headerTimeoutMs = 10'000;   ///< a request head must be complete this long after accept / its first byte
    qint64 idleTimeoutMs = 60'000;     ///< a connection without traffic this long is closed
    /// How clients reach this server ("https://shop.lan:8443", serve --public-url): links in answers (the
    /// captcha image) start with it. Empty: they are paths relative to the server, never taken from the
    /// request's Host header (issue 12).
    QUrl publicUrl;
    /// Serve HTTPS with this certificate and key (issue 12; see TlsIdentity); plain HTTP when empty.
    std::optional<QSslConfiguration> tls;
    /// HTTP worker threads (issue 17, HttpWorkerPool, serve --http-threads): they read and write every connection's
    /// HTTP and answer the plans lookup and finished sales' status checks themselves; everything else still runs on
    /// the server thread. 0: no workers, the server thread does all of it (the terminal's embedded server, tests).
    int httpThreads = 0;
    /// Status-check answers of finished sales kept serialized (issue 17, FinalRecordCache); 0: none.
    qsizetype statusCacheEntries = 10'000;
    /// The server's own backups (issue 15): nightly at backup.at into backup.dir (default <dataDir>/backups);
    /// none without a dataDir.
    BackupOptions backup;
    /// The terminal that runs this server in its own process sets a random token here, so that its first-run
    /// screen, and nothing else, may set the shop up through POST /api/v1/setup (SetupController). Empty
    /// (`serve`, tests): that route refuses.
    QByteArray setupToken;
};

/// The embedded HTTP API of api-v1.md with its services, wired together: one object per server.
/// Lives on one thread with its Database (architecture.md, "Threads").
class ApiServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiServer)

public:
    ApiServer(Database &db, const OperatorCatalog &catalog, const Clock &clock, const ServerOptions &options,
              QObject *parent = nullptr);
    ~ApiServer() override;

    /// Starts listening and resumes persisted settlements. False with *error set when the
    /// address cannot be bound.
    bool listen(QString *error);
    /// The bound port (after listen()).
    quint16 port() const;
    /// http://address:port of the bound server (https:// with ServerOptions::tls; 127.0.0.1 for a wildcard
    /// address); invalid before listen().
    QUrl url() const;

    TransactionService &transactions();
    SettlementService &settlements();
    WalletService &wallets();
    Authenticator &authenticator();
    /// The route table (tests walk every route).
    const ApiRouter &router() const;
    /// The grouped commit of the sales and the built-in inbox (tests count its writes).
    const CommitBatcher &batcher() const;
    /// The live-sale state machine (issue 11).
    UpstreamDispatcher &upstream();
    /// True once the webhook delivery thread has opened (and migrated) its own database connection and delivers
    /// (tests wait for it before they change the database under the server, e.g. its schema_migrations rows).
    bool isDeliveringWebhooks();
    /// Starts what the daily plan sync does now (issue 13): a PlanSync from the configured upstream into
    /// this server's catalogue. False when no upstream is configured, plansSyncAt or dataDir is empty, or
    /// a sync is running; planSync()->finished() reports the end.
    bool startPlanSync();
    /// The plan sync of this server; null when ServerOptions::plansSyncAt or dataDir is empty.
    PlanSync *planSync();
    /// Stops serving for a clean exit (SIGTERM, issue 15): closes the listening socket, lets the writes already
    /// queued commit and answer on the next turn of the event loop, sends every answer written to its client
    /// (waiting `flushTimeoutMs` milliseconds at most in all), then emits stopped(). A request read later is
    /// neither stored nor answered; sales waiting for the upstream or their settle delay are rows and resume at
    /// the next start.
    void stop(int flushTimeoutMs = 5000);
    /// The nightly backup of this server (issue 15); null when ServerOptions::dataDir is empty.
    NightlyBackup *nightlyBackup();

signals:
    /// stop() is done: the event loop may end.
    void stopped();

private:
    void finishStop(QDeadlineTimer deadline);

    struct Parts;
    std::unique_ptr<Parts> m_parts;
    ServerOptions m_options;
    Database &m_db;
};
