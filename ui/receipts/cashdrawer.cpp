#include "cashdrawer.h"

#include <QFile>
#include <QProcess>
#include <QThread>
#include <QTimer>

#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

namespace {

/// Writes `bytes` to the existing file or device at `path` (never creating one); "" on success, else why not.
QString writeAll(const QString &path, const QByteArray &bytes)
{
    const QByteArray name = QFile::encodeName(path);
    const int fd = ::open(name.constData(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        if (error == ENOENT)
            return CashDrawer::tr("Could not open the cash drawer: %1 does not exist. Is the receipt printer on and "
                                  "plugged in? (Settings names the drawer's printer.)")
                .arg(path);
        if (error == EACCES)
            return CashDrawer::tr("Could not open the cash drawer: no permission to write to %1 (the user needs the "
                                  "group lp).")
                .arg(path);
        return CashDrawer::tr("Could not open the cash drawer: %1: %2").arg(path, qt_error_string(error));
    }
    qsizetype done = 0;
    QString problem;
    while (done < bytes.size()) {
        const ssize_t written = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0) {
            problem = CashDrawer::tr("Could not open the cash drawer: writing to %1 failed: %2")
                          .arg(path, qt_error_string(written < 0 ? errno : EIO));
            break;
        }
        done += written;
    }
    if (::close(fd) != 0 && problem.isEmpty())
        problem = CashDrawer::tr("Could not open the cash drawer: writing to %1 failed: %2")
                      .arg(path, qt_error_string(errno));
    return problem;
}

} // namespace

CashDrawer::CashDrawer(const QString &target, QObject *parent)
    : QObject(parent), m_target(target.trimmed()), m_timeout(new QTimer(this))
{
    m_timeout->setSingleShot(true);
    m_timeout->setInterval(kTimeoutMs);
    connect(m_timeout, &QTimer::timeout, this, [this] {
        if (m_lp)
            m_lp->kill(); // its finished() or errorOccurred() reports no more: m_waiting is cleared first
        finish(tr("The cash drawer's printer did not answer within %1 seconds. Is it on, with paper?")
                   .arg(kTimeoutMs / 1000));
    });
}

CashDrawer::~CashDrawer() = default;

QByteArray CashDrawer::pulseCommand()
{
    return QByteArray("\x1b\x70\x00\x19\xfa", 5);
}

QString CashDrawer::checkTarget(const QString &target)
{
    const QString text = target.trimmed();
    if (text.isEmpty() || text.startsWith(QLatin1Char('/')))
        return {};
    bool printable = text.size() <= 127 && !text.startsWith(QLatin1Char('-'));
    for (const QChar c : text) {
        if (c.unicode() <= 0x20 || c.unicode() >= 0x7f || QStringLiteral("/\\#'\"").contains(c))
            printable = false;
    }
    if (!printable)
        return tr("Give the printer's device (e.g. /dev/usb/lp0) or the name of its raw printer queue in CUPS "
                  "(letters, digits, - _ . only).");
    return {};
}

bool CashDrawer::open()
{
    if (!isEnabled())
        return false;
    if (m_waiting || m_writer || m_lp) {
        QMetaObject::invokeMethod(
            this, [this] { emit failed(tr("The cash drawer is still busy with the last opening. Try again.")); },
            Qt::QueuedConnection);
        return true;
    }
    const QString problem = checkTarget(m_target);
    if (!problem.isEmpty()) {
        QMetaObject::invokeMethod(
            this, [this, problem] { emit failed(problem); }, Qt::QueuedConnection);
        return true;
    }
    m_waiting = true;
    m_timeout->start();
    if (m_target.startsWith(QLatin1Char('/')))
        writeToDevice();
    else
        sendToQueue();
    return true;
}

void CashDrawer::writeToDevice()
{
    // A printer that is off or jammed can block a write for long: it runs on a thread of its own, which holds
    // copies only, so it may outlive this object.
    auto result = std::make_shared<QString>();
    m_writer = QThread::create([path = m_target, result] { *result = writeAll(path, pulseCommand()); });
    connect(m_writer, &QThread::finished, m_writer, &QObject::deleteLater);
    connect(m_writer, &QThread::finished, this, [this, result] {
        m_writer = nullptr;
        finish(*result);
    });
    m_writer->start();
}

void CashDrawer::sendToQueue()
{
    m_lp = new QProcess(this);
    connect(m_lp, &QProcess::started, this, [this] {
        m_lp->write(pulseCommand());
        m_lp->closeWriteChannel();
    });
    connect(m_lp, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // a crash or kill also ends in finished()
        m_lp->deleteLater();
        m_lp = nullptr;
        finish(tr("Could not open the cash drawer: the program lp could not be run (install the package "
                  "cups-client)."));
    });
    connect(m_lp, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        const QString said = QString::fromLocal8Bit(m_lp->readAllStandardError()).trimmed();
        m_lp->deleteLater();
        m_lp = nullptr;
        if (status == QProcess::NormalExit && exitCode == 0)
            finish(QString());
        else
            finish(tr("Could not open the cash drawer through the printer queue %1: %2")
                       .arg(m_target, said.isEmpty() ? tr("lp ended with code %1").arg(exitCode) : said));
    });
    m_lp->start(QStringLiteral("lp"), {QStringLiteral("-d"), m_target, QStringLiteral("-o"), QStringLiteral("raw")});
}

void CashDrawer::finish(const QString &error)
{
    if (!m_waiting)
        return; // already reported (the timeout came first)
    m_waiting = false;
    m_timeout->stop();
    if (error.isEmpty())
        emit opened();
    else
        emit failed(error);
}
