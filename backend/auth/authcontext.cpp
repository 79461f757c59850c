#include "authcontext.h"

QString AuthContext::actor() const
{
    return hasSession() ? QStringLiteral("user:") + userName : QStringLiteral("key:") + keyId;
}

namespace ModeNames {

QString mode(Mode mode)
{
    return mode == Mode::Test ? QStringLiteral("test") : QStringLiteral("live");
}

QString scope(Scope scope)
{
    return scope == Scope::Pos ? QStringLiteral("pos") : QStringLiteral("admin");
}

std::optional<Mode> modeFromString(const QString &text)
{
    if (text == QLatin1String("test"))
        return Mode::Test;
    if (text == QLatin1String("live"))
        return Mode::Live;
    return std::nullopt;
}

std::optional<Scope> scopeFromString(const QString &text)
{
    if (text == QLatin1String("pos"))
        return Scope::Pos;
    if (text == QLatin1String("admin"))
        return Scope::Admin;
    return std::nullopt;
}

} // namespace ModeNames
