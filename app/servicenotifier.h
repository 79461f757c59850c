#pragma once

#include <QString>

/// Tells the service manager about `serve`'s life (systemd Type=notify, sd_notify(3)): READY=1
/// once the server accepts connections, STOPPING=1 when a stop was asked for, each with a STATUS=
/// line for `systemctl status`. Does nothing when $NOTIFY_SOCKET is unset (not started by systemd).
class ServiceNotifier final
{
public:
    /// READY=1 and STATUS=`status`.
    void ready(const QString &status);
    /// STOPPING=1 and STATUS=`status`.
    void stopping(const QString &status);

private:
    static void send(const QByteArray &state);
};
