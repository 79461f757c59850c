#pragma once

#include <QObject>

class QSocketNotifier;

/// Turns SIGINT and SIGTERM into received() on the event loop through a self-pipe, so that the
/// owner stops cleanly (serve: ApiServer::stop(), then quit) instead of dying mid-request.
class UnixSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UnixSignals)

public:
    explicit UnixSignals(QObject *parent = nullptr);
    ~UnixSignals() override;

signals:
    /// SIGINT or SIGTERM arrived.
    void received(int signal);

private:
    static void handle(int signal);
    static int s_fds[2];
    QSocketNotifier *m_notifier = nullptr;
};
