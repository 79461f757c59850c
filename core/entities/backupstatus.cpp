#include "backupstatus.h"

#include "entityfields.h"

namespace {

/// `last_backup`: null, or the archive object read strictly.
std::optional<BackupArchive> lastBackupOf(const QJsonObject &json, AnswerReader &in)
{
    const QJsonValue value = json.value(QStringLiteral("last_backup"));
    if (value.isNull())
        return std::nullopt;
    const QJsonObject object = in.object(u"last_backup"); // records "missing" or a wrong type
    if (!in.ok())
        return std::nullopt;
    AnswerReader archiveIn(object, QStringLiteral("last backup"));
    BackupArchive archive;
    archive.file = archiveIn.string(u"file");
    archive.createdAt = archiveIn.dateTime(u"created_at");
    archive.bytes = archiveIn.integer(u"bytes");
    if (!archiveIn.ok()) {
        in.fail(u"last_backup", archiveIn.error());
        return std::nullopt;
    }
    return archive;
}

} // namespace

std::optional<BackupStatus> BackupStatus::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("backup state"));
    BackupStatus status;
    status.enabled = in.boolean(u"enabled");
    status.at = in.optionalString(u"at");
    status.folder = in.optionalString(u"folder");
    status.keep = in.optionalInteger(u"keep");
    status.nextRunAt = EntityFields::optionalDateTime(in, u"next_run_at");
    status.lastError = in.optionalString(u"last_error");
    status.stale = in.boolean(u"stale");
    if (in.ok())
        status.lastBackup = lastBackupOf(json, in);
    if (!in.ok())
        return EntityFields::failed<BackupStatus>(in, error);
    return status;
}

QJsonObject BackupStatus::toJson() const
{
    QJsonValue last = QJsonValue::Null;
    if (lastBackup)
        last = QJsonObject{{QStringLiteral("file"), lastBackup->file},
                           {QStringLiteral("created_at"), EntityFields::dateTime(lastBackup->createdAt)},
                           {QStringLiteral("bytes"), lastBackup->bytes}};
    return QJsonObject{{QStringLiteral("enabled"), enabled},
                       {QStringLiteral("at"), EntityFields::stringOrNull(at)},
                       {QStringLiteral("folder"), EntityFields::stringOrNull(folder)},
                       {QStringLiteral("keep"), EntityFields::integerOrNull(keep)},
                       {QStringLiteral("next_run_at"), EntityFields::dateTimeOrNull(nextRunAt)},
                       {QStringLiteral("last_error"), EntityFields::stringOrNull(lastError)},
                       {QStringLiteral("last_backup"), last},
                       {QStringLiteral("stale"), stale}};
}
