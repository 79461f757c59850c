#include "healthcontroller.h"

#include "apierror.h"
#include "http/apirouter.h"
#include "store/database.h"
#include "store/migrations.h"

#include <QJsonDocument>

namespace {

/// 503 GATEWAY_ERROR `reason` with Retry-After: this server should take no traffic for now.
ApiError notReady(const QString &reason, const QString &description, int retryAfterSeconds)
{
    return ApiError::gatewayUnavailable(reason, description)
        .withHeader("Retry-After", QByteArray::number(retryAfterSeconds));
}

} // namespace

void HealthController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/healthz"), Access::Public,
               [this](const ApiRequest &, const ApiReply &reply) {
                   const bool ok = m_db.isAnswering();
                   const QJsonObject body{
                       {QStringLiteral("status"), ok ? QStringLiteral("ok") : QStringLiteral("unavailable")},
                       {QStringLiteral("database"), ok ? QStringLiteral("ok") : QStringLiteral("error")}};
                   reply.send(ok ? 200 : 503, "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact));
               });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/readyz"), Access::Public,
               [this](const ApiRequest &, const ApiReply &reply) {
                   QSet<int> applied;
                   try {
                       applied = m_db.appliedMigrations();
                   } catch (const DatabaseError &e) {
                       if (e.isUnavailable())
                           throw databaseUnavailableError(e);
                       qWarning("readyz: the database does not answer: %s", e.what());
                       throw notReady(QStringLiteral("database_unavailable"),
                                      QStringLiteral("the server's database does not answer"),
                                      kSchemaRetryAfterSeconds);
                   }
                   switch (schemaCurrency(applied)) {
                   case SchemaCurrency::Behind:
                       throw notReady(QStringLiteral("migrations_behind"),
                                      QStringLiteral("the database lacks migrations this server needs; restart it to "
                                                     "migrate the database"),
                                      kSchemaRetryAfterSeconds);
                   case SchemaCurrency::Ahead:
                       throw notReady(QStringLiteral("migrations_ahead"),
                                      QStringLiteral("a newer server migrated the database; upgrade this one"),
                                      kSchemaRetryAfterSeconds);
                   case SchemaCurrency::Current:
                       break;
                   }
                   const QJsonObject body{
                       {QStringLiteral("status"), QStringLiteral("ready")},
                       {QStringLiteral("schema_version"), *std::max_element(applied.cbegin(), applied.cend())}};
                   reply.send(200, "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact));
               });
}
