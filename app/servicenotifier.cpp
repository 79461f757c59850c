#include "servicenotifier.h"

#include <QByteArray>

#include <systemd/sd-daemon.h>

void ServiceNotifier::ready(const QString &status)
{
    send(QByteArrayLiteral("READY=1\nSTATUS=") + status.toUtf8());
}

void ServiceNotifier::stopping(const QString &status)
{
    send(QByteArrayLiteral("STOPPING=1\nSTATUS=") + status.toUtf8());
}

void ServiceNotifier::send(const QByteArray &state)
{
    // 0: keep $NOTIFY_SOCKET, STOPPING comes later. A failure to notify is not the server's failure:
    // systemd's start timeout reports it.
    [[maybe_unused]] const int sent = sd_notify(0, state.constData());
}
