#include "apiserver.h"

#include "aadhaar/aadhaarmodule.h"
#include "aadhaar/aadhaarvault.h"
#include "api/backupcontroller.h"
#include "api/healthcontroller.h"
#include "api/keyscontroller.h"
#include "api/openapicontroller.h"
#include "api/planscontroller.h"
#include "api/reportscontroller.h"
#include "api/salescontroller.h"
#include "api/shopcontroller.h"
#include "api/tlscontroller.h"
#include "api/transactionscontroller.h"
#include "api/upstreamcontroller.h"
#include "api/userscontroller.h"
#include "api/walletcontroller.h"
#include "apierror.h"
#include "auth/apikeyservice.h"
#include "auth/authenticator.h"
#include "auth/authorizer.h"
#include "backup/nightlybackup.h"
#include "http/apirequest.h"
#include "http/apirouter.h"
#include "http/limitedtcpserver.h"
#include "plans/plancataloguestore.h"
#include "plans/plansync.h"
#include "services/commitbatcher.h"
#include "services/fulfilment.h"
#include "services/reportservice.h"
#include "services/saleterms.h"
#include "services/settlementservice.h"
#include "services/transactionservice.h"
#include "services/walletservice.h"
#include "store/database.h"
#include "tlspin.h"
#include "upstream/upstreamdispatcher.h"
#include "users/auditlog.h"
#include "users/sessionresolver.h"
#include "webhooks/webhookmodule.h"

#include <QAbstractSocket>
#include <QDeadlineTimer>
#include <QDir>
#include <QHttpServer>
#include <QTimer>

struct ApiServer::Parts
{
    Parts(Database &db, const OperatorCatalog &catalog, const Clock &clock, const ServerOptions &options)
        : batcher(db), settlements(db, clock), terms(db, catalog, options.settleDelayMs),
          upstreamVault(openVault(options.dataDir)),
          upstream(db, batcher, clock, settlements, upstreamVault ? &*upstreamVault : nullptr,
                   UpstreamTiming{options.upstreamTimeoutMs, options.upstreamRetryScale}),
          transactions(db, batcher, catalog, sandbox, &upstream, settlements, clock, terms), wallets(db, clock),
          authenticator(db, clock), sessions(db, clock), authorizer(authenticator, sessions), router(http, authorizer),
          audit(db, clock), sales(transactions, catalog),
          transactionsApi(transactions, wallets, options.statusCacheEntries), walletApi(wallets, audit), health(db),
          keyService(db, clock), reports(db), reportsApi(reports)
    {
        sales.registerRoutes(router);
        transactionsApi.registerRoutes(router);
        walletApi.registerRoutes(router);
        health.registerRoutes(router);
        planStore = std::make_unique<PlanCatalogueStore>(catalog, options.dataDir);
        plansApi = std::make_unique<PlansController>(*planStore, catalog);
        plansApi->registerRoutes(router);
        if (options.plansSyncAt && !options.dataDir.isEmpty()) {
            planSync = std::make_unique<PlanSync>(
                catalog, *planStore, clock,
                PlanSyncOptions{.gapMs = options.plansSyncGapMs, .timeoutMs = options.upstreamTimeoutMs});
            planSyncTimer =
                std::make_unique<DailyTimer>(clock, *options.plansSyncAt, [this, &db] { startPlanSync(db); });
        }
        // ROUTES (plans) go here
        aadhaar =
            std::make_unique<AadhaarModule>(db, clock, options.dataDir, options.publicUrl, options.upstreamTimeoutMs);
        aadhaar->registerRoutes(router);
        // ROUTES (aadhaar) go here
        // ROUTES (webhooks) go here
        webhooks = std::make_unique<WebhookModule>(db, batcher, clock, transactions, settlements,
                                                   options.webhookRetryScale, upstreamVault ? &*upstreamVault : nullptr,
                                                   [this] { return listeningUrl(); });
        webhooks->registerRoutes(router);
        if (options.tls) // the built-in inbox is this server: its deliveries trust exactly its certificate
            webhooks->dispatcher().setOwnCertificate(options.tls->localCertificate());
        usersApi = std::make_unique<UsersController>(db, clock);
        usersApi->registerRoutes(router);
        shopApi = std::make_unique<ShopController>(db, clock, terms);
        shopApi->registerRoutes(router);
        // ROUTES (users) go here
        keysApi = std::make_unique<KeysController>(keyService, authenticator, audit);
        keysApi->registerRoutes(router);
        reportsApi.registerRoutes(router);
        upstreamApi = std::make_unique<UpstreamController>(db, clock, upstream, transactions);
        upstreamApi->registerRoutes(router);
        tlsApi = std::make_unique<TlsController>(options.tls ? TlsPin::fingerprint(options.tls->localCertificate())
                                                             : QString());
        tlsApi->registerRoutes(router);
        openApi.registerRoutes(router);
        if (!options.dataDir.isEmpty()) {
            BackupOptions backup = options.backup;
            if (backup.dir.isEmpty())
                backup.dir = QDir(options.dataDir).filePath(QStringLiteral("backups"));
            nightlyBackup = std::make_unique<NightlyBackup>(clock, backup, options.dataDir, db.location());
        }
        backupApi = std::make_unique<BackupController>(clock, nightlyBackup.get());
        backupApi->registerRoutes(router);
    }

