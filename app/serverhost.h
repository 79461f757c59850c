#pragma once

#include "apiserver.h"

#include <QSemaphore>
#include <QThread>
#include <QUrl>

/// Runs the embedded API server, its database and services on their own thread
/// (docs/architecture.md, "Threads"): the GUI thread never touches the database; the terminal talks to
/// the server over HTTP like any other client (the first-run setup too: POST /api/v1/setup).
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

protected:
    void run() override;

private:
    QString m_location;
    ServerOptions m_options;
    QUrl m_url;
    QString m_error;
    QSemaphore m_started;
};
