#include "apikey.h"

#include "entityfields.h"

std::optional<ApiKey> ApiKey::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("API key"));
    EntityFields::expectEntity(in, u"api_key");
    ApiKey key;
    key.keyId = in.string(u"key_id");
    key.name = in.string(u"name");
    key.mode = EntityFields::oneOf(in, u"mode", {u"test", u"live"});
    key.scope = EntityFields::oneOf(in, u"scope", {u"pos", u"admin"});
    key.createdAt = in.dateTime(u"created_at");
    key.revokedAt = EntityFields::optionalDateTime(in, u"revoked_at");
    key.secret = in.optionalString(u"key_secret");
    if (!in.ok())
        return EntityFields::failed<ApiKey>(in, error);
    return key;
}

QJsonObject ApiKey::toJson() const
{
    QJsonObject json{{QStringLiteral("entity"), QStringLiteral("api_key")},
                     {QStringLiteral("key_id"), keyId},
                     {QStringLiteral("name"), name},
                     {QStringLiteral("mode"), mode},
                     {QStringLiteral("scope"), scope},
                     {QStringLiteral("created_at"), EntityFields::dateTime(createdAt)},
                     {QStringLiteral("revoked_at"), EntityFields::dateTimeOrNull(revokedAt)}};
    if (secret)
        json.insert(QStringLiteral("key_secret"), *secret);
    return json;
}
