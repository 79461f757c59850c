#include "apiserver.h"

#include "aadhaar/aadhaarmodule.h"
#include "aadhaar/aadhaarvault.h"
#include "api/backupcontroller.h"
#include "api/complaintscontroller.h"
#include "api/fundrequestscontroller.h"
#include "api/healthcontroller.h"
#include "api/keyscontroller.h"
#include "api/numberscontroller.h"
#include "api/openapicontroller.h"
#include "api/planscontroller.h"
#include "api/reportscontroller.h"
#include "api/salescontroller.h"
#include "api/setupcontroller.h"
#include "api/shiftscontroller.h"
#include "api/shopcontroller.h"
#include "api/shopscontroller.h"
#include "api/statementcontroller.h"
#include "api/tlscontroller.h"
#include "api/transactionscontroller.h"
#include "api/upstreamcontroller.h"
#include "api/upstreamfundscontroller.h"
#include "api/userscontroller.h"
#include "api/walletcontroller.h"
#include "apierror.h"
#include "auth/apikeyservice.h"
#include "auth/authenticator.h"
#include "auth/authorizer.h"
#include "backup/nightlybackup.h"
#include "complaints/complaintfollowup.h"
#include "complaints/complaintservice.h"
#include "funds/fundrequestservice.h"
#include "funds/upstreamfundrequestfollowup.h"
#include "funds/upstreamfundrequestservice.h"
#include "funds/upstreamwalletcheck.h"
#include "http/apirequest.h"
#include "http/apirouter.h"
#include "http/httpworkerpool.h"
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
#include "shops/contacttracker.h"
#include "shops/shopservice.h"
#include "store/database.h"
#include "tlspin.h"
#include "upstream/upstreamdispatcher.h"
#include "users/auditlog.h"
#include "users/sessionresolver.h"
#include "users/shopsettings.h"
#include "webhooks/webhookmodule.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QHttpServer>
#include <QRandomGenerator>
#include <QSysInfo>
#include <QTimer>

