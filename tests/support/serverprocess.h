#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QUrl>

class TestStore;

/// The real `rechargedesk serve` binary as a child process on 127.0.0.1:0, for tests that
/// restart or kill -9 the server. The binary path comes from RECHARGEDESK_BINARY (set by CMake).
class ServerProcess
{
public:
    /// Starts `rechargedesk serve --listen 127.0.0.1:0 --data-dir dataDir` plus `extraArguments`
    /// and waits for its "listening on" line. False (with the output in *error) on failure.
    bool start(const QString &dataDir, const QStringList &extraArguments, QString *error);
    /// Same over a TestStore: its directory and database (TestStore::arguments()).
    bool start(const TestStore &store, const QStringList &extraArguments, QString *error);
    /// Starts `rechargedesk serve --listen 127.0.0.1:0 --config configFile` plus `extraArguments`: the file
    /// names the data directory and everything else (issue 15).
    bool startWithConfig(const QString &configFile, const QStringList &extraArguments, QString *error);
    /// Starts `rechargedesk serve --listen 127.0.0.1:0` plus `arguments` without waiting for it to listen, so
    /// several servers can start at the same moment; then waitUntilListening(). False (*error) when it cannot run.
    bool launch(const QStringList &arguments, QString *error);
    /// Waits for the "listening on" line of a launch()ed server. False (with its output in *error) on failure.
    bool waitUntilListening(QString *error);
    /// SIGKILL, no cleanup: what a power cut or OOM kill does.
    void kill();
    /// SIGTERM and wait for a clean exit; returns the exit code.
    int terminate();
    /// The server's process id (0 when not running), e.g. to read /proc/<pid>/status.
    qint64 processId() const { return m_process.processId(); }
    /// http://127.0.0.1:<port> (https:// with --tls).
    const QUrl &url() const { return m_url; }
    /// key_id printed at start and key_secret read from the key file it names, if the server
    /// created a key (serve prints only the file's path, never the secret).
    const QString &keyId() const { return m_keyId; }
    const QString &keySecret() const { return m_keySecret; }
    /// The key file serve printed; empty if it created no key.
    const QString &keyFile() const { return m_keyFile; }
    /// The key_secret line of a key file (serve's, or `keys create` output saved to a file).
    static QString secretInKeyFile(const QString &path);
    /// What the server printed on stdout up to and including its "listening on" line.
    const QString &startupOutput() const { return m_startupOutput; }
    /// What the server printed (stdout, then stderr) since it announced its port or since the last call.
    QString readOutput();
    /// Path of the binary under test.
    static QString binary();
    /// Runs a CLI subcommand to completion; returns exit code, stdout in *output.
    static int runCli(const QStringList &arguments, QString *output);
    /// Runs a CLI subcommand on `store` (its TestStore::arguments() appended), e.g. while its server runs. False
    /// with *error (the command, its exit code and output) when it does not exit 0; its output in *output.
    static bool runCliOn(const TestStore &store, const QStringList &arguments, QString *output, QString *error);
    /// `rechargedesk keys create --name tests` plus `options` (e.g. --mode live --scope admin) on `store`: the new
    /// key's id and secret. False with *error when the command fails or prints no key.
    static bool createKey(const TestStore &store, const QStringList &options, QString *keyId, QString *secret,
                          QString *error);
    /// A test admin key made with `rechargedesk keys create` on `store` (before a server starts, so `serve` makes
    /// none), as the Authorization header value (HTTP Basic); empty on failure.
    static QByteArray createTestAdminKey(const TestStore &store);

private:
    bool startWith(const QStringList &arguments, QString *error);

    QProcess m_process;
    QUrl m_url;
    QString m_keyId;
    QString m_keySecret;
    QString m_keyFile;
    QString m_startupOutput;
};
