#pragma once

#include "apiserver.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "httpclient.h"
#include "operatorcatalog.h"
#include "store/database.h"
#include "teststore.h"

#include <QUrl>

#include <memory>

/// The real API server on 127.0.0.1, port 0, over a fresh database in a temporary directory (a
/// TestStore: SQLite, or PostgreSQL when RECHARGEDESK_TEST_PG is set), with a test admin key and a
/// test pos key of account "shop" ready to use.
class TestServer
{
public:
    /// `clock` may be null (system clock). Fails the current test (QVERIFY) if it cannot start.
    explicit TestServer(ServerOptions options = defaultOptions(), const Clock *clock = nullptr);
    ~TestServer();

    /// Options tests start from: port 0, a 50 ms settle delay, and a setup token (a terminal built with
    /// TerminalOptions::setupToken = defaultOptions().setupToken may run the first-run setup).
    static ServerOptions defaultOptions();

    /// http://127.0.0.1:<port> + path, e.g. url("/api/v1/wallet").
    QUrl url(const QString &path) const;
    /// Authorization header values of the ready keys.
    const QByteArray &admin() const { return m_admin; }
    const QByteArray &pos() const { return m_pos; }
    /// A live admin key of account "shop", made on first use: live admin authority without a
    /// session (issue 12), for users, live sale terms, the catalogue and the upstream.
    const QByteArray &liveAdmin();
    /// Creates another key (another account when `account` differs); returns its header value.
    QByteArray createKey(Mode mode, Scope scope, const QString &account = ApiKeyService::defaultAccountName());
    /// Same, returning the key id and secret (for an ApiClient).
    CreatedKey createKeyPair(Mode mode, Scope scope, const QString &account = ApiKeyService::defaultAccountName());
    /// The server root, http://127.0.0.1:<port>.
    QUrl baseUrl() const { return url(QStringLiteral("/")); }

    Database &db() { return *m_db; }
    ApiServer &server() { return *m_server; }
    const QString &dataDir() const { return m_dataDirPath; }
    /// The data directory and database (its location() reopens what stop() closed).
    const TestStore &store() const { return m_store; }
    HttpClient &http() { return m_http; }

    /// Every table.column of the database (SQLite or PostgreSQL) with a value that contains `text`
    /// (secrets at rest: a sealed or erased value is not found). "(no tables read)" when none.
    QStringList cellsContaining(const QString &text);

    /// Stops the server and closes the database (to reopen it as a restarted server would).
    void stop();
    /// stop(), then the database opened again and a new server on it with the same options (a new port): what a
    /// restart of the program or a power cut leaves. Keys and sessions are the same (they are rows of the store).
    void restart();

private:
    /// Opens the store's database (migrating it).
    void openDatabase();
    /// Starts the server on the open database.
    void startServer();

    TestStore m_store;
    QString m_dataDirPath;
    ServerOptions m_options;
    SystemClock m_systemClock;
    const Clock *m_clock;
    OperatorCatalog m_catalog;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<ApiServer> m_server;
    QByteArray m_admin;
    QByteArray m_pos;
    QByteArray m_liveAdmin;
    HttpClient m_http;
};