/// Everything one server is made of. One wiring style: every part is a member built in the constructor's
/// initializer list from the parts declared above it (so it is destroyed before them); parts that exist only
/// with some options are std::unique_ptr. The constructor body only registers routes and connects parts.
struct ApiServer::Parts
{
    Parts(Database &db, const OperatorCatalog &catalog, const Clock &clock, const ServerOptions &options)
        : batcher(db), settlements(db, clock, options.leaseMs), terms(db, catalog, options.settleDelayMs),
          upstreamVault(openVault(options.dataDir)),
          upstream(db, batcher, clock, settlements, vault(),
                   UpstreamTiming{options.upstreamTimeoutMs, options.upstreamRetryScale, options.leaseMs,
                                  leaseOwner(options.dataDir), options.upstreamAttentionAfterS * 1000}),
          transactions(db, batcher, catalog, sandbox, &upstream, settlements, clock, terms), wallets(db, clock),
          keyService(db, clock), reports(db), audit(db, clock), planStore(catalog, options.dataDir, clock, &db),
          authenticator(db, clock), sessions(db, clock), authorizer(authenticator, sessions), router(http, authorizer),
          sales(transactions, catalog), transactionsApi(transactions, wallets, settlements, options.statusCacheEntries,
                                                        [this] { return upstream.attentionCutoffMs(); }),
          walletApi(wallets, audit), health(db), plansApi(planStore, catalog),
          aadhaar(db, clock, options.dataDir, options.publicUrl, options.upstreamTimeoutMs),
          webhooks(db, batcher, clock, transactions, settlements,
                   WebhookDeliverySettings{options.webhookRetryScale, options.leaseMs}, vault(),
                   [this] { return listeningUrl(); }),
          usersApi(db, clock), shopApi(db, clock, terms), keysApi(keyService, authenticator, audit),
          reportsApi(reports, clock), upstreamApi(db, clock, upstream, transactions, settlements, catalog),
          tlsApi(options.tls ? TlsPin::fingerprint(options.tls->localCertificate()) : QString()),
          setupApi(db, clock, options.setupToken, options.dataDir),
          nightlyBackup(makeNightlyBackup(db, clock, options)), backupApi(clock, nightlyBackup.get()),
          statementApi(db, clock, upstream), shiftsApi(db, clock, terms), complaintSettings(db, terms),
          complaints(db, clock, settlements, upstream, terms, complaintSettings, audit, webhooks.outbox()),
          complaintFollowUp(
              db, clock, complaints, upstream,
              ComplaintFollowUpTiming{options.upstreamTimeoutMs, options.upstreamRetryScale, options.leaseMs}),
          complaintsApi(complaints), numbersApi(db, clock, upstream, options.upstreamTimeoutMs),
          fundRequests(db, clock, audit, webhooks.outbox()), fundRequestsApi(fundRequests), contacts(clock),
          shops(db, clock, catalog, &contacts), shopsApi(shops, authenticator, options.tls.has_value()),
          upstreamFundRequests(db, clock, audit),
          upstreamFundFollowUp(
              db, clock, upstreamFundRequests, upstream,
              UpstreamFundRequestTiming{options.upstreamTimeoutMs, options.upstreamRetryScale, options.leaseMs}),
          upstreamWallets(db, clock, upstream, options.upstreamTimeoutMs),
          upstreamFundsApi(clock, upstream, upstreamFundRequests, upstreamFundFollowUp, upstreamWallets)
    {
        if (options.plansSyncAt && !options.dataDir.isEmpty()) {
            planSync = std::make_unique<PlanSync>(
                catalog, planStore, clock,
                PlanSyncOptions{.gapMs = options.plansSyncGapMs, .timeoutMs = options.upstreamTimeoutMs});
            planSyncTimer =
                std::make_unique<DailyTimer>(clock, *options.plansSyncAt, [this, &db] { startPlanSync(db); });
        }
        if (options.tls) // the built-in inbox is this server: its deliveries trust exactly its certificate
            webhooks.delivery().setOwnCertificate(options.tls->localCertificate());
        sales.registerRoutes(router);
        transactionsApi.registerRoutes(router);
        walletApi.registerRoutes(router);
        health.registerRoutes(router);
        plansApi.registerRoutes(router);
        aadhaar.registerRoutes(router);
        webhooks.registerRoutes(router);
        usersApi.registerRoutes(router);
        shopApi.registerRoutes(router);
        keysApi.registerRoutes(router);
        reportsApi.registerRoutes(router);
        upstreamApi.registerRoutes(router);
        tlsApi.registerRoutes(router);
        setupApi.registerRoutes(router);
        openApi.registerRoutes(router);
        backupApi.registerRoutes(router);
        statementApi.registerRoutes(router);
        shiftsApi.registerRoutes(router);
        complaintsApi.registerRoutes(router);
        numbersApi.registerRoutes(router);
        shopsApi.registerRoutes(router);
        fundRequestsApi.registerRoutes(router);
        upstreamFundsApi.registerRoutes(router);
        keepOpenForSuspendedShops();
        authorizer.setContactTracker(&contacts);
        contactFlush.setInterval(ContactTracker::kFlushIntervalMs);
        QObject::connect(&contactFlush, &QTimer::timeout, &contactFlush, [this, &db] { contacts.flush(db); });
        contactFlush.start();
        // Issue 29: a RechargeDesk upstream's event.complaint ends the complaint it took; a sale reversed by a credited
        // complaint is no longer final, so its kept status-check answer goes.
        upstreamApi.receiver().setComplaintHandler([this](const QString &name, const QJsonObject &payload) {
            return complaints.fromUpstreamWebhook(name, payload);
        });
        // Issue 30: a RechargeDesk upstream's event.fund_request moves the fund request this server sent there.
        upstreamFundRequests.setOnEnded([this](const QString &name) { upstreamWallets.forget(name); });
        upstreamApi.receiver().setFundRequestHandler([this](const QString &name, const QJsonObject &payload) {
            return upstreamFundRequests.fromUpstreamWebhook(name, payload);
        });
        QObject::connect(&settlements, &SettlementService::settled, &settlements,
                         [this](qint64 transactionId) { transactionsApi.finalRecords().forget(transactionId); });
    }

