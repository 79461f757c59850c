#include "statementcontroller.h"

#include "apierror.h"
#include "entities/collection.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "upstream/statementrunrepository.h"
#include "upstream/upstreamdispatcher.h"

namespace {

constexpr int kMaxColumnName = 100;

} // namespace

StatementController::StatementController(Database &db, const Clock &clock, UpstreamDispatcher &dispatcher)
    : m_db(db), m_dispatcher(dispatcher), m_audit(db, clock), m_reconciler(db, dispatcher, clock)
{}

QString StatementController::upstreamOf(const QString &name)
{
    if (!m_dispatcher.hasUpstream(name))
        throw ApiError::notFound(QStringLiteral("unknown_upstream"),
                                 QStringLiteral("no upstream is named \"%1\"").arg(name.left(kMaxColumnName)));
    return name;
}

QMap<QString, QString> StatementController::columnsOf(const QJsonValue &value)
{
    QMap<QString, QString> columns;
    if (value.isUndefined() || value.isNull())
        return columns;
    if (!value.isObject())
        throw ApiError::badRequest(QStringLiteral("columns"), QStringLiteral("invalid_type"),
                                   QStringLiteral("columns must be an object mapping fields to header names, e.g. "
                                                  "{\"reference_id\": \"My Ref\"}"));
    const QJsonObject object = value.toObject();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const QString field = QStringLiteral("columns.") + it.key();
        if (!it.value().isString())
            throw ApiError::badRequest(field, QStringLiteral("invalid_type"),
                                       field + QStringLiteral(" must be a string"));
        const QString name = it.value().toString().trimmed();
        if (name.isEmpty() || name.size() > kMaxColumnName)
            throw ApiError::badRequest(
                field, QStringLiteral("invalid_column_name"),
                field + QStringLiteral(" must be a header name of 1 to %1 characters").arg(kMaxColumnName));
        JsonFields::requirePlainText(field, name);
        columns.insert(it.key(), name);
    }
    return columns;
}

void StatementController::registerRoutes(ApiRouter &router)
{
    using Method = QHttpServerRequest::Method;
    router.add(
        Method::Post, QString::fromLatin1(kImportPath), Access::LiveAdmin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QString upstream = upstreamOf(request.captures.value(0));
            const QJsonObject body = request.jsonBody();
            const QString fileName = JsonFields(body).requiredString(QStringLiteral("file_name"));
            if (fileName.size() > kMaxFileName)
                throw ApiError::badRequest(QStringLiteral("file_name"), QStringLiteral("file_name_too_long"),
                                           QStringLiteral("file_name must be at most %1 characters").arg(kMaxFileName));
            const QJsonValue csv = body.value(QStringLiteral("csv"));
            if (csv.isUndefined() || csv.isNull())
                throw ApiError::badRequest(QStringLiteral("csv"), QStringLiteral("missing_field"),
                                           QStringLiteral("csv is required: the statement file's text"));
            if (!csv.isString())
                throw ApiError::badRequest(QStringLiteral("csv"), QStringLiteral("invalid_type"),
                                           QStringLiteral("csv must be a string: the statement file's text"));
            UpstreamStatement statement =
                UpstreamStatement::parse(csv.toString().toUtf8(), columnsOf(body.value(QStringLiteral("columns"))));
            const QString actor = request.caller.actor();
            const qint64 account = request.caller.accountId;
            m_reconciler.reconcileInSteps(
                upstream, std::move(statement), fileName, actor,
                [this, reply, account, actor](const std::optional<StatementRun> &run, std::exception_ptr error) {
                    if (!run)
                        return reply.sendException(error);
                    try {
                        const StatementCounts &c = run->counts;
                        // The file name is the client's: never a template for arg().
                        m_audit.record(account, actor, QStringLiteral("upstream.statement"),
                                       QStringLiteral("Statement ") + run->fileName +
                                           QStringLiteral(" of the upstream ") + run->upstream +
                                           QStringLiteral(" (run %1): %2 rows, %3 matched, %4 settled, %5 reversed, "
                                                          "%6 mismatched, %7 unknown, %8 unreadable")
                                               .arg(run->id)
                                               .arg(c.rows)
                                               .arg(c.matched)
                                               .arg(c.settled)
                                               .arg(c.reversed)
                                               .arg(c.mismatched)
                                               .arg(c.unknown)
                                               .arg(c.unreadable));
                        reply.sendData(run->toJson());
                    } catch (...) {
                        reply.sendException(std::current_exception());
                    }
                });
        });
    router.add(Method::Get, QStringLiteral("/api/v1/upstreams/{name}/statements"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString upstream = upstreamOf(request.captures.value(0));
                   Collection<StatementRun> runs;
                   runs.items = StatementRunRepository(m_db).list(upstream, kMaxListed);
                   reply.sendData(runs.toJson());
               });
    router.add(
        Method::Get, QStringLiteral("/api/v1/upstreams/{name}/statements/{id}"), Access::Admin,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const QString upstream = upstreamOf(request.captures.value(0));
            const std::optional<StatementRun> run = StatementRunRepository(m_db).find(upstream, request.idCapture(1));
            if (!run)
                throw ApiError::notFound(
                    QStringLiteral("unknown_statement_run"),
                    QStringLiteral("the upstream %1 has no statement run %2").arg(upstream, request.captures.value(1)));
            reply.sendData(run->toJson());
        });
}
