#include "usersapi.h"

QString UsersApi::listPath()
{
    return QStringLiteral("/api/v1/users");
}

QString UsersApi::auditLogPath()
{
    return QStringLiteral("/api/v1/audit-log");
}

TypedCall<Collection<User>> UsersApi::list()
{
    return {m_api.get(listPath()), &Collection<User>::fromJson};
}

TypedCall<User> UsersApi::create(const QString &name, const QString &role, const QString &pin)
{
    return {m_api.post(listPath(), QJsonObject{{QStringLiteral("name"), name},
                                               {QStringLiteral("role"), role},
                                               {QStringLiteral("pin"), pin}}),
            &User::fromJson};
}

TypedCall<User> UsersApi::resetPin(qint64 id, const QString &pin)
{
    return {m_api.post(QStringLiteral("%1/%2/reset-pin").arg(listPath()).arg(id),
                       QJsonObject{{QStringLiteral("pin"), pin}}),
            &User::fromJson};
}

TypedCall<User> UsersApi::deactivate(qint64 id)
{
    return {m_api.post(QStringLiteral("%1/%2/deactivate").arg(listPath()).arg(id), QJsonObject()), &User::fromJson};
}

TypedCall<UserSignIn> UsersApi::signIn(const QString &name, const QString &pin)
{
    return {m_api.post(listPath() + QStringLiteral("/sign-in"),
                       QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("pin"), pin}}),
            &UserSignIn::fromJson};
}

TypedCall<UserSignOut> UsersApi::signOut()
{
    return {m_api.post(listPath() + QStringLiteral("/sign-out"), QJsonObject()), &UserSignOut::fromJson};
}
