#include "upstreamcontroller.h"

#include "apierror.h"
#include "clock.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "operatorcatalog.h"
#include "services/transactionservice.h"
#include "upstream/upstreamcallrepository.h"
#include "upstream/upstreamdispatcher.h"
#include "upstream/upstreamsalerepository.h"

#include <QJsonArray>

namespace {

/// The settings of a PUT /api/v1/upstream(s) body: `base_url` and an opaque `credential`, or `key_id` and
/// `key_secret`; the webhook fields; and for a named upstream its routing (`priority`, `services`, `operators`,
/// `enabled`).
UpstreamSettings settingsOf(const QJsonObject &body, const QString &name, const OperatorCatalog &catalog)
{
    const JsonFields fields(body);
    const QString webhookPassword = fields.optionalString(QStringLiteral("webhook_password")).value_or(QString());
    const QString webhookSecret = fields.optionalString(QStringLiteral("webhook_secret")).value_or(QString());
    const std::optional<QString> credential = fields.optionalString(QStringLiteral("credential"));
    UpstreamSettings settings;
    if (!credential) {
        settings = UpstreamSettings::checked(
            fields.requiredString(QStringLiteral("base_url")), fields.requiredString(QStringLiteral("key_id")),
            fields.requiredString(QStringLiteral("key_secret")), webhookPassword, webhookSecret);
    } else {
        if (fields.optionalString(QStringLiteral("key_id")) || fields.optionalString(QStringLiteral("key_secret")))
            throw ApiError::badRequest(QStringLiteral("credential"), QStringLiteral("credential_and_key"),
                                       QStringLiteral("give either credential (the aggregator's API key credential) "
                                                      "or key_id and key_secret (a RechargeDesk key), not both"));
        settings = UpstreamSettings::checkedCredential(fields.requiredString(QStringLiteral("base_url")), *credential,
                                                       webhookPassword, webhookSecret);
    }
    const auto strings = [&body](const QString &field) {
        const QJsonValue value = body.value(field);
        if (value.isUndefined() || value.isNull())
            return QStringList();
        if (!value.isArray())
            throw ApiError::badRequest(field, QStringLiteral("invalid_type"),
                                       field + QStringLiteral(" must be an array of strings"));
        QStringList list;
        for (const QJsonValue &item : value.toArray()) {
            if (!item.isString())
                throw ApiError::badRequest(field, QStringLiteral("invalid_type"),
                                           field + QStringLiteral(" must be an array of strings"));
            list.append(item.toString());
        }
        return list;
    };
    const QJsonValue enabled = body.value(QStringLiteral("enabled"));
    if (!enabled.isUndefined() && !enabled.isNull() && !enabled.isBool())
        throw ApiError::badRequest(QStringLiteral("enabled"), QStringLiteral("invalid_type"),
                                   QStringLiteral("enabled must be true or false"));
    const qint64 priority = body.contains(QStringLiteral("priority"))
                                ? fields.requiredInteger(QStringLiteral("priority"))
                                : qint64(settings.priority);
    settings.setRouting(name, int(qMin(priority, qint64(100'000))), strings(QStringLiteral("services")),
                        strings(QStringLiteral("operators")), enabled.toBool(true), catalog);
    return settings;
}

/// "/hooks/upstream" for `default` (the path of before), else "/hooks/upstream/<name>".
QString hookPathOf(const QString &name)
{
    return name == QLatin1String("default")
               ? QString::fromLatin1(UpstreamController::kHookPath)
               : QString::fromLatin1(UpstreamController::kHookPath) + QLatin1Char('/') + name;
}

} // namespace

UpstreamController::UpstreamController(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher,
                                       TransactionService &transactions, SettlementService &settlements,
                                       const OperatorCatalog &catalog)
    : m_db(db), m_clock(clock), m_dispatcher(dispatcher), m_transactions(transactions), m_catalog(catalog),
      m_audit(db, clock), m_resolver(db, settlements, m_audit), m_receiver(dispatcher, clock)
{}

UpstreamInfo UpstreamController::info(const QString &name)
{
    UpstreamSettingsRepository repository = m_dispatcher.settings();
    const std::optional<UpstreamSettings> settings = repository.load(name);
    UpstreamInfo info;
    info.name = name;
    info.configured = settings.has_value();
    info.state = QStringLiteral("not_configured");
    if (info.configured) {
        const UpstreamHealth health = repository.health(name);
        info.priority = settings->priority;
        info.services = settings->services;
        info.operators = settings->operators;
        info.enabled = settings->enabled;
        info.baseUrl = settings->baseUrl;
        info.keyId = settings->keyId;
        info.kind = settings->kind();
        info.credential = settings->credentialKind();
        info.offers = settings->offers;
        info.state = health.state;
        info.sinceMs = health.sinceMs;
        info.lastContactMs = health.lastContactMs;
        info.lastError = health.lastError;
    }
    info.webhookPath = hookPathOf(name);
    return info;
}

QJsonObject UpstreamController::view(qint64 accountId, const QString &name)
{
    UpstreamInfo info = this->info(name);
    info.unknownSales = UpstreamSaleRepository(m_db).unknownCount(accountId);
    info.attentionSales = UpstreamSaleRepository(m_db).attentionCount(accountId, m_dispatcher.attentionCutoffMs());
    info.attentionAfterS = m_dispatcher.attentionAfterMs() / 1000;
    return info.toJson();
}

void UpstreamController::set(const ApiRequest &request, const ApiReply &reply, const QString &name)
{
    const QString actor = request.caller.actor();
    const qint64 account = request.caller.accountId;
    const UpstreamSettings settings = settingsOf(request.jsonBody(), name, m_catalog);
    m_dispatcher.settings().save(settings, m_clock.nowMs());
    m_audit.record(account, actor, QStringLiteral("upstream.set"),
                   settings.credential.isEmpty()
                       ? QStringLiteral("Live sales may now go to the upstream %1 at %2 with key %3")
                             .arg(name, settings.baseUrl, settings.keyId)
                       : QStringLiteral("Live sales may now go to the upstream %1 at %2 with its dashboard credential")
                             .arg(name, settings.baseUrl));
    // Answered once what the upstream offers is read: the answer says which kind it is.
    m_dispatcher.readOffers(settings, [this, reply, account, name](const UpstreamOffersRead &) {
        try {
            reply.sendData(view(account, name));
        } catch (...) {
            reply.sendException(std::current_exception());
        }
    });
}

void UpstreamController::clear(const ApiRequest &request, const ApiReply &reply, const QString &name)
{
    if (!m_dispatcher.settings().clear(name, m_clock.nowMs()) && name != QLatin1String("default"))
        throw ApiError::notFound(QStringLiteral("upstream_not_found"), QStringLiteral("no upstream %1").arg(name));
    m_audit.record(request.caller.accountId, request.caller.actor(), QStringLiteral("upstream.clear"),
                   QStringLiteral("The upstream %1 was removed: its live sales go to the others, or are refused "
                                  "when none is left")
                       .arg(name));
    reply.sendData(view(request.caller.accountId, name));
}

void UpstreamController::check(const ApiReply &reply, const QString &name)
{
    const std::optional<UpstreamSettings> settings = m_dispatcher.settings().load(name);
    if (!settings)
        throw ApiError::conflict(QStringLiteral("upstream_not_configured"),
                                 QStringLiteral("no upstream %1 is configured; set one first").arg(name));
    m_dispatcher.check(*settings, [reply](const UpstreamDispatcher::CheckResult &r) {
        reply.sendData(UpstreamCheck{r.ok, r.httpStatus, r.latencyMs, r.message}.toJson());
    });
}

void UpstreamController::registerRoutes(ApiRouter &router)
{
    using Method = QHttpServerRequest::Method;
    const QString fallback = QStringLiteral("default");
    // The single-upstream routes of before act on the upstream named `default`.
    router.add(Method::Get, QStringLiteral("/api/v1/upstream"), Access::Pos,
               [this, fallback](const ApiRequest &request, const ApiReply &reply) {
                   reply.sendData(view(request.caller.accountId, fallback));
               });
    router.add(Method::Put, QStringLiteral("/api/v1/upstream"), Access::LiveAdmin,
               [this, fallback](const ApiRequest &request, const ApiReply &reply) { set(request, reply, fallback); });
    router.add(Method::Delete, QStringLiteral("/api/v1/upstream"), Access::LiveAdmin,
               [this, fallback](const ApiRequest &request, const ApiReply &reply) { clear(request, reply, fallback); });
    router.add(Method::Post, QStringLiteral("/api/v1/upstream/check"), Access::Admin,
               [this, fallback](const ApiRequest &, const ApiReply &reply) { check(reply, fallback); });
    // Several upstreams (issue 26): by name.
    router.add(Method::Get, QStringLiteral("/api/v1/upstreams"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   QJsonArray items;
                   for (const UpstreamSettings &settings : m_dispatcher.settings().list())
                       items.append(view(request.caller.accountId, settings.name));
                   reply.sendData(QJsonObject{{QStringLiteral("items"), items}});
               });
    router.add(
        Method::Put, QStringLiteral("/api/v1/upstreams/{name}"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) { set(request, reply, request.captures.value(0)); });
    router.add(
        Method::Delete, QStringLiteral("/api/v1/upstreams/{name}"), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) { clear(request, reply, request.captures.value(0)); });
    router.add(Method::Post, QStringLiteral("/api/v1/upstreams/{name}/check"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) { check(reply, request.captures.value(0)); });
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
    router.add(Method::Post, QStringLiteral("/api/v1/transactions/{transaction_id}/resolve"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const qint64 id = request.idCapture(0);
                   const JsonFields fields(request.jsonBody());
                   const UpstreamResolver::Decision decision = UpstreamResolver::checked(
                       fields.requiredString(QStringLiteral("status")), fields.requiredString(QStringLiteral("note")),
                       fields.optionalString(QStringLiteral("redeem_code")).value_or(QString()));
                   m_transactions.get(request.caller, id); // 404 unless the caller's
                   m_dispatcher.resolve(m_resolver, request.caller.accountId, id, decision, request.caller.actor());
                   reply.sendData(m_transactions.get(request.caller, id).toJson());
               });
    const auto hook = [this](const QString &name, const ApiRequest &request, const ApiReply &reply) {
        const UpstreamWebhookReceiver::Result result =
            m_receiver.receive(name, request.header("webhook-id"), request.header("webhook-timestamp"),
                               request.header("webhook-signature"), request.body);
        reply.sendData(QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_receipt")},
                                   {QStringLiteral("settled"), result == UpstreamWebhookReceiver::Result::Settled}});
    };
    router.add(Method::Post, QString::fromLatin1(kHookPath), Access::Public,
               [hook, fallback](const ApiRequest &request, const ApiReply &reply) { hook(fallback, request, reply); });
    router.add(
        Method::Post, QString::fromLatin1(kHookPath) + QStringLiteral("/{name}"), Access::Public,
        [hook](const ApiRequest &request, const ApiReply &reply) { hook(request.captures.value(0), request, reply); });
}
