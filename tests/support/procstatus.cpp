#include "procstatus.h"

#include <QFile>
#include <QList>
#include <QString>

qint64 procStatusKiB(qint64 pid, QByteArrayView key)
{
    QFile status(pid == 0 ? QStringLiteral("/proc/self/status") : QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith(key) && line.size() > key.size() && line.at(key.size()) == ':')
            return line.sliced(key.size() + 1).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}
