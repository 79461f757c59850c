#include "nightlybackup.h"

#include "backupmaker.h"
#include "clock.h"
#include "plans/plansync.h"
#include "store/privatefiles.h"

#include <QLoggingCategory>
#include <QThread>

namespace {
Q_LOGGING_CATEGORY(lcBackup, "rechargedesk.backup")
}

NightlyBackup::NightlyBackup(const Clock &clock, BackupOptions options, QString dataDir, QString databaseLocation,
                             QObject *parent)
    : QObject(parent), m_clock(clock), m_options(std::move(options)), m_dataDir(std::move(dataDir)),
      m_databaseLocation(std::move(databaseLocation)), m_folder(m_options.dir)
{
    if (m_options.at)
        m_timer = std::make_unique<DailyTimer>(m_clock, *m_options.at, [this] { runNow(); });
}

NightlyBackup::~NightlyBackup()
{
    if (m_worker) {
        m_worker->wait();
        delete m_worker;
    }
}

bool NightlyBackup::runNow()
{
    if (m_worker || m_folder.path().isEmpty())
        return false;
    QString warning;
    PrivateFiles::ensureDirectory(m_folder.path(), &warning);
    const BackupSource source{m_dataDir, m_databaseLocation, {m_folder.path()}};
    const QString target = m_folder.fileFor(m_clock.nowUtc());
    const qint64 nowMs = m_clock.nowUtc().toMSecsSinceEpoch();
    m_worker = QThread::create([this, source, target, nowMs] {
        QString error;
        const std::optional<BackupResult> result = BackupMaker::make(source, target, nowMs, &error);
        QMetaObject::invokeMethod(
            this, [this, path = result ? result->path : QString(), error] { onWorkerDone(path, error); });
    });
    m_worker->start();
    qCInfo(lcBackup, "backup started: %s", qPrintable(target));
    return true;
}

void NightlyBackup::onWorkerDone(const QString &path, const QString &error)
{
    m_worker->wait();
    delete m_worker;
    m_worker = nullptr;
    m_lastError = error;
    if (path.isEmpty()) {
        qCWarning(lcBackup, "backup failed: %s", qPrintable(error));
    } else {
        const int removed = m_folder.prune(m_options.keep);
        qCInfo(lcBackup, "backup written: %s (%d older removed)", qPrintable(path), removed);
    }
    emit finished(path, error);
}
