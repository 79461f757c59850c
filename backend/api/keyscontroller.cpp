#include "keyscontroller.h"

#include "apierror.h"
#include "auth/apikeyservice.h"
#include "auth/authenticator.h"
#include "auth/authorizer.h"
#include "clock.h"
#include "entities/apikey.h"
#include "entities/collection.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "users/auditlog.h"

namespace {

ApiKey toEntity(const ApiKeyRow &key)
{
    return ApiKeyService::toEntity(key);
}

} // namespace

void KeysController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/keys"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   Collection<ApiKey> keys;
                   for (const ApiKeyRow &key : m_keys.list()) {
                       if (key.accountId == request.caller.accountId)
                           keys.items.append(toEntity(key));
                   }
                   reply.sendData(keys.toJson());
               });
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/keys"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString actor = request.caller.actor();
                   const JsonFields fields(request.jsonBody());
                   const QString name = fields.requiredString(QStringLiteral("name"));
                   const std::optional<Mode> mode =
                       ModeNames::modeFromString(fields.requiredString(QStringLiteral("mode")));
                   const std::optional<Scope> scope =
                       ModeNames::scopeFromString(fields.requiredString(QStringLiteral("scope")));
                   if (!mode)
                       throw ApiError::badRequest(QStringLiteral("mode"), QStringLiteral("invalid_mode"),
                                                  QStringLiteral("mode must be test or live"));
                   if (!scope)
                       throw ApiError::badRequest(QStringLiteral("scope"), QStringLiteral("invalid_scope"),
                                                  QStringLiteral("scope must be pos or admin"));
                   if (*mode == Mode::Live)
                       Authorizer::requireLiveAuthority(request.caller);
                   const std::optional<ApiKeyRow> caller = m_keys.find(request.caller.keyId);
                   const CreatedKey created = m_keys.create(
                       caller ? caller->accountName : ApiKeyService::defaultAccountName(), name, *mode, *scope);
                   const std::optional<ApiKeyRow> row = m_keys.find(created.keyId);
                   m_audit.record(request.caller.accountId, actor, QStringLiteral("key.create"),
                                  QStringLiteral("%1 (%2, %3, \"%4\")")
                                      .arg(created.keyId, ModeNames::mode(*mode), ModeNames::scope(*scope), name));
                   ApiKey key = toEntity(*row);
                   key.secret = created.secret;
                   reply.sendData(key.toJson(), 201);
               });
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/keys/{key_id}/revoke"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString actor = request.caller.actor();
                   const QString keyId = request.captures.value(0);
                   const std::optional<ApiKeyRow> key = m_keys.find(keyId);
                   if (!key || key->accountId != request.caller.accountId)
                       throw ApiError::notFound(QStringLiteral("key_not_found"),
                                                QStringLiteral("no key %1").arg(keyId));
                   if (key->mode == Mode::Live)
                       Authorizer::requireLiveAuthority(request.caller);
                   if (keyId == request.caller.keyId)
                       throw ApiError::conflict(QStringLiteral("cannot_revoke_own_key"),
                                                QStringLiteral("a key cannot revoke itself; use another admin key"));
                   m_keys.revoke(keyId);
                   m_authenticator.clearCache();
                   m_audit.record(request.caller.accountId, actor, QStringLiteral("key.revoke"), keyId);
                   reply.sendData(toEntity(*m_keys.find(keyId)).toJson());
               });
}
