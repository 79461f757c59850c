#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

/// A person of the shop who signs in with a PIN (the `user` entity of GET/POST /api/v1/users and its
/// reset-pin/deactivate answers, api-conventions.md "Beyond the spec"). `role` is "clerk" or "admin".
struct User
{
    qint64 id = 0;
    QString name;
    QString role;
    bool active = true;

    bool isAdmin() const { return role == QLatin1String("admin"); }

    /// Decodes the `user` entity; nullopt with `*error` naming the field when one is missing or mistyped.
    static std::optional<User> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

/// The answer of POST /api/v1/users/sign-in: the `session` entity with its token (sent as X-Session-Token), its
/// expiry (IST) and the signed-in user.
struct UserSignIn
{
    QString token;
    QDateTime expiresAt;
    User user;

    static std::optional<UserSignIn> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};

/// The answer of POST /api/v1/users/sign-out: the `session` entity with `signed_out` true (an unknown or expired
/// session is already signed out).
struct UserSignOut
{
    bool signedOut = true;

    static std::optional<UserSignOut> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};
