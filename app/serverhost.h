#pragma once

#include "apiserver.h"

#include <QSemaphore>
#include <QThread>
#include <QUrl>

#include <functional>
#include <memory>

class Database;

/// Runs the embedded API server, its database and services on their own thread
/// (architecture.md, "Threads"): the GUI thread never touches the database.
class ServerHost final : public QThread
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServerHost)

public:
    ServerHost(QString databaseLocation, ServerOptions options, QObject *parent = nullptr);
    /// Stops the server's event loop and waits for the thread.
    ~ServerHost() override;

    /// Starts the thread and waits until the server listens or fails (a second at most in
    /// practice). False with *error set on failure.
    bool startAndWait(QString *error);
    /// http://address:port of the running server.
    QUrl url() const { return m_url; }
    /// Runs `work` on the server thread with its database and waits for it (for one-off admin
    /// actions such as the first-run setup). Exceptions thrown by `work` are rethrown here.
    void runBlocking(const std::function<void(Database &)> &work);

protected:
    void run() override;

private:
    QString m_location;
    ServerOptions m_options;
    QUrl m_url;
    QString m_error;
    QSemaphore m_started;
    QObject *m_threadContext = nullptr;
    Database *m_database = nullptr;
};
