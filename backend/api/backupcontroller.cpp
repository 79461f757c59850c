#include "backupcontroller.h"

#include "backup/nightlybackup.h"
#include "clock.h"
#include "entities/backupstatus.h"
#include "http/apirouter.h"
#include "plans/plansync.h"

#include <QJsonObject>

void BackupController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/server/backup"), Access::Admin,
               [this](const ApiRequest &, const ApiReply &reply) {
                   const QDateTime now = m_clock.nowUtc();
                   BackupStatus status;
                   if (m_backup) {
                       const BackupOptions &options = m_backup->options();
                       const QFileInfoList backups = m_backup->folder().backups();
                       if (!backups.isEmpty()) {
                           const QFileInfo &newest = backups.constFirst();
                           const QDateTime created = BackupFolder::startedAt(newest);
                           status.lastBackup = BackupArchive{newest.fileName(), created, newest.size()};
                           status.stale = created.msecsTo(now) > kStaleMs;
                       }
                       status.enabled = options.at.has_value();
                       status.folder = m_backup->folder().path();
                       status.keep = options.keep;
                       if (options.at) {
                           status.at = options.at->toString(QStringLiteral("HH:mm"));
                           status.nextRunAt = now.addMSecs(DailyTimer::msUntil(now, *options.at));
                       }
                       if (!m_backup->lastError().isEmpty())
                           status.lastError = m_backup->lastError();
                   }
                   reply.sendData(status.toJson());
               });
}
