#pragma once

#include <QString>
#include <QTime>

#include <optional>

/// Settings of the server's own backups (serve --backup-at, --backup-dir, --backup-keep; issue 15).
struct BackupOptions
{
    /// IST time of day of the nightly backup; none: no nightly backup.
    std::optional<QTime> at;
    /// Folder of the archives (created 0700); serve's default is <data-dir>/backups.
    QString dir;
    /// How many archives are kept; older ones are removed after each successful backup.
    int keep = 7;
};
