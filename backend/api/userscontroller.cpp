#include "userscontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/collection.h"
#include "entities/user.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "users/sessionresolver.h"

namespace {

User toEntity(const UserInfo &user)
{
    return User{user.id, user.name, UserRoles::name(user.role), user.active};
}

QJsonObject userJson(const UserInfo &user)
{
    return toEntity(user).toJson();
}

/// A PIN is text: a JSON number would lose leading zeros, so only strings are accepted.
QString pinField(const JsonFields &fields, const QString &field)
{
    return fields.requiredString(field);
}

} // namespace

UsersController::UsersController(Database &db, const Clock &clock) : m_audit(db, clock), m_users(db, clock, m_audit)
{}

void UsersController::registerRoutes(ApiRouter &router)
{
    router.add(
        QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/users/sign-in"), Access::Pos,
        [this](const ApiRequest &request, const ApiReply &reply) {
            const JsonFields fields(request.jsonBody());
            const QString name = fields.requiredString(QStringLiteral("name"));
            const QString pin = pinField(fields, QStringLiteral("pin"));
            const UserSession session =
                m_users.signIn(request.caller.accountId, name, pin, QStringLiteral("key:") + request.caller.keyId);
            reply.sendData(UserSignIn{session.token, QDateTime::fromMSecsSinceEpoch(session.expiresAtMs, Qt::UTC),
                                      toEntity(session.user)}
                               .toJson());
        });
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/users/sign-out"), Access::Pos,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString token = QString::fromLatin1(request.header(SessionResolver::kHeader)).trimmed();
                   if (token.isEmpty())
                       throw ApiError::badRequest(
                           QString(), QStringLiteral("missing_session_token"),
                           QStringLiteral("send the session to end in the X-Session-Token header"));
                   m_users.signOut(token); // an unknown or expired session is already signed out
                   reply.sendData(UserSignOut{}.toJson());
               });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/users"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   Collection<User> users;
                   for (const UserInfo &user : m_users.list(request.caller.accountId))
                       users.items.append(toEntity(user));
                   reply.sendData(users.toJson());
               });
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/users"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const QString actor = request.caller.actor();
                   const JsonFields fields(request.jsonBody());
                   const QString name = fields.requiredString(QStringLiteral("name"));
                   const QString role = fields.requiredString(QStringLiteral("role"));
                   const QString pin = pinField(fields, QStringLiteral("pin"));
                   reply.sendData(userJson(m_users.create(request.caller.accountId, actor, name, role, pin)), 201);
               });
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/users/{id}/reset-pin"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const qint64 id = request.idCapture(0);
                   const QString actor = request.caller.actor();
                   const JsonFields fields(request.jsonBody());
                   const QString pin = pinField(fields, QStringLiteral("pin"));
                   reply.sendData(userJson(m_users.resetPin(request.caller.accountId, actor, id, pin)));
               });
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/api/v1/users/{id}/deactivate"), Access::LiveAdmin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const qint64 id = request.idCapture(0);
                   const QString actor = request.caller.actor();
                   reply.sendData(userJson(m_users.deactivate(request.caller.accountId, actor, id)));
               });
}
