#pragma once

#include <QByteArray>
#include <QString>

/// Files and directories that hold the shop's data and secrets, kept to their owner (issue 12,
/// "Secrets and data at rest"): another local user of the shop PC reads nothing. POSIX modes;
/// on a platform without them the calls succeed without changing anything.
namespace PrivateFiles {

/// Creates `path` (and missing parents) with mode 0700 for the directory itself. A directory
/// that already exists is left as it is (it may be the user's choice, such as a shared mount):
/// when group or others may enter it, *warning (if not null) says so and how to tighten it.
/// False with *warning set when the directory cannot be created.
bool ensureDirectory(const QString &path, QString *warning);

/// Sets mode 0600 on `path` if it exists (database files, their -wal and -shm companions).
void restrictToOwner(const QString &path);

/// Writes `content` to `path` as a new file of mode 0600 (created with that mode, so no reader
/// can open it in between; an existing file is replaced, a symlink is refused). False with
/// *error set on failure.
bool writeFile(const QString &path, const QByteArray &content, QString *error);

} // namespace PrivateFiles
