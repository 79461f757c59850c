#include "keysapi.h"

QString KeysApi::listPath()
{
    return QStringLiteral("/api/v1/keys");
}

TypedCall<Collection<ApiKey>> KeysApi::list()
{
    return {m_api.get(listPath()), &Collection<ApiKey>::fromJson};
}

TypedCall<ApiKey> KeysApi::create(const QString &name, const QString &mode, const QString &scope)
{
    return {m_api.post(listPath(), QJsonObject{{QStringLiteral("name"), name},
                                               {QStringLiteral("mode"), mode},
                                               {QStringLiteral("scope"), scope}}),
            &ApiKey::fromJson};
}

TypedCall<ApiKey> KeysApi::revoke(const QString &keyId)
{
    return {
        m_api.post(QStringLiteral("%1/%2/revoke").arg(listPath(), QString::fromLatin1(QUrl::toPercentEncoding(keyId))),
                   QJsonObject()),
        &ApiKey::fromJson};
}
