#include "backupcontroller.h"

#include "backup/nightlybackup.h"
#include "clock.h"
#include "http/apirouter.h"
#include "plans/plansync.h"

#include <QJsonObject>

void BackupController::registerRoutes(ApiRouter &router)
{
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/server/backup"), Access::Admin,
               [this](const ApiRequest &, const ApiReply &reply) {
                   const QDateTime now = m_clock.nowUtc();
                   QJsonValue last = QJsonValue::Null;
                   bool stale = true;
                   QJsonObject data{{QStringLiteral("enabled"), false},
                                    {QStringLiteral("at"), QJsonValue::Null},
                                    {QStringLiteral("folder"), QJsonValue::Null},
                                    {QStringLiteral("keep"), QJsonValue::Null},
                                    {QStringLiteral("next_run_at"), QJsonValue::Null},
                                    {QStringLiteral("last_error"), QJsonValue::Null}};
                   if (m_backup) {
                       const BackupOptions &options = m_backup->options();
                       const QFileInfoList backups = m_backup->folder().backups();
                       if (!backups.isEmpty()) {
                           const QFileInfo &newest = backups.constFirst();
                           const QDateTime created = BackupFolder::startedAt(newest);
                           last = QJsonObject{{QStringLiteral("file"), newest.fileName()},
                                              {QStringLiteral("created_at"), IstTime::format(created)},
                                              {QStringLiteral("bytes"), newest.size()}};
                           stale = created.msecsTo(now) > kStaleMs;
                       }
                       data[QStringLiteral("enabled")] = options.at.has_value();
                       data[QStringLiteral("folder")] = m_backup->folder().path();
                       data[QStringLiteral("keep")] = options.keep;
                       if (options.at) {
                           data[QStringLiteral("at")] = options.at->toString(QStringLiteral("HH:mm"));
                           data[QStringLiteral("next_run_at")] =
                               IstTime::format(now.addMSecs(DailyTimer::msUntil(now, *options.at)));
                       }
                       if (!m_backup->lastError().isEmpty())
                           data[QStringLiteral("last_error")] = m_backup->lastError();
                   }
                   data[QStringLiteral("last_backup")] = last;
                   data[QStringLiteral("stale")] = stale;
                   reply.sendData(data);
               });
}
