#include "privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace PrivateFiles {

bool ensureDirectory(const QString &path, QString *warning)
{
    const QString absolute = QDir(path).absolutePath();
    const QFileInfo info(absolute);
    if (!info.exists()) {
        if (!QDir().mkpath(absolute)) {
            if (warning)
                *warning = QStringLiteral("cannot create the directory %1").arg(absolute);
            return false;
        }
        QFile::setPermissions(absolute, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return true;
    }
#ifdef Q_OS_UNIX
    struct stat st
    {};
    if (warning && ::stat(QFile::encodeName(absolute).constData(), &st) == 0 && (st.st_mode & 077) != 0)
        *warning = QStringLiteral("the data directory %1 may be read by other users (mode %2); "
                                  "`chmod 700 %1` keeps the shop's data to its owner")
                       .arg(absolute, QString::number(st.st_mode & 0777, 8));
#endif
    return true;
}

void restrictToOwner(const QString &path)
{
    if (QFileInfo::exists(path))
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
}

bool writeFile(const QString &path, const QByteArray &content, QString *error)
{
#ifdef Q_OS_UNIX
    const QByteArray name = QFile::encodeName(path);
    ::unlink(name.constData()); // a new inode: a reader holding the old file gets nothing new
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = QStringLiteral("cannot create %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    qsizetype written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.constData() + written, size_t(content.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
            ::close(fd);
            return false;
        }
        written += n;
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    return true;
#else
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    return true;
#endif
}

} // namespace PrivateFiles
