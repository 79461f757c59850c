#pragma once

#include <QList>
#include <QString>

/// One file of a backup archive: its name inside the archive ("rechargedesk.db", "keys/aadhaar.key")
/// and the file on disk it is read from (BackupArchive::write) or was extracted to (extract).
struct ArchiveEntry
{
    QString name;
    QString path;
};

/// The backup file format (issue 15): a gzip-compressed POSIX tar (pax) written and read with libarchive, so
/// `tar -tzf` lists it and any tar can take it apart. Only regular files; the archive file itself is created
/// with mode 0600 (it holds the vault key and every sale). Not thread-safe per call, but calls are independent.
namespace BackupArchive {

/// Writes `entries` into a new archive at `path`: written to "<path>.partial" (mode 0600) and renamed over
/// `path` only when complete, so a crash never leaves a half archive under the real name. False with *error
/// set when a source cannot be read or the archive cannot be written.
bool write(const QString &path, const QList<ArchiveEntry> &entries, QString *error);

/// Extracts every regular file of the archive at `path` under `directory` (which must exist): files mode
/// 0600, directories 0700. Names that are absolute, contain "..", or are not regular files or directories
/// are refused (the whole extraction fails). Returns the extracted files, or an empty list with *error set.
QList<ArchiveEntry> extract(const QString &path, const QString &directory, QString *error);

} // namespace BackupArchive
