#include "backupfolder.h"

#include "clock.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

QString BackupFolder::fileFor(const QDateTime &nowUtc) const
{
    return QDir(m_path).filePath(QStringLiteral("rechargedesk-%1.tar.gz")
                                     .arg(IstTime::toIst(nowUtc).toString(QStringLiteral("yyyyMMdd-HHmmss"))));
}

QFileInfoList BackupFolder::backups() const
{
    static const QRegularExpression name(QStringLiteral("^rechargedesk-\\d{8}-\\d{6}\\.tar\\.gz$"));
    QFileInfoList found;
    const QFileInfoList files =
        QDir(m_path).entryInfoList({QStringLiteral("rechargedesk-*.tar.gz")}, QDir::Files, QDir::Name | QDir::Reversed);
    for (const QFileInfo &file : files) {
        if (name.match(file.fileName()).hasMatch())
            found.append(file);
    }
    return found;
}

QDateTime BackupFolder::startedAt(const QFileInfo &file)
{
    const QDateTime wallClock = QDateTime::fromString(file.fileName().mid(13, 15), QStringLiteral("yyyyMMdd-HHmmss"));
    return IstTime::at(wallClock.date(), wallClock.time()).toUTC();
}

int BackupFolder::prune(int keep) const
{
    const QFileInfoList all = backups();
    int removed = 0;
    for (qsizetype i = qMax(keep, 1); i < all.size(); ++i)
        removed += QFile::remove(all.at(i).absoluteFilePath()) ? 1 : 0;
    return removed;
}
