#pragma once

#include <QString>

#include <optional>

/// Test keys run against the sandbox and the test wallet; live keys against the configured
/// fulfilment provider and the live wallet (api-conventions.md, "Authentication").
enum class Mode { Test, Live };

/// pos: the spec's endpoints, status checks, own wallet. admin: everything.
enum class Scope { Pos, Admin };

namespace ModeNames {
QString mode(Mode mode);                               ///< "test" / "live"
QString scope(Scope scope);                            ///< "pos" / "admin"
std::optional<Mode> modeFromString(const QString &);   ///< from "test" / "live"
std::optional<Scope> scopeFromString(const QString &); ///< from "pos" / "admin"
} // namespace ModeNames

/// Who is calling: the account, the key and what it may do. Made by the Authenticator.
struct AuthContext
{
    qint64 accountId = 0;
    QString keyId;
    Mode mode = Mode::Test;
    Scope scope = Scope::Pos;
    QString userName; ///< the signed-in person (X-Session-Token) when a controller resolved one
};