    /// Starts a plan sync from the configured upstream; false when there is none, no sync or one is running.
    bool startPlanSync(Database &db)
    {
        if (!planSync)
            return false;
        const std::optional<UpstreamSettings> settings =
            UpstreamSettingsRepository(db, vault()).forService(QStringLiteral("plans"));
        if (!settings) {
            qCInfo(lcPlanSync, "plan sync skipped: no upstream offering plans is configured");
            return false;
        }
        return planSync->start(*settings);
    }

    /// Whether an upload's head (the catalogue's PUT, a statement's POST) may send more than the usual body: nothing
    /// when its credentials pass the router's own check for that route (the same Authorizer and Access, so key
    /// failures count against the throttle and a sent session must be valid), else the error the route would answer.
    std::optional<ApiError> uploadRefusal(const HttpRequestHead &head, const QHostAddress &peer)
    {
        const bool post = head.method() == StatementController::kImportMethod;
        // Two POST uploads: a fund request (its own path) and a statement (under /api/v1/upstreams/).
        const bool fundRequest = post && head.target().startsWith(FundRequestsController::kSubmitPath);
        const bool upstreamFundRequest =
            post && head.target().startsWith("/api/v1/upstreams/") && head.target().endsWith("/fund-requests");
        ApiRequest request;
        request.method = post ? QHttpServerRequest::Method::Post : QHttpServerRequest::Method::Put;
        request.peer = peer;
        for (const QByteArrayView name : {QByteArrayView("authorization"), QByteArrayView(SessionResolver::kHeader)}) {
            const QByteArrayView value = head.header(name);
            if (!value.isEmpty())
                request.headers.append({name.toByteArray(), value.toByteArray()});
        }
        try {
            const char *pattern = fundRequest           ? FundRequestsController::kSubmitPath
                                  : upstreamFundRequest ? UpstreamFundsController::kSubmitPath
                                  : post                ? StatementController::kImportPath
                                                        : PlansController::kImportPath;
            authorizer.authorize(uploadAccess(request.method, pattern), request,
                                 uploadOpenWhileSuspended(request.method, pattern));
            return std::nullopt;
        } catch (const ApiError &error) {
            return error;
        }
    }

    /// Issue 30: the routes a suspended shop's keys still reach (contract "Suspension"): its sales and its wallet to
    /// read, and every fund-request route (so it can pay); the Authorizer answers every other route 403
    /// account_suspended.
    void keepOpenForSuspendedShops()
    {
        using Method = QHttpServerRequest::Method;
        router.keepOpenWhileSuspended(Method::Get, QStringLiteral("/api/v1/transactions"));
        router.keepOpenWhileSuspended(Method::Get, QStringLiteral("/api/v1/transactions/{transaction_id}"));
        router.keepOpenWhileSuspended(Method::Get, QStringLiteral("/api/v1/wallet"));
        const QString fundRequests = QLatin1String(FundRequestsController::kSubmitPath);
        for (const ApiRouter::RouteInfo &route : router.routes()) {
            if (route.pattern == fundRequests || route.pattern.startsWith(fundRequests + QLatin1Char('/')))
                router.keepOpenWhileSuspended(route.method, route.pattern);
        }
    }

    /// Whether the router keeps an upload route open to a suspended shop (issue 30: a fund request's slip).
    bool uploadOpenWhileSuspended(QHttpServerRequest::Method method, const char *pattern) const
    {
        for (const ApiRouter::RouteInfo &route : router.routes()) {
            if (route.method == method && route.pattern == QLatin1String(pattern))
                return route.openWhileSuspended;
        }
        return false;
    }

