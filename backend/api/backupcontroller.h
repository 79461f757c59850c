#pragma once

#include <QtGlobal>

class ApiRouter;
class Clock;
class NightlyBackup;

/// GET /api/v1/server/backup (admin; extension of api-v1.md for issue 15): the state of the server's nightly
/// backups, for the back office's Backup card:
/// {"data":{"enabled":true,"at":"02:30","folder":"/var/lib/rechargedesk/backups","keep":7,
///  "last_backup":{"file":"rechargedesk-20261124-023000.tar.gz","created_at":"2026-11-24 02:30:00","bytes":81234}
///  (null when none),"next_run_at":"2026-11-25 02:30:00" (IST; null when off),"stale":false,"last_error":null}}.
/// `stale` is true when no backup in the folder is newer than 2 days (kStaleMs), including when there is none.
class BackupController
{
public:
    /// `backup` may be null (no nightly backups configured: "enabled": false, stale true).
    BackupController(const Clock &clock, const NightlyBackup *backup) : m_clock(clock), m_backup(backup) {}
    void registerRoutes(ApiRouter &router);

    /// Age past which the newest backup counts as stale: 2 days, in milliseconds.
    static constexpr qint64 kStaleMs = 2LL * 24 * 3600 * 1000;

private:
    const Clock &m_clock;
    const NightlyBackup *m_backup;
};
