#include "user.h"

#include "entityfields.h"

std::optional<User> User::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("user"));
    EntityFields::expectEntity(in, u"user");
    User user;
    user.id = in.integer(u"id");
    user.name = in.string(u"name");
    user.role = EntityFields::oneOf(in, u"role", {u"clerk", u"admin"});
    user.active = in.boolean(u"active");
    if (!in.ok())
        return EntityFields::failed<User>(in, error);
    return user;
}

QJsonObject User::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("user")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("role"), role},
                       {QStringLiteral("active"), active}};
}

std::optional<UserSignIn> UserSignIn::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("session"));
    EntityFields::expectEntity(in, u"session");
    UserSignIn session;
    session.token = in.string(u"session_token");
    session.expiresAt = in.dateTime(u"expires_at");
    const QJsonObject user = in.object(u"user");
    if (!in.ok())
        return EntityFields::failed<UserSignIn>(in, error);
    std::optional<User> decoded = User::fromJson(user, error);
    if (!decoded)
        return std::nullopt;
    session.user = std::move(*decoded);
    return session;
}

QJsonObject UserSignIn::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("session")},
                       {QStringLiteral("session_token"), token},
                       {QStringLiteral("expires_at"), EntityFields::dateTime(expiresAt)},
                       {QStringLiteral("user"), user.toJson()}};
}

std::optional<UserSignOut> UserSignOut::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("session"));
    EntityFields::expectEntity(in, u"session");
    UserSignOut signOut;
    signOut.signedOut = in.boolean(u"signed_out");
    if (!in.ok())
        return EntityFields::failed<UserSignOut>(in, error);
    return signOut;
}

QJsonObject UserSignOut::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("session")},
                       {QStringLiteral("signed_out"), signedOut}};
}
