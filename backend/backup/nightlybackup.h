#pragma once

#include "backupfolder.h"
#include "backupoptions.h"

#include <QObject>

#include <memory>

class Clock;
class DailyTimer;
class QThread;

/// Takes the server's nightly backup: at BackupOptions::at (IST) a BackupMaker archive of the data directory
/// and database goes into BackupFolder, on a worker thread (the API keeps answering; SQLite's snapshot reads
/// while sales commit), then the folder is pruned to BackupOptions::keep. The outcome of the last run is kept
/// for GET /api/v1/server/backup. Lives on the server's thread.
class NightlyBackup final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NightlyBackup)

public:
    /// `databaseLocation`: what Database::open() took; the backup opens its own read connection (or pg_dump) on it.
    NightlyBackup(const Clock &clock, BackupOptions options, QString dataDir, QString databaseLocation,
                  QObject *parent = nullptr);
    /// Waits for a running backup to finish.
    ~NightlyBackup() override;

    const BackupOptions &options() const { return m_options; }
    const BackupFolder &folder() const { return m_folder; }
    /// Starts a backup now; false when one is running already (or there is no folder).
    bool runNow();
    bool isRunning() const { return m_worker != nullptr; }
    /// The error of the last run; empty when it succeeded or none ran since start.
    const QString &lastError() const { return m_lastError; }

signals:
    /// A run ended: `path` of the new archive, or `error` (path empty).
    void finished(const QString &path, const QString &error);

private:
    void onWorkerDone(const QString &path, const QString &error);

    const Clock &m_clock;
    BackupOptions m_options;
    QString m_dataDir;
    QString m_databaseLocation;
    BackupFolder m_folder;
    std::unique_ptr<DailyTimer> m_timer;
    QThread *m_worker = nullptr;
    QString m_lastError;
};
