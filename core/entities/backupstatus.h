#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

/// The newest archive of the nightly backup (the `last_backup` object of GET /api/v1/server/backup).
struct BackupArchive
{
    QString file;        ///< the archive's file name inside the backup folder
    QDateTime createdAt; ///< when the backup started (IST on the wire)
    qint64 bytes = 0;    ///< the archive's size in bytes
};

/// The server's own nightly backup (GET /api/v1/server/backup, admin; issue 15): when it runs, where it goes,
/// how many are kept, the newest archive and whether it is stale (none newer than 2 days, or none at all).
/// Everything optional is null, and `enabled` false, on a server without a data directory.
struct BackupStatus
{
    bool enabled = false;
    std::optional<QString> at;          ///< the IST time of day "HH:mm", or null when off
    std::optional<QString> folder;      ///< the backup folder on the server
    std::optional<qint64> keep;         ///< how many archives are kept
    std::optional<QDateTime> nextRunAt; ///< the next run (IST on the wire), or null when off
    std::optional<QString> lastError;   ///< why the last run failed, or null
    std::optional<BackupArchive> lastBackup;
    bool stale = true;

    /// Decodes the answer strictly; nullopt with `*error` naming the field when one is missing or mistyped.
    static std::optional<BackupStatus> fromJson(const QJsonObject &json, QString *error);
    /// The answer's form: every field present, the optional ones null when absent.
    QJsonObject toJson() const;
};
