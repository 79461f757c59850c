#include "upstreamcontroller.h"

#include "apierror.h"
#include "clock.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "services/transactionservice.h"
#include "upstream/upstreamcallrepository.h"
#include "upstream/upstreamdispatcher.h"
#include "upstream/upstreamsalerepository.h"

UpstreamController::UpstreamController(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher,
                                       TransactionService &transactions)
    : m_db(db), m_clock(clock), m_dispatcher(dispatcher), m_transactions(transactions), m_audit(db, clock),
      m_receiver(dispatcher, clock)
{}

QJsonObject UpstreamController::view(qint64 accountId)
{
    UpstreamSettingsRepository repository = m_dispatcher.settings();
    const std::optional<UpstreamSettings> settings = repository.load();
    const UpstreamHealth health = repository.health();
    UpstreamInfo info;
    info.configured = settings.has_value();
    info.state = QStringLiteral("not_configured");
    if (info.configured) {
        info.baseUrl = settings->baseUrl;
        info.keyId = settings->keyId;
        info.state = health.state;
        info.sinceMs = health.sinceMs;
        info.lastContactMs = health.lastContactMs;
        info.lastError = health.lastError;
    }
    info.webhookPath = QString::fromLatin1(kHookPath);
    info.unknownSales = UpstreamSaleRepository(m_db).unknownCount(accountId);
    return info.toJson();
}

void UpstreamController::registerRoutes(ApiRouter &router)
{
    using Method = QHttpServerRequest::Method;
    router.add(
        Method::Get, QStringLiteral("/api/v1/upstream"), Access::Pos,
        [this](const ApiRequest &request, const ApiReply &reply) { reply.sendData(view(request.caller.accountId)); });
    router.add(Method::Put, QStringLiteral("/api/v1/upstream"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString actor = request.caller.actor();
                   const JsonFields fields(request.jsonBody());
                   const UpstreamSettings settings = UpstreamSettings::checked(
                       fields.requiredString(QStringLiteral("base_url")),
                       fields.requiredString(QStringLiteral("key_id")),
                       fields.requiredString(QStringLiteral("key_secret")),
                       fields.optionalString(QStringLiteral("webhook_password")).value_or(QString()),
                       fields.optionalString(QStringLiteral("webhook_secret")).value_or(QString()));
                   m_dispatcher.settings().save(settings, m_clock.nowMs());
                   m_audit.record(request.caller.accountId, actor, QStringLiteral("upstream.set"),
                                  QStringLiteral("Live sales now go to the upstream %1 with key %2")
                                      .arg(settings.baseUrl, settings.keyId));
                   reply.sendData(view(request.caller.accountId));
               });
    router.add(Method::Delete, QStringLiteral("/api/v1/upstream"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString actor = request.caller.actor();
                   m_dispatcher.settings().clear(m_clock.nowMs());
                   m_audit.record(request.caller.accountId, actor, QStringLiteral("upstream.clear"),
                                  QStringLiteral("The upstream was removed: live sales are refused until one is set"));
                   reply.sendData(view(request.caller.accountId));
               });
    router.add(Method::Post, QStringLiteral("/api/v1/upstream/check"), Access::Admin,
               [this](const ApiRequest &, const ApiReply &reply) {
                   const std::optional<UpstreamSettings> settings = m_dispatcher.settings().load();
                   if (!settings)
                       throw ApiError::conflict(QStringLiteral("upstream_not_configured"),
                                                QStringLiteral("no upstream is configured; set one first"));
                   m_dispatcher.check(*settings, [reply](const UpstreamDispatcher::CheckResult &r) {
                       reply.sendData(UpstreamCheck{r.ok, r.httpStatus, r.latencyMs, r.message}.toJson());
                   });
               });
    router.add(Method::Get, QStringLiteral("/api/v1/transactions/{transaction_id}/upstream-calls"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const qint64 id = request.idCapture(0);
                   m_transactions.get(request.caller, id); // 404 unless the caller's
                   reply.sendData(UpstreamCallList{UpstreamCallRepository(m_db).forTransaction(id)}.toJson());
               });
    router.add(Method::Post, QStringLiteral("/api/v1/transactions/{transaction_id}/upstream-recheck"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const qint64 id = request.idCapture(0);
                   const AuthContext caller = request.caller;
                   m_transactions.get(caller, id);
                   m_dispatcher.recheck(id, [this, caller, id, reply] {
                       try {
                           reply.sendData(m_transactions.get(caller, id).toJson());
                       } catch (...) {
                           reply.sendException(std::current_exception());
                       }
                   });
               });
    router.add(Method::Post, QString::fromLatin1(kHookPath), Access::Public,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const UpstreamWebhookReceiver::Result result =
                       m_receiver.receive(request.header("webhook-id"), request.header("webhook-timestamp"),
                                          request.header("webhook-signature"), request.body);
                   reply.sendData(
                       QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_receipt")},
                                   {QStringLiteral("settled"), result == UpstreamWebhookReceiver::Result::Settled}});
               });
}
