#pragma once

#include <QString>
#include <QTime>

#include <optional>

/// Settings of the server's own backups (serve --backup-at, --backup-dir, --backup-keep; issue 15).
struct BackupOptions
{
    /// IST time of day of the nightly backup (default 02:30, a quiet hour for a shop); none: no nightly backup.
    std::optional<QTime> at = QTime(2, 30);
    /// Folder of the archives (created 0700); empty: <data-dir>/backups.
    QString dir;
    /// How many archives are kept; older ones are removed after each successful backup.
    int keep = 7;
};
