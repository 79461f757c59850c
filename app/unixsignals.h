#pragma once

#include <QObject>

class QSocketNotifier;

/// Turns SIGINT and SIGTERM into a clean QCoreApplication::quit() through a self-pipe, so the
/// server finishes its current batch and closes the database before exiting.
class UnixSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UnixSignals)

public:
    explicit UnixSignals(QObject *parent = nullptr);
    ~UnixSignals() override;

private:
    static void handle(int signal);
    static int s_fds[2];
    QSocketNotifier *m_notifier = nullptr;
};
