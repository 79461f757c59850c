#pragma once

#include <QByteArray>
#include <QString>

class ApiRouter;
class Clock;
class Database;

/// POST /api/v1/setup (no API key: none exists yet): the terminal's first-run screen creates the shop, its
/// first admin and the terminal's test pos key through the API (issue 14) instead of reaching into the server's
/// database from the GUI thread. Body {"shop_name", "shop_address", "admin_name", "admin_pin"}; answers 201
/// {"entity": "shop_setup", "key_id", "key_secret"} and writes <data dir>/terminal.ini as ShopSetup::run().
///
/// Offered only where today's first run is: to the terminal that started this server in its own process.
/// The request must come from a loopback address and carry `X-Setup-Token` equal to the token the terminal
/// gave the server (ServerOptions::setupToken, random per start); a server without a token (`serve`), another
/// address or another token get 403 PERMISSION_ERROR `setup_not_allowed`. Once the shop has an admin it is
/// 409 `already_set_up`, whoever asks. Field errors as ShopSetup::run() (400, fields shop_name, shop_address,
/// admin_name, admin_pin).
class SetupController
{
public:
    /// The request header carrying the setup token.
    static constexpr const char *kTokenHeader = "X-Setup-Token";

    /// `setupToken` empty: the route refuses every request. `dataDir` receives terminal.ini.
    SetupController(Database &db, const Clock &clock, QByteArray setupToken, QString dataDir)
        : m_db(db), m_clock(clock), m_token(std::move(setupToken)), m_dataDir(std::move(dataDir))
    {}
    void registerRoutes(ApiRouter &router);

private:
    Database &m_db;
    const Clock &m_clock;
    QByteArray m_token;
    QString m_dataDir;
};
