#include "sessionresolver.h"

#include "clock.h"

#include <QCryptographicHash>

QString SessionResolver::hashToken(const QString &token)
{
    return QString::fromLatin1(QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256).toHex());
}

std::optional<UserInfo> SessionResolver::userForToken(qint64 accountId, const QString &token)
{
    if (token.isEmpty() || token.size() > 128)
        return std::nullopt;
    return UserRepository(m_db).userForSession(accountId, hashToken(token), m_clock.nowMs());
}