    /// Starts a plan sync from the configured upstream; false when there is none, no sync or one is running.
    bool startPlanSync(Database &db)
    {
        if (!planSync)
            return false;
        const std::optional<UpstreamSettings> settings =
            UpstreamSettingsRepository(db, upstreamVault ? &*upstreamVault : nullptr).load();
        if (!settings) {
            qCInfo(lcPlanSync, "plan sync skipped: no upstream is configured");
            return false;
        }
        return planSync->start(*settings);
    }

    /// Whether a catalogue upload's head may send more than the usual body: nothing when its credentials pass the
    /// router's own check for the PUT route (the same Authorizer and Access, so key failures count against the
    /// throttle and a sent session must be valid), else the error the route would answer.
    std::optional<ApiError> catalogueUploadRefusal(const HttpRequestHead &head, const QHostAddress &peer)
    {
        ApiRequest request;
        request.method = QHttpServerRequest::Method::Put;
        request.peer = peer;
        for (const QByteArrayView name : {QByteArrayView("authorization"), QByteArrayView(SessionResolver::kHeader)}) {
            const QByteArrayView value = head.header(name);
            if (!value.isEmpty())
                request.headers.append({name.toByteArray(), value.toByteArray()});
        }
        try {
            authorizer.authorize(catalogueUploadAccess(), request);
            return std::nullopt;
        } catch (const ApiError &error) {
            return error;
        }
    }

    /// The Access the router declares for the catalogue upload (LiveAdmin).
    Access catalogueUploadAccess() const
    {
        for (const ApiRouter::RouteInfo &route : router.routes()) {
            if (route.method == QHttpServerRequest::Method::Put &&
                route.pattern == QLatin1String(PlansController::kImportPath))
                return route.access;
        }
        return Access::LiveAdmin;
    }

    /// The vault that seals the upstream's and the webhooks' secrets: the Aadhaar vault's key file of the data
    /// directory.
    static std::optional<AadhaarVault> openVault(const QString &dataDir)
    {
        if (dataDir.isEmpty())
            return std::nullopt;
        QString error;
        return AadhaarVault::openOrCreate(AadhaarModule::keyFilePath(dataDir), &error);
    }

    SandboxFulfilment sandbox;
    CommitBatcher batcher;
    SettlementService settlements;
    SaleTerms terms;
    std::optional<AadhaarVault> upstreamVault;
    UpstreamDispatcher upstream;
    TransactionService transactions;
    WalletService wallets;
    Authenticator authenticator;
    SessionResolver sessions;
    Authorizer authorizer;
    QHttpServer http;
    ApiRouter router;
    AuditLog audit;
    SalesController sales;
    TransactionsController transactionsApi;
    WalletController walletApi;
    HealthController health;
    std::unique_ptr<PlanCatalogueStore> planStore;
    std::unique_ptr<PlansController> plansApi;
    std::unique_ptr<PlanSync> planSync;        ///< the daily copy of the upstream's plans; null when off
    std::unique_ptr<DailyTimer> planSyncTimer; ///< starts planSync at ServerOptions::plansSyncAt
    // MEMBERS (plans) go here
    std::unique_ptr<AadhaarModule> aadhaar;
    // MEMBERS (aadhaar) go here
    // MEMBERS (webhooks) go here
    std::unique_ptr<WebhookModule> webhooks;
    ApiKeyService keyService;
    ReportService reports;
    std::unique_ptr<KeysController> keysApi;
    ReportsController reportsApi;
    std::unique_ptr<UpstreamController> upstreamApi;
    std::unique_ptr<TlsController> tlsApi;
    OpenApiController openApi;
    std::unique_ptr<NightlyBackup> nightlyBackup; ///< null without a backup folder
    std::unique_ptr<BackupController> backupApi;
    /// http://host:port of the bound server; invalid before listen().
    QUrl listeningUrl() const
    {
        if (!tcp || !tcp->isListening())
            return QUrl();
        const QHostAddress address = tcp->serverAddress();
        QUrl url;
        url.setScheme(tcp->isTls() ? QStringLiteral("https") : QStringLiteral("http"));
        url.setHost(address == QHostAddress::Any || address == QHostAddress::AnyIPv6 ? QStringLiteral("127.0.0.1")
                                                                                     : address.toString());
        url.setPort(tcp->serverPort());
        return url;
    }
    std::unique_ptr<UsersController> usersApi;
    std::unique_ptr<ShopController> shopApi;
    // MEMBERS (users) go here
    LimitedTcpServer *tcp = nullptr;
};