    /// The Access the router declares for an upload route (LiveAdmin).
    Access uploadAccess(QHttpServerRequest::Method method, const char *pattern) const
    {
        for (const ApiRouter::RouteInfo &route : router.routes()) {
            if (route.method == method && route.pattern == QLatin1String(pattern))
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

    AadhaarVault *vault() { return upstreamVault ? &*upstreamVault : nullptr; }

    /// This server among several on one database, as the owner of its leases (UpstreamTiming::leaseOwner): its
    /// host and data directory, which one process at a time holds (serve's lock), so a restart knows its own
    /// claims; without a data directory, a name of this process only.
    static QString leaseOwner(const QString &dataDir)
    {
        const QString where = dataDir.isEmpty()
                                  ? QStringLiteral("pid %1 %2")
                                        .arg(QCoreApplication::applicationPid())
                                        .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'))
                                  : QDir(dataDir).absolutePath();
        return QSysInfo::machineHostName() + QLatin1Char(':') + where;
    }

    /// The server's own nightly backup (issue 15) into ServerOptions::backup.dir (default <dataDir>/backups);
    /// null without a data directory.
    static std::unique_ptr<NightlyBackup> makeNightlyBackup(Database &db, const Clock &clock,
                                                            const ServerOptions &options)
    {
        if (options.dataDir.isEmpty())
            return nullptr;
        BackupOptions backup = options.backup;
        if (backup.dir.isEmpty())
            backup.dir = QDir(options.dataDir).filePath(QStringLiteral("backups"));
        return std::make_unique<NightlyBackup>(clock, backup, options.dataDir, db.location());
    }

    /// http://host:port (https:// with TLS) of the bound server, 127.0.0.1 for a wildcard address; invalid
    /// before listen().
    QUrl listeningUrl() const
    {
        if (!isListening())
            return QUrl();
        const QHostAddress address = workers ? workers->serverAddress() : tcp->serverAddress();
        QUrl url;
        url.setScheme((workers ? workers->isTls() : tcp->isTls()) ? QStringLiteral("https") : QStringLiteral("http"));
        url.setHost(address == QHostAddress::Any || address == QHostAddress::AnyIPv6 ? QStringLiteral("127.0.0.1")
                                                                                     : address.toString());
        url.setPort(port());
        return url;
    }

    bool isListening() const { return workers ? workers->isListening() : tcp && tcp->isListening(); }

    quint16 port() const
    {
        if (workers)
            return workers->serverPort();
        return tcp ? tcp->serverPort() : 0;
    }

    // Services and stores.
    SandboxFulfilment sandbox;
    CommitBatcher batcher;
    SettlementService settlements;
    SaleTerms terms;
    std::optional<AadhaarVault> upstreamVault;
    UpstreamDispatcher upstream;
    TransactionService transactions;
    WalletService wallets;
    ApiKeyService keyService;
    ReportService reports;
    AuditLog audit;
    PlanCatalogueStore planStore;
    std::unique_ptr<PlanSync> planSync;        ///< the daily copy of the upstream's plans; null when off
    std::unique_ptr<DailyTimer> planSyncTimer; ///< starts planSync at ServerOptions::plansSyncAt
    // HTTP: who is calling, and the route table.
    Authenticator authenticator;
    SessionResolver sessions;
    Authorizer authorizer;
    QHttpServer http;
    ApiRouter router;
    // Controllers and modules, each registering its routes.
    SalesController sales;
    TransactionsController transactionsApi;
    WalletController walletApi;
    HealthController health;
    PlansController plansApi;
    AadhaarModule aadhaar;
    WebhookModule webhooks;
    UsersController usersApi;
    ShopController shopApi;
    KeysController keysApi;
    ReportsController reportsApi;
    UpstreamController upstreamApi;
    TlsController tlsApi;
    SetupController setupApi;
    OpenApiController openApi;
    std::unique_ptr<NightlyBackup> nightlyBackup; ///< null without a data directory
    BackupController backupApi;
    StatementController statementApi;    ///< issue 26: upstream statements
    ShiftsController shiftsApi;          ///< issue 28: shifts and cash-up
    ShopSettings complaintSettings;      ///< issue 29: the complaint deadline
    ComplaintService complaints;         ///< issue 29: complaints about sales
    ComplaintFollowUp complaintFollowUp; ///< issue 29: the sandbox's decisions, sends to and polls of the upstream
    ComplaintsController complaintsApi;
    NumbersController numbersApi;    ///< issue 29: the operator and circle from the number
    FundRequestService fundRequests; ///< issue 30: the shops' fund requests to this distributor
    FundRequestsController fundRequestsApi;
    ContactTracker contacts; ///< issue 30: the last contact of each shop's keys, in memory
    ShopService shops;       ///< issue 30: the distributor's shops
    ShopsController shopsApi;
    QTimer contactFlush;                              ///< writes `contacts` every ContactTracker::kFlushIntervalMs
    UpstreamFundRequestService upstreamFundRequests;  ///< issue 30: this server's fund requests to its upstreams
    UpstreamFundRequestFollowUp upstreamFundFollowUp; ///< issue 30: their sends again and polls
    UpstreamWalletCheck upstreamWallets;              ///< issue 30: our float at the upstream beside our wallet
    UpstreamFundsController upstreamFundsApi;
    LimitedTcpServer *tcp = nullptr;         ///< owned by http; set by listen() without worker threads
    std::unique_ptr<HttpWorkerPool> workers; ///< set by listen() with ServerOptions::httpThreads; stops first
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
    // The catalogue's and a statement's larger bodies are granted only to a head whose credentials pass the API's
    // own check, before any of the body is read (issue 12); everyone else keeps maxBodyBytes.
    const HttpFramingTracker::BodyLimitExceptions exceptions{
        {PlansController::kImportMethod, PlansController::kImportPath, m_options.maxCatalogueBytes, true},
        {StatementController::kImportMethod, StatementController::kImportPath, m_options.maxStatementBytes, true},
        {FundRequestsController::kSubmitMethod, FundRequestsController::kSubmitPath,
         FundRequestsController::kMaxSubmitBytes, true},
        {UpstreamFundsController::kSubmitMethod, UpstreamFundsController::kSubmitPath,
         FundRequestsController::kMaxSubmitBytes, true}};
    const LimitedTcpServer::AllowanceAuthorizer allowance =
        [this](const HttpRequestHead &head, const QHostAddress &peer) { return m_parts->uploadRefusal(head, peer); };
    HttpConnectionLimits limits;
    limits.maxConnections = m_options.maxConnections;
    limits.maxConnectionsPerAddress = m_options.maxConnectionsPerAddress;
    limits.headerTimeout = std::chrono::milliseconds(m_options.headerTimeoutMs);
    limits.idleTimeout = std::chrono::milliseconds(m_options.idleTimeoutMs);
    const auto cannotListen = [&](const QString &why) {
        *error =
            QStringLiteral("cannot listen on %1:%2: %3").arg(m_options.address.toString()).arg(m_options.port).arg(why);
        return false;
    };
    if (m_options.httpThreads > 0) {
        m_parts->workers = std::make_unique<HttpWorkerPool>(
            m_parts->router, HttpWorkerSettings{m_options.httpThreads, m_options.maxBodyBytes, exceptions, allowance,
                                                limits, m_options.tls, m_db.location()});
        QString why;
        if (!m_parts->workers->listen(m_options.address, m_options.port, &why)) {
            m_parts->workers.reset();
            return cannotListen(why);
        }
    } else {
        m_parts->tcp = new LimitedTcpServer(m_options.maxBodyBytes, &m_parts->http);
        if (m_options.tls)
            m_parts->tcp->setTlsConfiguration(*m_options.tls);
        m_parts->tcp->setBodyLimitExceptions(exceptions);
        m_parts->tcp->setAllowanceAuthorizer(allowance);
        m_parts->tcp->setConnectionLimits(limits);
        if (!m_parts->tcp->listen(m_options.address, m_options.port))
            return cannotListen(m_parts->tcp->errorString());
        m_parts->http.bind(m_parts->tcp);
    }
    m_parts->settlements.start();
    m_parts->upstream.start();
    m_parts->complaintFollowUp.start();
    m_parts->upstreamFundFollowUp.start();
    return true;
}

void ApiServer::stop(int flushTimeoutMs)
{
    if (m_parts->workers)
        m_parts->workers->close();
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
        m_parts->contactFlush.stop();
        m_parts->contacts.flush(m_db);               // the shops' last contacts since the last flush are not lost
        m_parts->webhooks.delivery().stopDelivery(); // its deliveries in flight go out again after a restart
        if (m_parts->workers)
            m_parts->workers->flush(deadline); // the workers write the answers sent to them, then flush
        if (m_parts->tcp)
            m_parts->tcp->flushConnections(deadline);
        emit stopped();
    });
}

quint16 ApiServer::port() const
{
    return m_parts->port();
}

QUrl ApiServer::url() const
{
    return m_parts->listeningUrl();
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

bool ApiServer::isDeliveringWebhooks()
{
    return m_parts->webhooks.delivery().isDelivering();
}

UpstreamDispatcher &ApiServer::upstream()
{
    return m_parts->upstream;
}
