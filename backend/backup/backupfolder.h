#pragma once

#include <QDateTime>
#include <QFileInfo>
#include <QFileInfoList>
#include <QString>

/// The folder of the server's nightly backups (serve --backup-dir): archives named
/// "rechargedesk-YYYYMMDD-HHMMSS.tar.gz" after their IST start time, so names sort by age.
class BackupFolder
{
public:
    explicit BackupFolder(QString path) : m_path(std::move(path)) {}

    const QString &path() const { return m_path; }
    /// The archive name for a backup started at `nowUtc`, in this folder.
    QString fileFor(const QDateTime &nowUtc) const;
    /// The backups in the folder, newest first (other files are ignored).
    QFileInfoList backups() const;
    /// When the backup `file` (one of backups()) was started: the IST time in its name, as UTC.
    static QDateTime startedAt(const QFileInfo &file);
    /// Removes the oldest backups so that `keep` (>= 1) remain; returns how many were removed.
    int prune(int keep) const;

private:
    QString m_path;
};