ApiServer::ApiServer(Database &db, const OperatorCatalog &catalog, const Clock &clock, const ServerOptions &options,
                     QObject *parent)
    : QObject(parent), m_parts(std::make_unique<Parts>(db, catalog, clock, options)), m_options(options), m_db(db)
{}

ApiServer::~ApiServer() = default;

bool ApiServer::startPlanSync()
{
    return m_parts->startPlanSync(m_db);
}

NightlyBackup *ApiServer::nightlyBackup()
{
    return m_parts->nightlyBackup.get();
}

PlanSync *ApiServer::planSync()
{
    return m_parts->planSync.get();
}

bool ApiServer::listen(QString *error)
{
    m_parts->tcp = new LimitedTcpServer(m_options.maxBodyBytes, &m_parts->http);
    if (m_options.tls)
        m_parts->tcp->setTlsConfiguration(*m_options.tls);
    // The catalogue's larger body is granted only to a head whose credentials pass the API's own check, before
    // any of the body is read (issue 12); everyone else keeps maxBodyBytes.
    m_parts->tcp->setBodyLimitExceptions(
        {{PlansController::kImportMethod, PlansController::kImportPath, m_options.maxCatalogueBytes, true}});
    m_parts->tcp->setAllowanceAuthorizer([this](const HttpRequestHead &head, const QHostAddress &peer) {
        return m_parts->catalogueUploadRefusal(head, peer);
    });
    HttpConnectionLimits limits;
    limits.maxConnections = m_options.maxConnections;
    limits.maxConnectionsPerAddress = m_options.maxConnectionsPerAddress;
    limits.headerTimeout = std::chrono::milliseconds(m_options.headerTimeoutMs);
    limits.idleTimeout = std::chrono::milliseconds(m_options.idleTimeoutMs);
    m_parts->tcp->setConnectionLimits(limits);
    if (!m_parts->tcp->listen(m_options.address, m_options.port)) {
        *error = QStringLiteral("cannot listen on %1:%2: %3")
                     .arg(m_options.address.toString())
                     .arg(m_options.port)
                     .arg(m_parts->tcp->errorString());
        return false;
    }
    m_parts->http.bind(m_parts->tcp);
    m_parts->settlements.start();
    m_parts->upstream.start();
    return true;
}

void ApiServer::stop(int flushTimeoutMs)
{
    if (m_parts->tcp)
        m_parts->tcp->close();
    finishStop(QDeadlineTimer(flushTimeoutMs));
}

void ApiServer::finishStop(QDeadlineTimer deadline)
{
    // Zero timers run in order: the batches already scheduled commit and write their answers before this runs.
    QTimer::singleShot(0, this, [this, deadline] {
        if (m_parts->batcher.hasQueuedWrites() && !deadline.hasExpired()) {
            finishStop(deadline); // requests read meanwhile queued more: let them commit and answer too
            return;
        }
        m_parts->batcher.refuseNewWrites();
        const QList<QAbstractSocket *> sockets =
            m_parts->tcp ? m_parts->tcp->findChildren<QAbstractSocket *>() : QList<QAbstractSocket *>();
        for (QAbstractSocket *socket : sockets) {
            while (socket->bytesToWrite() > 0 && !deadline.hasExpired() &&
                   socket->waitForBytesWritten(int(deadline.remainingTime()))) {
            }
        }
        emit stopped();
    });
}

quint16 ApiServer::port() const
{
    return m_parts->tcp ? m_parts->tcp->serverPort() : 0;
}

QUrl ApiServer::url() const
{
    QUrl url;
    url.setScheme(m_options.tls ? QStringLiteral("https") : QStringLiteral("http"));
    const QHostAddress address = m_parts->tcp ? m_parts->tcp->serverAddress() : m_options.address;
    url.setHost(address == QHostAddress::Any || address == QHostAddress::AnyIPv6 ? QStringLiteral("127.0.0.1")
                                                                                 : address.toString());
    url.setPort(port());
    return url;
}

TransactionService &ApiServer::transactions()
{
    return m_parts->transactions;
}

SettlementService &ApiServer::settlements()
{
    return m_parts->settlements;
}

WalletService &ApiServer::wallets()
{
    return m_parts->wallets;
}

Authenticator &ApiServer::authenticator()
{
    return m_parts->authenticator;
}

const ApiRouter &ApiServer::router() const
{
    return m_parts->router;
}

const CommitBatcher &ApiServer::batcher() const
{
    return m_parts->batcher;
}

UpstreamDispatcher &ApiServer::upstream()
{
    return m_parts->upstream;
}
