#include "backuparchive.h"

#include "store/privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace {

struct ArchiveCloser
{
    void operator()(archive *a) const { archive_write_free(a); }
};
struct ReaderCloser
{
    void operator()(archive *a) const { archive_read_free(a); }
};
struct EntryFree
{
    void operator()(archive_entry *e) const { archive_entry_free(e); }
};

QString archiveError(archive *a)
{
    const char *text = archive_error_string(a);
    return text ? QString::fromLocal8Bit(text) : QStringLiteral("unknown libarchive error");
}

/// `name` without "." parts ("./keys/x" -> "keys/x", as GNU tar writes names); empty for an absolute name, one
/// with "..", or one that names only the top directory.
QString normalizedName(const QString &name)
{
    if (name.startsWith(QLatin1Char('/')))
        return QString();
    QStringList parts = name.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    parts.removeAll(QStringLiteral("."));
    if (parts.contains(QStringLiteral("..")))
        return QString();
    return parts.join(QLatin1Char('/'));
}

bool writeEntry(archive *a, const ArchiveEntry &entry, QString *error)
{
    QFile file(entry.path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(entry.path, file.errorString());
        return false;
    }
    std::unique_ptr<archive_entry, EntryFree> header(archive_entry_new());
    archive_entry_set_pathname_utf8(header.get(), entry.name.toUtf8().constData());
    archive_entry_set_size(header.get(), file.size());
    archive_entry_set_filetype(header.get(), AE_IFREG);
    archive_entry_set_perm(header.get(), 0600);
    archive_entry_set_mtime(header.get(), QFileInfo(file).lastModified().toSecsSinceEpoch(), 0);
    if (archive_write_header(a, header.get()) != ARCHIVE_OK) {
        *error = archiveError(a);
        return false;
    }
    qint64 written = 0;
    while (!file.atEnd()) {
        const QByteArray chunk = file.read(256 * 1024);
        if (chunk.isEmpty() && file.error() != QFileDevice::NoError) {
            *error = QStringLiteral("cannot read %1: %2").arg(entry.path, file.errorString());
            return false;
        }
        if (archive_write_data(a, chunk.constData(), size_t(chunk.size())) != chunk.size()) {
            *error = archiveError(a);
            return false;
        }
        written += chunk.size();
    }
    if (written != archive_entry_size(header.get())) {
        *error = QStringLiteral("%1 changed size while it was archived").arg(entry.path);
        return false;
    }
    return true;
}

} // namespace

namespace BackupArchive {

bool write(const QString &path, const QList<ArchiveEntry> &entries, QString *error)
{
    const QString partial = path + QStringLiteral(".partial");
    QFile::remove(partial);
    const QByteArray name = QFile::encodeName(partial);
    // Created 0600 from the first byte: the archive holds the vault key.
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = QStringLiteral("cannot create %1: %2").arg(partial, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    bool ok = false;
    {
        std::unique_ptr<archive, ArchiveCloser> a(archive_write_new());
        archive_write_set_format_pax_restricted(a.get());
        archive_write_add_filter_gzip(a.get());
        if (archive_write_open_fd(a.get(), fd) != ARCHIVE_OK) {
            *error = archiveError(a.get());
        } else {
            ok = true;
            for (const ArchiveEntry &entry : entries) {
                if (!writeEntry(a.get(), entry, error)) {
                    ok = false;
                    break;
                }
            }
            if (archive_write_close(a.get()) != ARCHIVE_OK && ok) {
                *error = archiveError(a.get());
                ok = false;
            }
        }
    }
    if (ok && ::fsync(fd) != 0) {
        *error = QStringLiteral("cannot write %1: %2").arg(partial, QString::fromLocal8Bit(strerror(errno)));
        ok = false;
    }
    ::close(fd);
    if (ok && ::rename(name.constData(), QFile::encodeName(path).constData()) != 0) {
        *error =
            QStringLiteral("cannot rename %1 to %2: %3").arg(partial, path, QString::fromLocal8Bit(strerror(errno)));
        ok = false;
    }
    if (!ok)
        QFile::remove(partial);
    return ok;
}

QList<ArchiveEntry> extract(const QString &path, const QString &directory, QString *error)
{
    std::unique_ptr<archive, ReaderCloser> a(archive_read_new());
    archive_read_support_format_tar(a.get());
    archive_read_support_filter_gzip(a.get());
    if (archive_read_open_filename(a.get(), QFile::encodeName(path).constData(), 256 * 1024) != ARCHIVE_OK) {
        *error = QStringLiteral("cannot read the backup %1: %2").arg(path, archiveError(a.get()));
        return {};
    }
    QList<ArchiveEntry> files;
    const QDir root(directory);
    archive_entry *header = nullptr;
    for (;;) {
        const int status = archive_read_next_header(a.get(), &header);
        if (status == ARCHIVE_EOF)
            break;
        if (status != ARCHIVE_OK) {
            *error = QStringLiteral("the backup %1 is damaged: %2").arg(path, archiveError(a.get()));
            return {};
        }
        const char *rawName = archive_entry_pathname_utf8(header);
        const QString rawText = rawName ? QString::fromUtf8(rawName) : QString();
        const QString name = normalizedName(rawText);
        const auto type = archive_entry_filetype(header);
        if (type == AE_IFDIR && name.isEmpty() && !rawText.startsWith(QLatin1Char('/')) &&
            !rawText.contains(QLatin1String("..")))
            continue; // "./", the top directory
        if (name.isEmpty() || (type != AE_IFREG && type != AE_IFDIR)) {
            *error =
                QStringLiteral("the backup %1 holds an entry this program does not restore: \"%2\"").arg(path, rawText);
            return {};
        }
        const QString target = root.filePath(name);
        if (type == AE_IFDIR) {
            PrivateFiles::ensureDirectory(target, nullptr);
            continue;
        }
        PrivateFiles::ensureDirectory(QFileInfo(target).absolutePath(), nullptr);
        const QByteArray targetName = QFile::encodeName(target);
        const int fd = ::open(targetName.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) {
            *error = QStringLiteral("cannot create %1: %2").arg(target, QString::fromLocal8Bit(strerror(errno)));
            return {};
        }
        const int copied = archive_read_data_into_fd(a.get(), fd);
        const bool synced = ::fsync(fd) == 0;
        ::close(fd);
        if (copied != ARCHIVE_OK || !synced) {
            *error = QStringLiteral("the backup %1 is damaged: %2").arg(path, archiveError(a.get()));
            return {};
        }
        files.append({name, target});
    }
    return files;
}

} // namespace BackupArchive
