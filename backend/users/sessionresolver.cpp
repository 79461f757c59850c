#include "sessionresolver.h"

#include "apierror.h"
#include "clock.h"
#include "http/apirequest.h"

#include <QCryptographicHash>

QString SessionResolver::hashToken(const QString &token)
{
    return QString::fromLatin1(QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256).toHex());
}

std::optional<UserInfo> SessionResolver::userFor(const ApiRequest &request)
{
    const QString token = QString::fromLatin1(request.header(kHeader)).trimmed();
    if (token.isEmpty() || token.size() > 128)
        return std::nullopt;
    return UserRepository(m_db).userForSession(request.caller.accountId, hashToken(token), m_clock.nowMs());
}

QString SessionResolver::actorFor(const ApiRequest &request)
{
    if (const std::optional<UserInfo> user = userFor(request))
        return QStringLiteral("user:") + user->name;
    return QStringLiteral("key:") + request.caller.keyId;
}

QString SessionResolver::adminActorFor(const ApiRequest &request)
{
    const std::optional<UserInfo> user = userFor(request);
    if (!user)
        return QStringLiteral("key:") + request.caller.keyId;
    if (user->role != UserRole::Admin)
        throw ApiError::forbidden(
            QStringLiteral("admin_role_required"),
            QStringLiteral("%1 is signed in as a clerk; an admin must sign in for this").arg(user->name));
    return QStringLiteral("user:") + user->name;
}
